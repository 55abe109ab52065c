#!/usr/bin/env python3
"""The YAML keys IR-SIM 2.12.0 accepts, per place, read from the installed IR-SIM's source.

ubot's rule for world files is "a key that IR-SIM 2.12.0 accepts in a place is accepted there"
(docs/irsim-keys.md). This script finds those keys in the installed `irsim` package by parsing
its source with `ast` (IR-SIM's code is not run: the package is only located), and prints them
as a markdown table: place | key | where IR-SIM reads it (`path:line` in the irsim package).

    build/venv/bin/python scripts/irsim_keys.py                 # print the section
    build/venv/bin/python scripts/irsim_keys.py --check FILE    # exit 1 and print a diff when
                                                                # FILE's section is stale
    build/venv/bin/python scripts/irsim_keys.py --write FILE    # rewrite FILE's section

The section is the text between the lines `<!-- irsim-keys:begin -->` and
`<!-- irsim-keys:end -->`.

Places: `top` (the file's top level), `world`, `object` (an entry of `robot:` / `obstacle:`),
`kinematics`, `shape`, `behavior`, `group_behavior`, `distribution`, `sensor` (an entry of
`sensors:`), `gui`, and their sub-blocks (`world.plot`, `object.plot`, `gui.keyboard`, ...).
A place followed by a name is the block with that `name` (`shape circle` is a `shape:` with
`name: circle`); its `name` row is where IR-SIM picks the name. The keys of the plain place
(`shape`, `behavior`, ...) hold whatever the name is.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import importlib.metadata
import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path

IRSIM_VERSION = "2.12.0"
BEGIN = "<!-- irsim-keys:begin -->"
END = "<!-- irsim-keys:end -->"


def _src(code: str) -> str:
    """Python source as ast.unparse writes it (quotes, spacing), to compare with unparsed code."""
    return ast.unparse(ast.parse(code, mode="eval").body)


@dataclass(frozen=True, order=True)
class Key:
    place: str
    key: str
    where: str  # "path:line", path relative to the irsim package
    kinematics: tuple[str, ...] = ()  # behaviours: the kinematics whose function reads the key


@dataclass
class _Collected:
    where: str
    kinematics: set[str] = field(default_factory=set)


class Extractor:
    def __init__(self, root: Path):
        self.root = root
        self.trees: dict[str, ast.Module] = {}
        self.found: dict[tuple[str, str], _Collected] = {}

    # ---- helpers ------------------------------------------------------------------------------

    def tree(self, rel: str) -> ast.Module:
        if rel not in self.trees:
            self.trees[rel] = ast.parse((self.root / rel).read_text(), filename=rel)
        return self.trees[rel]

    def add(self, place: str, key: str, rel: str, line: int, kinematics: str | None = None):
        entry = self.found.setdefault((place, key), _Collected(f"{rel}:{line}"))
        if kinematics:
            entry.kinematics.add(kinematics)

    def keys(self) -> list[Key]:
        return sorted(
            Key(place, key, c.where, tuple(sorted(c.kinematics)))
            for (place, key), c in self.found.items()
        )

    @staticmethod
    def cls(tree: ast.AST, name: str) -> ast.ClassDef:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name == name:
                return node
        raise LookupError(f"class {name} not found")

    @staticmethod
    def method(cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
        for node in cls.body:
            if isinstance(node, ast.FunctionDef) and node.name == name:
                return node
        return None

    @staticmethod
    def class_attr(cls: ast.ClassDef, name: str) -> ast.expr | None:
        for node in cls.body:
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                if node.target.id == name:
                    return node.value
            if isinstance(node, ast.Assign):
                if any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
                    return node.value
        return None

    @staticmethod
    def strings(node: ast.expr) -> list[tuple[str, int]]:
        """The string constants of a set / list / tuple literal, or of a dict literal's keys."""
        elts = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", [])
        return [(e.value, e.lineno) for e in elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)]

    @staticmethod
    def get_calls(node: ast.AST, receivers: set[str]) -> list[tuple[str, int]]:
        """`R.get("key", ...)` and `R["key"]` for a receiver R (as source text) in `receivers`."""
        receivers = {_src(r) for r in receivers}
        out = []
        for n in ast.walk(node):
            if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                    and n.func.attr in ("get", "pop") and n.args
                    and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str)
                    and ast.unparse(n.func.value) in receivers):
                out.append((n.args[0].value, n.lineno))
            elif (isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant)
                  and isinstance(n.slice.value, str) and ast.unparse(n.value) in receivers):
                out.append((n.slice.value, n.lineno))
        return out

    @staticmethod
    def name_tests(node: ast.AST, subject: str) -> list[tuple[ast.If, str]]:
        """`if <subject> == "value":` statements under node (also `elif`)."""
        out = []
        for n in ast.walk(node):
            if (isinstance(n, ast.If) and isinstance(n.test, ast.Compare)
                    and len(n.test.ops) == 1 and isinstance(n.test.ops[0], ast.Eq)
                    and ast.unparse(n.test.left) == _src(subject)
                    and isinstance(n.test.comparators[0], ast.Constant)):
                out.append((n, n.test.comparators[0].value))
        return out

    @staticmethod
    def params(fn: ast.FunctionDef, bound_positional: int = 0, bound_keywords=(),
               with_default_only: bool = False) -> list[tuple[str, int]]:
        """The parameters of fn a caller's **kwargs can set: not `self`, not bound by the call."""
        a = fn.args
        positional = a.posonlyargs + a.args
        if positional and positional[0].arg in ("self", "cls"):
            positional = positional[1:]
        n_defaults = len(a.defaults)
        out = []
        for i, arg in enumerate(positional):
            has_default = i >= len(positional) - n_defaults
            if i < bound_positional or arg.arg in bound_keywords:
                continue
            if i < len(a.posonlyargs) or (with_default_only and not has_default):
                continue
            out.append((arg.arg, arg.lineno))
        for arg, default in zip(a.kwonlyargs, a.kw_defaults):
            if arg.arg not in bound_keywords and not (with_default_only and default is None):
                out.append((arg.arg, arg.lineno))
        return out

    def callable_keys(self, rel: str, fn: ast.FunctionDef, bound_positional: int = 0,
                      bound_keywords=(), with_default_only: bool = False,
                      seen=None) -> list[tuple[str, str, int]]:
        """The keyword arguments fn takes from a caller's **kwargs: its own free parameters,
        the keys it reads from its **kwargs, and those of the module functions / classes it
        passes its **kwargs on to (or hands as a dict, as `_rvo_params(kwargs)`)."""
        seen = set() if seen is None else seen
        if (rel, fn.lineno) in seen:
            return []
        seen.add((rel, fn.lineno))
        out = [(k, rel, line) for k, line in
               self.params(fn, bound_positional, bound_keywords, with_default_only)]
        if fn.args.kwarg is None:
            return out
        kw = fn.args.kwarg.arg
        out += [(k, rel, line) for k, line in self.get_calls(fn, {kw})]
        tree = self.tree(rel)
        for call in ast.walk(fn):
            if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
                continue
            target = self.module_callable(tree, call.func.id)
            if target is None:
                continue
            if any(k.arg is None and ast.unparse(k.value) == kw for k in call.keywords):
                out += self.callable_keys(rel, target, len(call.args),
                                          {k.arg for k in call.keywords if k.arg}, seen=seen)
            for i, arg in enumerate(call.args):
                if isinstance(arg, ast.Name) and arg.id == kw:  # the kwargs dict itself
                    alias = self.params(target)[i][0]
                    out += [(k, rel, line) for k, line in self.get_calls(target, {alias})]
        return out

    def module_callable(self, tree: ast.Module, name: str) -> ast.FunctionDef | None:
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name == name:
                return node
            if isinstance(node, ast.ClassDef) and node.name == name:
                return self.method(node, "__init__")
        return None

    # ---- places -------------------------------------------------------------------------------

    def top(self):
        rel = "env/env_config.py"
        tree = self.tree(rel)
        for node in ast.walk(tree):
            if (isinstance(node, ast.AnnAssign) and "_kwargs_parse" in ast.unparse(node.target)
                    and isinstance(node.value, ast.Dict)):
                for k, line in self.strings(node.value):
                    self.add("top", k, rel, line)
        for k, line in self.get_calls(tree, {"com_list"}):
            self.add("top", k, rel, line)

    def gui(self):
        rel = "env/env_base.py"
        for k, line in self.get_calls(self.tree(rel), {'self.env_config.parse["gui"]'}):
            self.add("gui", k, rel, line)
        rel = "gui/keyboard_control.py"
        for k, line in self.get_calls(self.tree(rel), {"keyboard_kwargs"}):
            self.add("gui.keyboard", k, rel, line)
        rel = "gui/mouse_control.py"
        init = self.method(self.cls(self.tree(rel), "MouseControl"), "__init__")
        for k, line in self.params(init, bound_positional=1):  # MouseControl(ax, **mouse)
            self.add("gui.mouse", k, rel, line)

    def valid_params(self, place: str, rel: str, cls_name: str):
        v = self.class_attr(self.cls(self.tree(rel), cls_name), "_VALID_PARAMS")
        for k, line in self.strings(v):
            self.add(place, k, rel, line)

    def drop_bound_by_caller(self, place: str, rel: str, callees: set[str], init: ast.FunctionDef):
        """Drop the keys the code building the object binds itself: `World(world_name, ...,
        **parse["world"])` passes `name`, and `ObjectBase(role="robot", **kwargs)` `role`, so a
        YAML value for them is a second value (TypeError in IR-SIM). A keyword that is also a
        parameter of the calling function (`create_robot(kinematics, **kwargs)`) is the YAML's."""
        names = [k for k, _ in self.params(init)]
        for fn in ast.walk(self.tree(rel)):
            if not isinstance(fn, ast.FunctionDef):
                continue
            own = {k for k, _ in self.params(fn)}
            for call in ast.walk(fn):
                if not (isinstance(call, ast.Call) and ast.unparse(call.func) in callees
                        and any(k.arg is None for k in call.keywords)):
                    continue
                bound = set(names[:len(call.args)])
                bound |= {k.arg for k in call.keywords if k.arg and k.arg not in own}
                for key in bound:
                    self.found.pop((place, key), None)

    def world(self):
        self.valid_params("world", "world/world.py", "World")
        self.drop_bound_by_caller("world", "env/env_config.py", {"World"},
                                  self.method(self.cls(self.tree("world/world.py"), "World"),
                                              "__init__"))
        rel = "env/env_plot.py"
        for k, line in self.get_calls(self.tree(rel), {"world.plot_parse"}):
            self.add("world.plot", k, rel, line)
        # obstacle_map: a generator spec {name: ..., ...}
        rel = "world/map/__init__.py"
        tree = self.tree(rel)
        for fn_name, receiver in (("resolve_obstacle_map", "obstacle_map"),
                                  ("build_grid_from_generator", "spec")):
            fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == fn_name)
            for k, line in self.get_calls(fn, {receiver}):
                # `path` is the image generator's own key (yaml_param_names, below)
                if k != "path":
                    self.add("world.obstacle_map", k, rel, line)
        for path in sorted((self.root / "world/map").glob("*.py")):
            rel = path.relative_to(self.root).as_posix()
            for cls in ast.walk(self.tree(rel)):
                if not isinstance(cls, ast.ClassDef):
                    continue
                name = self.class_attr(cls, "name")
                names = self.class_attr(cls, "yaml_param_names")
                if not (isinstance(name, ast.Constant) and name.value
                        and isinstance(names, ast.Tuple)):
                    continue  # the generators' base class
                place = f"world.obstacle_map {name.value}"
                self.add(place, "name", rel, name.lineno)
                init = self.method(cls, "__init__")
                lines = {a.arg: a.lineno for a in init.args.args + init.args.kwonlyargs}
                for k, line in self.strings(names):
                    self.add(place, k, rel, lines.get(k, line))

    def object(self):
        self.valid_params("object", "world/object_base.py", "ObjectBase")
        self.drop_bound_by_caller("object", "world/object_factory.py",
                                  {"ObjectBase", "ObjectStatic"},
                                  self.method(self.cls(self.tree("world/object_base.py"),
                                                       "ObjectBase"), "__init__"))
        rel = "world/object_plot.py"
        fn = self.method(self.cls(self.tree(rel), "ObjectPlotOptions"), "with_overrides")
        for call in ast.walk(fn):
            if (isinstance(call, ast.Call) and ast.unparse(call.func) == "_replace_fields"
                    and len(call.args) == 3 and isinstance(call.args[2], ast.Dict)):
                for k, line in self.strings(call.args[2]):
                    self.add("object.plot", k, rel, line)
        for node in ast.walk(fn):  # `if "text_position" in values:`
            if (isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In)
                    and isinstance(node.left, ast.Constant)
                    and ast.unparse(node.comparators[0]) == "values"):
                self.add("object.plot", node.left.value, rel, node.lineno)

    def kinematics(self):
        rel = "lib/handler/kinematics_handler.py"
        tree = self.tree(rel)
        base = self.method(self.cls(tree, "KinematicsHandler"), "__init__")
        base_params = {k for k, _ in self.params(base)}  # name, noise, alpha: passed positionally
        own = {}
        for cls in tree.body:
            if not isinstance(cls, ast.ClassDef):
                continue
            for d in cls.decorator_list:
                if isinstance(d, ast.Call) and ast.unparse(d.func) == "register_kinematics":
                    kin = d.args[0].value
                    self.add(f"kinematics {kin}", "name", rel, d.lineno)
                    init = self.method(cls, "__init__")
                    for k, line in self.params(init):
                        if k not in base_params:
                            own.setdefault(k, set()).add(kin)
                            self.add(f"kinematics {kin}", k, rel, line)
        factory = self.method(self.cls(tree, "KinematicsFactory"), "create_kinematics")
        # `static` is the factory's own name (PassiveKinematics); it is not registered.
        for node in ast.walk(factory):
            if (isinstance(node, ast.Compare) and ast.unparse(node.left) == "name.lower()"
                    and isinstance(node.comparators[0], ast.Constant)):
                self.add(f"kinematics {node.comparators[0].value}", "name", rel, node.lineno)
        # ObjectBase calls create_kinematics(shape_wheelbase=..., role=role, **kinematics): a
        # `role` in the YAML block would be a second value for it.
        for k, line in self.params(factory, bound_keywords={"role", "shape_wheelbase"}):
            if k not in own:  # mode, wheelbase: only forwarded to the handlers that take them
                self.add("kinematics", k, rel, line)

    def shape(self):
        rel = "lib/handler/geometry_handler.py"
        tree = self.tree(rel)
        base = self.method(self.cls(tree, "geometry_handler"), "__init__")
        common = self.get_calls(base, {"kwargs"})
        for k, line in common:
            self.add("shape", k, rel, line)
        common_keys = {k for k, _ in common}
        gen_rel = "lib/algorithm/generation.py"
        gen = next(n for n in self.tree(gen_rel).body
                   if isinstance(n, ast.FunctionDef) and n.name == "random_generate_polygon")
        factory = self.method(self.cls(tree, "GeometryFactory"), "create_geometry")
        for branch, name in self.name_tests(factory, "name"):
            place = f"shape {name}"
            self.add(place, "name", rel, branch.lineno)
            cls_name = next(n.func.id for n in ast.walk(branch)
                            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name))
            cls = self.cls(tree, cls_name)
            build = self.method(cls, "construct_original_geometry")
            for k, line in self.params(build):
                if k not in common_keys:
                    self.add(place, k, rel, line)
            for call in ast.walk(build):
                if (isinstance(call, ast.Call)
                        and ast.unparse(call.func) == "random_generate_polygon"
                        and any(k.arg is None for k in call.keywords)):
                    bound = {k.arg for k in call.keywords if k.arg}
                    for k, line in self.params(gen, bound_keywords=bound):
                        self.add(place, k, gen_rel, line)
            validate = self.method(cls, "_validate_parts")
            if validate is not None:  # compound: the keys of each part besides its shape's
                for k, line in self.get_calls(validate, {"part_config"}):
                    self.add(f"{place} parts[]", k, rel, line)

    def behaviors(self, rel: str, place: str, decorators: set[str]):
        tree = self.tree(rel)
        for fn in tree.body:
            if not isinstance(fn, ast.FunctionDef):
                continue
            for d in fn.decorator_list:
                if not (isinstance(d, ast.Call) and ast.unparse(d.func) in decorators):
                    continue
                kin, name = d.args[0].value, d.args[1].value
                self.add(f"{place} {name}", "name", rel, d.lineno, kin)
                # IR-SIM hands the function its inputs (ego_object, members, ...) and then the
                # YAML block as **kwargs: the YAML keys are the parameters with a default.
                for k, krel, line in self.callable_keys(rel, fn, with_default_only=True):
                    self.add(f"{place} {name}", k, krel, line, kin)

    def behavior(self):
        rel = "lib/behavior/behavior.py"
        for k, line in self.get_calls(self.tree(rel), {"self.behavior_dict"}):
            self.add("behavior", k, rel, line)
        self.behaviors("lib/behavior/behavior_methods.py", "behavior",
                       {"register_behavior", "register_behavior_class"})
        rel = "lib/behavior/group_behavior.py"
        for k, line in self.get_calls(self.tree(rel), {"self.behavior_dict"}):
            self.add("group_behavior", k, rel, line)
        self.behaviors("lib/behavior/group_behavior_methods.py", "group_behavior",
                       {"register_group_behavior", "register_group_behavior_class"})
        # ObjectBase reads wander / loop / range_* from `beh_config`: the behaviour block, or the
        # group_behavior block when the object has no behaviour.
        rel = "world/object_base.py"
        for k, line in self.get_calls(self.tree(rel), {"self.beh_config"}):
            self.add("behavior", k, rel, line)
            self.add("group_behavior", k, rel, line)

    def distribution(self):
        rel = "world/object_factory.py"
        tree = self.tree(rel)
        in_branch = set()
        for branch, name in self.name_tests(tree, 'distribution["name"]'):
            if any(isinstance(n, ast.Raise) for n in branch.body):
                continue  # `uniform`: NotImplementedError
            self.add(f"distribution {name}", "name", rel, branch.lineno)
            for stmt in branch.body:
                for k, line in self.get_calls(stmt, {"distribution"}):
                    self.add(f"distribution {name}", k, rel, line)
                    in_branch.add((k, line))
        for k, line in self.get_calls(tree, {"distribution"}):
            if (k, line) not in in_branch and k != "name":
                self.add("distribution", k, rel, line)

    def sensors(self):
        rel = "world/sensors/sensor_factory.py"
        tree = self.tree(rel)
        for k, line in self.get_calls(tree, {"kwargs"}):
            self.add("sensor", k, rel, line)
        classes = {}
        for path in sorted((self.root / "world/sensors").glob("*.py")):
            crel = path.relative_to(self.root).as_posix()
            for cls in self.tree(crel).body:
                if isinstance(cls, ast.ClassDef):
                    classes[cls.name] = (crel, cls)
        for branch, name in self.name_tests(tree, "sensor_type"):
            place = f"sensor {name}"
            self.add(place, "name", rel, branch.lineno)
            call = next(n for n in ast.walk(branch) if isinstance(n, ast.Call))
            for k, krel, line in self.sensor_keys(classes, call.func.id, len(call.args), set()):
                self.add(place, k, krel, line)

    def sensor_keys(self, classes, cls_name, bound_positional, bound_keywords):
        """A sensor class's keys: __init__'s free parameters, `kwargs.get`, the `plot:`
        sub-dict's keys (read from `kwargs.get("plot")`, also through `self._plot_cfg`), and its
        base class's keys through `super().__init__(..., **kwargs)`."""
        rel, cls = classes[cls_name]
        init = self.method(cls, "__init__")
        out = [(k, rel, line) for k, line in self.params(init, bound_positional, bound_keywords)]
        plot_alias = {"self._plot_cfg"}
        for node in ast.walk(init):
            if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                    and _src('kwargs.get("plot")') in ast.unparse(node.value)):
                plot_alias.add(node.targets[0].id)
        for k, line in self.get_calls(init, {"kwargs"}):
            out.append((k, rel, line))
        for k, line in self.get_calls(init, plot_alias):
            out.append((f"plot.{k}", rel, line))
        for helper in ast.walk(init):  # def _pg(key, default): plot.get(key, kwargs.get(...))
            if not isinstance(helper, ast.FunctionDef) or helper is init:
                continue
            src = ast.unparse(helper)
            arg = helper.args.args[0].arg
            prefixes = [p for p, needle in (("", f"kwargs.get({arg}"),
                                            ("plot.", f"_plot_cfg.get({arg}"))
                        if needle in src]
            for call in ast.walk(init):
                if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                        and call.func.id == helper.name and isinstance(call.args[0], ast.Constant)):
                    out += [(p + call.args[0].value, rel, call.lineno) for p in prefixes]
        for call in ast.walk(init):
            if (isinstance(call, ast.Call) and ast.unparse(call.func) == "super().__init__"
                    and any(k.arg is None for k in call.keywords)):
                base = ast.unparse(cls.bases[0])
                out += self.sensor_keys(classes, base, len(call.args),
                                        {k.arg for k in call.keywords if k.arg})
        return out

    def run(self) -> list[Key]:
        for step in (self.top, self.gui, self.world, self.object, self.kinematics, self.shape,
                     self.behavior, self.distribution, self.sensors):
            step()
        return self.keys()


