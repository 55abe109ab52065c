"""Reading a sweep file (docs/sweeps.md): the schema, its checks, and the list of runs.

A bad file is refused with ``SweepError`` naming ``file:line:column: key: what``, as the world
loader does for a world. PyYAML's composed node tree keeps every value's position; the values
themselves come from PyYAML's safe constructor.
"""

import dataclasses
import hashlib
import itertools
import json
import os
import re

import yaml

from ubot import _core

BUILTIN_METRICS = ("arrival_time", "collisions", "min_clearance", "path_length")
# What a run can keep, each mapped onto an argument of Simulation.record (docs/python.md).
OUTPUTS = ("frames", "mcap", "map", "pictures", "sensor_files", "gif")
TOP_LEVEL_KEYS = ("name", "worlds", "seed", "seeds", "steps", "parameters", "metrics", "outputs",
                  "start_state")
USER_METRIC = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
KEY_PATH_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


class SweepError(_core.Error, ValueError):
    """A sweep file that cannot run: ``file``, ``line``, ``column`` (1-based, 0 when unknown),
    ``key`` (e.g. ``parameters``) and the whole ``message`` (``file:line:column: key: what``)."""

    def __init__(self, file, line, column, key, what):
        self.file, self.line, self.column, self.key = file, line, column, key
        self.message = f"{file}:{line}:{column}: {key + ': ' if key else ''}{what}"
        super().__init__(self.message)


@dataclasses.dataclass(frozen=True)
class Run:
    """One run of a sweep: everything a worker needs, so a task is stateless."""

    index: int
    world: str  # the world as the sweep file names it
    world_text: str
    base_dir: str  # relative paths in the world (meshes) resolve against it
    seed: int  # the world seed of this run
    params: tuple  # ((key path, value), ...) in the sweep file's order
    steps: int
    metrics: tuple
    outputs: tuple
    sweep_dir: str  # user metric modules are imported from here first
    # A state file's bytes the run starts from (b"": step 0), its streams reseeded with `seed`.
    start_state: bytes = b""

    def key(self):
        """A digest of the run's definition: a result file with another key is stale."""
        fields = dataclasses.asdict(self)
        fields.pop("sweep_dir")
        fields["start_state"] = hashlib.sha256(self.start_state).hexdigest()
        text = json.dumps(fields, sort_keys=True, default=repr)
        return hashlib.sha256(text.encode()).hexdigest()


@dataclasses.dataclass
class Sweep:
    name: str
    file: str
    parameter_names: tuple
    runs: list
    outputs: tuple


def parse_key_path(path):
    """``robot[0].sensors[0].std`` -> ['robot', 0, 'sensors', 0, 'std'], or None if malformed."""
    tokens, pos = [], 0
    while pos < len(path):
        if tokens and path[pos] == "." and pos + 1 < len(path) and path[pos + 1] != "[":
            pos += 1
        m = KEY_PATH_TOKEN.match(path, pos)
        if not m or (m.group(1) is not None and tokens and path[pos - 1] != "."):
            return None
        tokens.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        pos = m.end()
    return tokens if tokens and isinstance(tokens[0], str) else None


def run_seed(sweep_seed, index):
    """The world seed of run ``index`` when the sweep gives ``seeds:`` as a count."""
    return _core.stream_seed(sweep_seed, f"sweep/{index}")


class _Reader:
    """Checks one sweep file's node tree, raising SweepError at the offending node."""

    def __init__(self, file, text):
        self.file = file
        try:
            self.root = yaml.compose(text, Loader=yaml.SafeLoader)
            self.data = yaml.safe_load(text)
        except yaml.MarkedYAMLError as e:
            mark = e.problem_mark or e.context_mark
            what = e.problem or str(e)
            raise SweepError(file, mark.line + 1, mark.column + 1, "", what) from None
        except yaml.reader.ReaderError as e:  # a character YAML does not allow (fuzz_python)
            before = text[:e.position]
            line, column = before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1
            raise SweepError(file, line, column, "",
                             f"character #x{e.character:04x} is not allowed in YAML") from None
        except yaml.YAMLError as e:
            raise SweepError(file, 0, 0, "", str(e).splitlines()[0]) from None

    def fail(self, node, key, what):
        mark = node.start_mark if node is not None else None
        line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        raise SweepError(self.file, line, column, key, what)

    def entries(self):
        if not isinstance(self.root, yaml.MappingNode):
            self.fail(self.root, "", "a sweep file is a mapping of " + ", ".join(TOP_LEVEL_KEYS))
        for key_node, value_node in self.root.value:
            if key_node.value not in TOP_LEVEL_KEYS:
                self.fail(key_node, key_node.value,
                          "unknown key (known: " + ", ".join(TOP_LEVEL_KEYS) + ")")
        return {k.value: v for k, v in self.root.value}


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _check_int(reader, node, key, value, minimum):
    if not _is_int(value) or value < minimum:
        reader.fail(node, key, f"expected an integer >= {minimum}, got {value!r}")
    if value >= 2**64:
        reader.fail(node, key, "does not fit in 64 bits")


def _read_worlds(reader, node, value, sweep_dir):
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        reader.fail(node, "worlds", "expected a world file or a non-empty list of world files")
    items = node.value if isinstance(node, yaml.SequenceNode) else [node]
    worlds = []
    for name, item in zip(names, items):
        path = os.path.join(sweep_dir, name)
        try:
            with open(path, encoding="utf-8") as f:
                worlds.append((name, f.read(), os.path.dirname(os.path.abspath(path))))
        except OSError as e:
            reader.fail(item, "worlds", f"cannot read {path}: {e.strerror}")
    return worlds


