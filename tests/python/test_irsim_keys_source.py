"""ubot's key rule against IR-SIM 2.12.0's own source (issue 48).

The rule (docs/irsim-keys.md): a key that IR-SIM 2.12.0 accepts in a place is accepted there.
scripts/irsim_keys.py reads those keys from the installed IR-SIM's source; here
(a) the doc's generated table is what the script generates now, and
(b) each (place, key) it finds, set in that place of a small world with a value IR-SIM accepts,
    loads in ubot (warnings allowed). Each key is its own test; the real IR-SIM loads and steps
    the same worlds (one child interpreter for all), so the sample values are IR-SIM's.
"""

import copy
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("irsim")
yaml = pytest.importorskip("yaml")

from conftest import SOURCE_DIR  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "irsim_keys", os.path.join(SOURCE_DIR, "scripts", "irsim_keys.py"))
irsim_keys = importlib.util.module_from_spec(_spec)
sys.modules["irsim_keys"] = irsim_keys  # dataclasses look their module up
_spec.loader.exec_module(irsim_keys)

if irsim_keys.installed_version() != irsim_keys.IRSIM_VERSION:
    pytest.skip(f"the installed IR-SIM is {irsim_keys.installed_version()}, ubot's key rule is "
                f"IR-SIM {irsim_keys.IRSIM_VERSION}'s", allow_module_level=True)

KEYS = irsim_keys.extract()
DOC = os.path.join(SOURCE_DIR, "docs", "irsim-keys.md")
MAP_IMAGE = os.path.join(SOURCE_DIR, "tests", "data", "irsim_worlds", "cave.png")

# Keys that cannot be set in a YAML file although IR-SIM's source lists them, with the reason.
NOT_FROM_YAML = {
    # IR-SIM builds `map` shapes itself from world.obstacle_map (ObjectFactory.create_from_map)
    # with `points` a numpy (2, N) array; from a YAML list PointsGeometry fails at
    # `points[0] - half_x`, so no world file can use this shape.
    ("shape map", "name"): "built by IR-SIM from world.obstacle_map only",
    ("shape map", "points"): "built by IR-SIM from world.obstacle_map only",
    ("shape map", "reso"): "built by IR-SIM from world.obstacle_map only",
}

