#!/usr/bin/env python3
"""The layering rules of docs/architecture.md ("Where each layer's config lives"), checked on the tree.

usage: test_layers.py [unittest args]   (Python standard library only)

- include/ubot/config/world_model.h reaches (through its includes, transitively) no header of a
  layer above the sensors: ubot/media, ros2, record, render, viz, mapping, sim;
- every layer config header (ros2/ros2_config.h, viz/plot_config.h, mapping/mapping_config.h,
  media/medium_model.h, config/sensor_media.h) reaches only core and config headers;
- the sensors (what ubot_sensors compiles, and each type's <type>.h, <type>_model.h and
  <type>_sinks.h; not the sink pieces of a type folder) reach no ros2, record, render, viz or
  mapping header, and the ubot_sensors library does not link (directly or not) ubot_render, ubot_record,
  ubot_viz, ubot_ros2 or ubot_ros2_msgs (the DEPS of src/*/CMakeLists.txt's ubot_component).
"""
import os
import re
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INCLUDE = os.path.join(ROOT, "include")
INCLUDE_LINE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

ABOVE_SENSORS = ("ubot/media/", "ubot/ros2/", "ubot/record/", "ubot/render/", "ubot/viz/",
                 "ubot/mapping/", "ubot/sim/")
SINKS = ("ubot/ros2/", "ubot/record/", "ubot/render/", "ubot/viz/", "ubot/mapping/")
LAYER_CONFIGS = ("ubot/ros2/ros2_config.h", "ubot/viz/plot_config.h",
                 "ubot/mapping/mapping_config.h", "ubot/media/medium_model.h",
                 "ubot/config/sensor_media.h")


def quoted_includes(path):
    with open(path, encoding="utf-8") as f:
        return INCLUDE_LINE.findall(f.read())


def reached(path):
    """Every ubot/... header `path` includes, transitively, with the chain that reaches it."""
    chains = {}
    todo = [(path, [])]
    while todo:
        current, chain = todo.pop()
        for name in quoted_includes(current):
            header = os.path.join(INCLUDE, name)
            if not name.startswith("ubot/") or name in chains or not os.path.exists(header):
                continue
            chains[name] = chain + [name]
            todo.append((header, chains[name]))
    return chains


def offending(path, forbidden):
    return {name: " -> ".join(chain) for name, chain in reached(path).items()
            if name.startswith(forbidden)}


def component_deps():
    """ubot_component(name ... DEPS a b ...) of src/*/CMakeLists.txt: name -> set of ubot deps."""
    deps = {}
    src = os.path.join(ROOT, "src")
    for sub in sorted(os.listdir(src)):
        cmake = os.path.join(src, sub, "CMakeLists.txt")
        if not os.path.exists(cmake):
            continue
        with open(cmake, encoding="utf-8") as f:
            text = re.sub(r"#.*", "", f.read())
        for name, body in re.findall(r"ubot_component\(\s*(\w+)(.*?)\)", text, re.S):
            words = body.split()
            after = words[words.index("DEPS") + 1:] if "DEPS" in words else []
            deps[name] = {w.split("::", 1)[1] for w in after if w.startswith("ubot::")}
    return deps


# A type folder's sink pieces (src/CMakeLists.txt's UBOT_SENSOR_PIECES) go into the sinks'
# libraries and include their headers on purpose.
PIECE_SOURCE = re.compile(r"_(config|record|ros2|viz|mapping)\.cpp$")


def sensor_files():
    """What ubot_sensors compiles and the headers of its classes: the top-level files of
    src/sensors and include/ubot/sensors, and in each type folder every source that is not a
    sink piece and the headers <type>.h, <type>_model.h and <type>_sinks.h."""
    files = []
    for base in (os.path.join(ROOT, "src/sensors"), os.path.join(INCLUDE, "ubot/sensors")):
        for name in sorted(os.listdir(base)):
            path = os.path.join(base, name)
            if name.endswith((".h", ".cpp")):
                files.append(path)
            elif os.path.isdir(path):
                files += [os.path.join(path, f) for f in sorted(os.listdir(path))
                          if (f.endswith(".cpp") and not PIECE_SOURCE.search(f))
                          or f in (f"{name}.h", f"{name}_model.h", f"{name}_sinks.h")]
    return files


class LayerTest(unittest.TestCase):
    def test_world_model_reaches_no_header_above_the_sensors(self):
        path = os.path.join(INCLUDE, "ubot/config/world_model.h")
        self.assertEqual(offending(path, ABOVE_SENSORS), {})

    def test_layer_config_headers_depend_on_core_and_config_only(self):
        for name in LAYER_CONFIGS:
            with self.subTest(header=name):
                path = os.path.join(INCLUDE, name)
                self.assertTrue(os.path.exists(path), path)
                others = {n: " -> ".join(c) for n, c in reached(path).items()
                          if not n.startswith(("ubot/core/", "ubot/config/"))}
                self.assertEqual(others, {})

    def test_sensor_sources_include_no_sink_header(self):
        files = sensor_files()
        # every type folder was walked, not only the top level
        self.assertIn(os.path.join(ROOT, "src/sensors/imu/imu.cpp"), files)
        self.assertIn(os.path.join(INCLUDE, "ubot/sensors/lidar2d/lidar2d_model.h"), files)
        for path in files:
            with self.subTest(file=os.path.relpath(path, ROOT)):
                self.assertEqual(offending(path, SINKS), {})

    def test_sensors_library_links_no_sink(self):
        deps = component_deps()
        self.assertIn("sensors", deps)
        linked, todo = set(), ["sensors"]
        while todo:
            for d in deps.get(todo.pop(), ()):
                if d not in linked:
                    linked.add(d)
                    todo.append(d)
        self.assertIn("scene", linked)  # the parse found the real dependencies
        self.assertEqual(linked & {"render", "record", "viz", "ros2", "ros2_msgs", "mapping",
                                   "mapping_sim", "sim"}, set())


if __name__ == "__main__":
    unittest.main(argv=sys.argv)