def _read_start_state(reader, node, value, sweep_dir):
    """`start_state:` a state file (relative to the sweep file), read once: its bytes travel
    with each run, so workers need no shared folder."""
    if value is None:
        return b""
    if not isinstance(value, str):
        reader.fail(node, "start_state", "expected the path of a state file (ubot run "
                    "--save-state, Simulation.save_state)")
    path = os.path.join(sweep_dir, value)
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        reader.fail(node, "start_state", f"cannot read {path}: {e.strerror}")


def _read_parameters(reader, node, value):
    if value is None:
        return []
    if not isinstance(value, dict):
        reader.fail(node, "parameters", "expected a mapping of world key path -> list of values")
    grid = []
    for key_node, value_node in node.value:
        path = key_node.value
        if path in (p for p, _ in grid):
            reader.fail(key_node, f"parameters.{path}", "given twice")
        values = value[path]
        if parse_key_path(path) is None:
            reader.fail(key_node, f"parameters.{path}",
                        "not a key path (keys joined by '.', list indices as [n])")
        if not isinstance(values, list) or not values:
            reader.fail(value_node, f"parameters.{path}", "expected a non-empty list of values")
        grid.append((path, values))
    return grid


def _read_seeds(reader, entries, data):
    sweep_seed = data.get("seed", 0)
    if "seed" in data:
        _check_int(reader, entries["seed"], "seed", sweep_seed, 0)
    seeds = data.get("seeds", 1)
    if isinstance(seeds, list):
        if not seeds:
            reader.fail(entries["seeds"], "seeds", "expected a count or a non-empty list")
        for i, s in enumerate(seeds):
            _check_int(reader, entries["seeds"].value[i], f"seeds[{i}]", s, 0)
    else:
        _check_int(reader, entries.get("seeds"), "seeds", seeds, 1)
    return sweep_seed, seeds


def _read_metrics(reader, node, value):
    if value is None:
        return BUILTIN_METRICS
    if not isinstance(value, list):
        reader.fail(node, "metrics", "expected a list of metric names")
    for i, m in enumerate(value):
        if not isinstance(m, str) or (m not in BUILTIN_METRICS and not USER_METRIC.match(m)):
            reader.fail(node.value[i], f"metrics[{i}]",
                        f"unknown metric {m!r} (built in: {', '.join(BUILTIN_METRICS)}; "
                        "or a Python function as module:function)")
    return tuple(value)


def _read_outputs(reader, node, value):
    if value is None or value == "none" or value == []:
        return ()
    items = value if isinstance(value, list) else [value]
    for i, o in enumerate(items):
        if o not in OUTPUTS:
            at = node.value[i] if isinstance(node, yaml.SequenceNode) else node
            reader.fail(at, "outputs", f"unknown output {o!r} (none, or a list of: "
                        + ", ".join(OUTPUTS) + ")")
    return tuple(items)


def load(path):
    """Reads and checks the sweep file ``path``; returns a Sweep with its runs in order."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise SweepError(path, 0, 0, "", f"cannot read the sweep file: {e.strerror}") from None
    return from_text(text, path)


def from_dict(spec, base_dir="."):
    """A sweep given as a dict (the file's schema); world files resolve against ``base_dir``."""
    return from_text(yaml.safe_dump(spec, sort_keys=False),
                     os.path.join(base_dir, "<dict>"))


def from_text(text, file):
    reader = _Reader(file, text)
    entries = reader.entries()
    data = reader.data
    sweep_dir = os.path.dirname(os.path.abspath(file))
    if "worlds" not in data:
        reader.fail(reader.root, "worlds", "missing: the world files to run")
    worlds = _read_worlds(reader, entries["worlds"], data["worlds"], sweep_dir)
    sweep_seed, seeds = _read_seeds(reader, entries, data)
    steps = data.get("steps", 1000)
    _check_int(reader, entries.get("steps"), "steps", steps, 1)
    grid = _read_parameters(reader, entries.get("parameters"), data.get("parameters"))
    metrics = _read_metrics(reader, entries.get("metrics"), data.get("metrics"))
    outputs = _read_outputs(reader, entries.get("outputs"), data.get("outputs"))
    start_state = _read_start_state(reader, entries.get("start_state"), data.get("start_state"),
                                    sweep_dir)
    name = data.get("name", os.path.splitext(os.path.basename(file))[0])
    if not isinstance(name, str):
        reader.fail(entries["name"], "name", "expected a string")

    runs = []
    replicas = seeds if isinstance(seeds, list) else range(seeds)
    combos = list(itertools.product(*[values for _, values in grid]))
    for (world, world_text, base_dir), combo, replica in itertools.product(worlds, combos,
                                                                           replicas):
        index = len(runs)
        seed = replica if isinstance(seeds, list) else run_seed(sweep_seed, index)
        params = tuple((path, v) for (path, _), v in zip(grid, combo))
        runs.append(Run(index, world, world_text, base_dir, seed, params, steps, metrics,
                        outputs, sweep_dir, start_state))
    return Sweep(name, file, tuple(p for p, _ in grid), runs, outputs)