# Sample values: by (place, key) first, a named place's `name` is its name, then by key;
# object.plot and a sensor's plot keys by their suffix (show_* / *_color / *_alpha / *_zorder)
# when not listed.
BY_PLACE_KEY = {
    ("kinematics", "alpha"): [0.03, 0, 0, 0.03],
    ("kinematics", "noise"): True,
    ("kinematics", "name"): "diff",
    ("kinematics acker", "mode"): "steer",
    ("kinematics acker", "wheelbase"): 3.0,
    ("shape", "wheelbase"): 3.0,
    ("object", "name"): "r0",
    ("object", "number"): 2,
    ("object", "alpha"): 0.5,
    ("object", "color"): "g",
    ("object", "plot"): {"show_trajectory": True},
    ("object", "state"): [1, 1, 0],
    ("object", "goal"): [9, 9, 0],
    ("object", "velocity"): [0, 0],
    ("object", "acce"): [1.0, 1.0],
    ("object", "angle_range"): [-3.141592653589793, 3.141592653589793],  # IR-SIM wants 2 pi
    ("object", "vel_min"): [-1, -1],
    ("object", "vel_max"): [1, 1],
    ("object", "static"): False,
    ("object", "friction"): 0.5,
    ("object", "restitution"): 0.0,
    ("object.plot", "text_position"): [0.1, 0.1],
    ("sensor fmcw_lidar2d", "velocity_color"): True,
    ("sensor fmcw_lidar2d", "plot.velocity_color"): True,
    ("sensor lidar2d", "noise"): True,
    ("sensor fmcw_lidar2d", "noise"): True,
    ("sensor lidar2d", "number"): 20,
    ("sensor fmcw_lidar2d", "number"): 20,
    ("sensor lidar2d", "offset"): [0, 0, 0],
    ("sensor fmcw_lidar2d", "offset"): [0, 0, 0],
    ("world", "name"): "keys",
    ("world", "offset"): [0, 0],
    ("world", "friction"): 0.5,
    ("world", "restitution"): 0.0,
    ("world.plot", "saved_figure"): {"dpi": 100},
    ("world.plot", "viewpoint"): [5, 5],
    ("world.obstacle_map", "name"): "perlin",
    ("world.obstacle_map perlin", "name"): "perlin",
    ("world.obstacle_map image", "name"): "image",
    ("distribution", "center"): [5, 5, 0],
    ("distribution circle", "center"): [5, 5, 0],
    ("behavior", "name"): "dash",
    ("group_behavior", "name"): "orca",
    ("group_behavior sfm", "target_roles"): "all",
    ("shape compound parts[]", "name"): "circle",
    ("sensor", "name"): "lidar2d",
    ("sensor", "type"): "lidar2d",
}
BY_KEY = {
    # world
    "height": 10, "width": 10, "step_time": 0.1, "sample_time": 0.1, "step_mode": "internal",
    "control_mode": "auto", "collision_mode": "stop", "gravity": 9.81, "drive_tau": 0.05,
    "mdownsample": 1, "fog_map": True, "fog_map_resolution": 0.2, "status": "None",
    "obstacle_map": {"name": "perlin", "resolution": 0.5, "seed": 1}, "plot": {},
    # world.obstacle_map
    "resolution": 0.5, "complexity": 0.142857, "fill": 0.38, "fractal": 1, "attenuation": 0.5,
    "seed": 7, "path": "cave.png",
    # world.plot
    "figure_pixels": [800, 600], "no_axis": True, "show_title": False, "tight": True,
    "title": "keys",
    # top
    "custom": {"safe_margin": 0.15},
    # object
    "shape": {"name": "circle", "radius": 0.2}, "kinematics": {"name": "diff"},
    "mass": 2.0, "inertia": 0.5, "behavior": {"name": "dash"}, "group_behavior": {"name": "orca"},
    "goal_threshold": 0.2, "sensors": [{"name": "lidar2d"}], "arrive_mode": "position",
    "description": "a robot", "group": 0, "group_name": "team", "state_dim": 3, "vel_dim": 2,
    "unobstructed": False, "fov": 1.57, "fov_radius": 5.0, "distribution": {"name": "manual"},
    # object.plot
    "arrow_length": 0.4, "arrow_width": 0.6, "keep_trail_length": 10, "keep_traj_length": 10,
    "obj_linestyle": "--", "obj_linewidth": 1.5, "text_size": 12, "trail_fill": True,
    "trail_freq": 2, "trail_linewidth": 0.8, "trail_type": "circle", "trail_edgecolor": "k",
    "fov_edge_color": "k", "traj_style": "-.", "traj_width": 0.5,
    # kinematics
    "tau": 0.1,
    # shapes
    "radius": 0.3, "center": [0, 0], "random_shape": True, "radius_range": [0.1, 0.5],
    "vertices": [[4, 4], [5, 4], [5, 5]], "is_convex": True, "length": 1.0, "number": 1,
    "center_range": [4, 4, 6, 6], "avg_radius_range": [0.5, 1.0],
    "irregularity_range": [0, 0.5], "spikeyness_range": [0, 0.2], "num_vertices_range": [4, 6],
    "pose": [0.3, 0, 0],
    "parts": [{"name": "circle", "radius": 0.3},
              {"name": "rectangle", "length": 0.6, "width": 0.2, "pose": [0.3, 0, 0]}],
    # behaviours
    "loop": True, "range_low": [0, 0, -3.14], "range_high": [10, 10, 3.14], "wander": True,
    "target_roles": "all", "angle_tolerance": 0.1, "vxmax": 1.5, "vymax": 1.5, "acce": 1.0,
    "factor": 1.0, "mode": "rvo", "neighbor_threshold": 3.0, "vmax": 1.5,
    "relaxation_time": 0.5, "force_factor_desired": 1.0, "force_factor_social": 2.1,
    "force_factor_obstacle": 10.0, "sigma_obstacle": 0.8, "lambda_importance": 2.0,
    "gamma": 0.35, "n_angular": 2.0, "n_velocity": 3.0, "safety_radius": 0.1,
    "social_groups": [[0, 1]], "force_factor_coherence": 2.0,
    "force_factor_group_repulsion": 1.0, "group_repulsion_threshold": 1.0,
    "force_factor_gaze": 3.0, "gaze_vision_angle": 90.0,
    "neighborDist": 15.0, "maxNeighbors": 10, "timeHorizon": 20.0, "timeHorizonObst": 10.0,
    "safe_radius": 0.1, "maxSpeed": 1.0,
    # distributions
    "3d": False, "min_distance": 1.0,
    # sensors
    "range_min": 0.1, "range_max": 5.0, "angle_range": 3.14, "scan_time": 0.1, "std": 0.1,
    "angle_std": 0.01, "alpha": 0.3, "has_velocity": True, "color": "r",
    "motion_compensate": True, "velocity_noise_std": 0.1, "velocity_color_max": 2.0,
    "velocity_linewidth": 2.5, "no_hit_linewidth": 0.8, "no_hit_alpha": 0.03,
    "show_velocity_markers": True, "velocity_marker_size": 36,
    "velocity_marker_edge_width": 0.6, "force_scale": 0.05, "marker_size": 6.0,
    "linewidth": 1.5,
    # gui
    "keyboard": {"backend": "mpl"}, "mouse": {"zoom_factor": 1.2}, "key_lv_max": 3.0,
    "key_ang_max": 1.0, "key_lv": 0.0, "key_ang": 0.0, "key_rot": 0.0, "key_id": 0,
    "backend": "mpl", "global_hook": False, "zoom_factor": 1.1,
}