def irsim_root() -> Path:
    spec = importlib.util.find_spec("irsim")
    if spec is None or spec.origin is None:
        raise SystemExit("IR-SIM is not installed (pip install ir-sim==2.12.0)")
    return Path(spec.origin).parent


def installed_version() -> str:
    return importlib.metadata.version("ir-sim")


def extract(root: Path | None = None) -> list[Key]:
    """Every (place, key) IR-SIM's source at root (default: the installed irsim) accepts."""
    return Extractor(root or irsim_root()).run()


def section(keys: list[Key] | None = None) -> str:
    """The generated markdown between the markers (without them)."""
    keys = extract() if keys is None else keys
    places = sorted({k.place for k in keys})
    lines = [
        f"<!-- generated by scripts/irsim_keys.py from IR-SIM {IRSIM_VERSION}'s source; "
        "do not edit by hand -->",
        "",
        f"{len(keys)} keys in {len(places)} places.",
        "",
        "| Place | Key | Where IR-SIM 2.12.0 reads it |",
        "|---|---|---|",
    ]
    lines += [f"| `{k.place}` | `{k.key}` | `{k.where}` |" for k in keys]
    return "\n".join(lines) + "\n"


def split(text: str, path: str) -> tuple[str, str, str]:
    """(before the section incl. the begin marker line, the section, the end marker and after)."""
    b = text.find(BEGIN + "\n")
    e = text.find(END, b + 1)
    if b < 0 or e < 0:
        raise SystemExit(f"{path}: no {BEGIN} ... {END} section")
    b += len(BEGIN) + 1
    return text[:b], text[b:e], text[e:]