def sample(place, key):
    if (place, key) in BY_PLACE_KEY:
        return BY_PLACE_KEY[(place, key)]
    if key == "name" and " " in place:  # `shape circle`: the block with name: circle
        return place.split(" ", 1)[1]
    if key in BY_KEY:
        return BY_KEY[key]
    bare = key.removeprefix("plot.")
    if bare in BY_KEY:
        return BY_KEY[bare]
    if bare.startswith("show_"):
        return True
    for suffix, value in (("color", "red"), ("_alpha", 0.5), ("_zorder", 3)):
        if bare.endswith(suffix):
            return value
    raise KeyError(f"no sample value for {place}: {key}; add one to this test")


def base_world():
    return {
        "world": {"height": 10, "width": 10, "step_time": 0.1},
        "robot": [{"kinematics": {"name": "diff"}, "shape": {"name": "circle", "radius": 0.2},
                   "state": [1, 1, 0], "goal": [9, 9, 0]}],
    }


def two_robots(robot):
    robot.update(number=2, distribution={"name": "manual"},
                 state=[[1, 1, 0], [1, 3, 0]], goal=[[9, 1, 0], [9, 3, 0]])


def behaviour_kinematics(entry):
    """A kinematics whose IR-SIM behaviour function reads the key (diff when it does)."""
    if not entry.kinematics or "diff" in entry.kinematics:
        return "diff"
    return entry.kinematics[0]


def set_kinematics(world, robot, name):
    robot["kinematics"] = {"name": name}
    if name == "acker":
        robot["shape"] = {"name": "rectangle", "length": 4.6, "width": 1.6, "wheelbase": 3.0}
        robot["state"] = [1, 1, 0, 0]
        robot["goal"] = [9, 9, 0]
        world["world"].update(height=50, width=50)


def world_with(entry, tmp_path):
    """A small world that sets entry.key in entry.place, in a context where IR-SIM reads it."""
    place, key = entry.place, entry.key
    value = None if place == "top" else sample(place, key)
    world = base_world()
    robot = world["robot"][0]
    head, _, name = place.partition(" ")

    if place == "top":
        if key == "irsim":  # IR-SIM's blocks nested under `irsim:` beside another simulator's
            return {"irsim": world, "other_simulator": {"rate": 1000}}
        if key == "obstacle":
            world["obstacle"] = [{"shape": {"name": "circle", "radius": 0.5}, "state": [5, 5, 0]}]
        elif key == "gui":
            world["gui"] = {"keyboard": {"backend": "mpl"}}
        elif key == "custom":
            world["custom"] = value
        return world  # `world` and `robot` are in every world here
    if place == "gui":
        world["gui"] = {key: value}
    elif place in ("gui.keyboard", "gui.mouse"):
        world["gui"] = {place.split(".")[1]: {key: value}}
    elif place == "world":
        world["world"][key] = value
        if key == "obstacle_map" or key.startswith("fog_map"):
            world["world"]["obstacle_map"] = BY_KEY["obstacle_map"]
            world["world"]["fog_map"] = True
    elif place == "world.plot":
        world["world"]["plot"] = {key: value}
    elif head == "world.obstacle_map":
        spec = {"name": "perlin", "resolution": 0.5}
        if name == "image":
            shutil.copy(MAP_IMAGE, tmp_path / "cave.png")
            spec = {"name": "image", "path": "cave.png"}
        spec[key] = value
        world["world"]["obstacle_map"] = spec
    elif place == "object":
        robot[key] = value
        if key in ("number", "distribution", "group_behavior"):
            two_robots(robot)
        if key == "distribution":
            robot["number"] = 2
        if key in ("mass", "inertia", "friction", "restitution"):
            world["world"]["collision_mode"] = "contact"
        if key == "fov":
            robot["fov_radius"] = 5.0
    elif place == "object.plot":
        robot["plot"] = {key: value}
    elif head == "kinematics":
        set_kinematics(world, robot, name or "diff")
        if name == "static":  # an obstacle that never drives itself
            world["obstacle"] = [{"shape": {"name": "circle", "radius": 0.5}, "state": [5, 5, 0],
                                  "kinematics": {"name": "static"}}]
        else:
            robot["kinematics"][key] = value
        if key == "noise":
            robot["kinematics"]["alpha"] = BY_PLACE_KEY[("kinematics", "alpha")]
    elif head == "shape":
        if place == "shape":  # any shape's key: the wheelbase of an acker car's rectangle
            set_kinematics(world, robot, "acker")
            robot["shape"][key] = value
        elif name == "circle":
            robot["shape"] = {"name": "circle", "radius": 0.2, key: value}
        else:
            shapes = {
                "polygon": {"name": "polygon", "vertices": [[4, 4], [5, 4], [5, 5]]},
                "linestring": {"name": "linestring", "vertices": [[3, 6], [6, 6], [6, 8]]},
                "rectangle": {"name": "rectangle", "length": 1.0, "width": 0.5},
                "compound": {"name": "compound", "parts": copy.deepcopy(BY_KEY["parts"])},
                "compound parts[]": {"name": "compound", "parts": copy.deepcopy(BY_KEY["parts"])},
            }
            shape = shapes[name]
            if name == "compound parts[]":
                shape["parts"][0][key] = value  # the circle part
            else:
                shape[key] = value
                if entry.where.startswith("lib/algorithm/generation.py"):
                    shape["random_shape"] = True  # random_generate_polygon's keys
                if key == "spikeyness_range":  # a convex random shape sets its own (0, 0)
                    shape["is_convex"] = False
            world["obstacle"] = [{"shape": shape, "state": [0, 0, 0]}]
    elif head == "behavior":
        set_kinematics(world, robot, behaviour_kinematics(entry))
        robot["behavior"] = {"name": name or "dash", key: value}
        if name:
            world["obstacle"] = [{"shape": {"name": "circle", "radius": 0.5}, "state": [5, 5, 0]}]
    elif head == "group_behavior":
        set_kinematics(world, robot, behaviour_kinematics(entry))
        two_robots(robot)
        robot["group_behavior"] = {"name": name or "orca", key: value}
    elif head == "distribution":
        two_robots(robot)
        del robot["state"], robot["goal"]
        robot["distribution"] = {"name": name or "random", key: value}
        if name == "manual":
            two_robots(robot)
    elif head == "sensor":
        sensor = {key: value} if place == "sensor" else {"name": name}
        if key.startswith("plot."):
            sensor["plot"] = {key.removeprefix("plot."): value}
        elif place != "sensor":
            sensor[key] = value
        robot["sensors"] = [sensor]
        if name == "contact2d":
            world["world"]["collision_mode"] = "contact"
    else:
        raise AssertionError(f"no world for place {place!r}: add one to world_with()")
    return world