def check(path: str) -> list[str]:
    """The unified diff from path's section to the generated one; empty when up to date."""
    _, current, _ = split(Path(path).read_text(), path)
    return list(difflib.unified_diff(current.splitlines(keepends=True),
                                     section().splitlines(keepends=True),
                                     f"{path} (section)", "generated"))


def write(path: str) -> bool:
    """Rewrite path's section; True when it changed."""
    text = Path(path).read_text()
    before, current, after = split(text, path)
    new = section()
    if new != current:
        Path(path).write_text(before + new + after)
    return new != current


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--check", metavar="FILE", help="exit 1 and print a diff when FILE's "
                       "section differs from the generated one")
    group.add_argument("--write", metavar="FILE", help="rewrite FILE's section")
    args = parser.parse_args(argv)
    version = installed_version()
    if version != IRSIM_VERSION:
        print(f"the installed IR-SIM is {version}; ubot's key rule is IR-SIM {IRSIM_VERSION}'s",
              file=sys.stderr)
        return 2
    if args.check:
        diff = check(args.check)
        sys.stdout.writelines(diff)
        if diff:
            print(f"\n{args.check} is stale: run scripts/irsim_keys.py --write {args.check}",
                  file=sys.stderr)
        return 1 if diff else 0
    if args.write:
        print(f"{args.write}: " + ("updated" if write(args.write) else "up to date"))
        return 0
    sys.stdout.write(section())
    return 0


if __name__ == "__main__":
    sys.exit(main())