def _id(entry):
    return f"{entry.place}:{entry.key}"


def test_the_docs_table_is_generated_from_irsim_2_12_0():
    diff = irsim_keys.check(DOC)
    assert not diff, ("docs/irsim-keys.md is stale; run build/venv/bin/python "
                      "scripts/irsim_keys.py --write docs/irsim-keys.md\n" + "".join(diff))


def test_the_extraction_finds_every_place():
    places = {k.place.split(" ")[0] for k in KEYS}
    assert places >= {"top", "world", "world.plot", "world.obstacle_map", "object",
                      "object.plot", "kinematics", "shape", "behavior", "group_behavior",
                      "distribution", "sensor", "gui", "gui.keyboard", "gui.mouse"}
    assert irsim_keys.Key("object", "mass", "world/object_base.py:251") in KEYS
    assert [k for k in KEYS if (k.place, k.key) == ("behavior rvo", "vxmax")]  # via _rvo_params


def test_the_exclusions_are_extracted_keys():
    assert set(NOT_FROM_YAML) <= {(k.place, k.key) for k in KEYS}


@pytest.mark.parametrize("entry", [k for k in KEYS if (k.place, k.key) not in NOT_FROM_YAML],
                         ids=_id)
def test_ubot_accepts_the_irsim_key(entry, tmp_path):
    import ubot

    text = yaml.safe_dump(world_with(entry, tmp_path), sort_keys=False)
    error = None
    try:
        ubot.Simulation.from_yaml(text, base_dir=str(tmp_path))
    except Exception as e:  # noqa: BLE001 - the message is the result
        error = f"{type(e).__name__}: {e}"
    if error:
        pytest.fail(f"ubot rejects IR-SIM 2.12.0's {entry.place}: {entry.key} "
                    f"(read at irsim/{entry.where}):\n{error}\n--- world ---\n{text}",
                    pytrace=False)


def test_a_key_irsim_does_not_know_is_still_refused(tmp_path):
    """The check above can fail: ubot refuses a key that is not IR-SIM's."""
    import ubot

    world = base_world()
    world["robot"][0]["behavior"] = {"name": "rvo", "vxmaxx": 1.5}
    text = yaml.safe_dump(world, sort_keys=False)
    with pytest.raises(Exception, match="unknown key 'vxmaxx'"):
        ubot.Simulation.from_yaml(text, base_dir=str(tmp_path))


REAL_IRSIM = textwrap.dedent("""\
    import json, os, sys
    import irsim
    failed = {}
    for key, folder in json.loads(sys.argv[1]).items():
        os.chdir(folder)
        try:
            env = irsim.make("world.yaml", display=False, log_level="ERROR")
            env.step()
        except Exception as e:
            failed[key] = f"{type(e).__name__}: {e}"
    print(json.dumps(failed))
    """)


def test_irsim_2_12_0_itself_loads_the_sample_worlds(tmp_path):
    folders = {}
    for i, entry in enumerate(k for k in KEYS if (k.place, k.key) not in NOT_FROM_YAML):
        folder = tmp_path / str(i)
        folder.mkdir()
        world = world_with(entry, folder)
        (folder / "world.yaml").write_text(yaml.safe_dump(world, sort_keys=False))
        folders[_id(entry)] = str(folder)
    real = subprocess.run([sys.executable, "-c", REAL_IRSIM, json.dumps(folders)],
                          capture_output=True, text=True, timeout=600,
                          env=os.environ | {"MPLBACKEND": "Agg"})
    assert real.returncode == 0, real.stderr
    assert json.loads(real.stdout.strip().splitlines()[-1]) == {}
