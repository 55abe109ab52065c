"""Loads an IR-SIM world into ubot, taking out the behaviours that Python has to run.

ubot's registry knows its built-in behaviours (dash, rvo, ...) and those registered natively.
A world written for IR-SIM may name behaviours that a script registers in Python
(``register_behavior`` and friends, usually after ``irsim.make``, so after the world is built).
The native loader gets the file untouched with ``host_behaviors=True``: it leaves those objects
and groups to this layer, which keeps them here as ``PythonBehavior`` plans, calls them every
step and passes their output as commands.

The file is parsed once, by the native loader, which hands back its document as the Python
values PyYAML's ``safe_load`` makes of the same text (IR-SIM's ``env.config``): each plain scalar
is resolved and constructed by PyYAML's own YAML 1.1 rules (``_plain``).
"""

import functools
from dataclasses import dataclass, field

import yaml

import ubot
from ubot import _core

_SECTIONS = ("robot", "obstacle")


@dataclass
class PythonBehavior:
    """A behaviour run in Python for objects of one YAML entry."""

    role: str  # 'robot' or 'obstacle'
    entry: int  # index of the YAML entry in its section
    config: dict  # the behaviour dict (name + parameters), as IR-SIM passes it
    group: bool  # a group_behavior (one call for all members) or a per-object behavior
    per_object: list = field(default_factory=list)  # per-object configs when a list was given


@dataclass
class LoadedWorld:
    sim: object
    behaviors: list  # of PythonBehavior
    entry_counts: dict  # role -> list of object counts per YAML entry
    entries: dict  # role -> list of YAML entry dicts (as written)
    world: dict  # the YAML 'world' section
    sections: dict  # IR-SIM's env.config: world, gui, robot, obstacle, custom (as written)


def native_knows(kinematics: str, key: str, name: str) -> bool:
    """Whether ubot's loader has ``key: {name: NAME}`` for a robot of that kinematics.

    Asked of the native registries (``ubot.behavior_names``, ``ubot.group_behavior_names``),
    so the answer follows whatever the build supports. An unknown kinematics counts as known:
    the native loader then reports the bad kinematics itself.
    """
    names = ubot.group_behavior_names if key == "group_behavior" else ubot.behavior_names
    try:
        return name in names(kinematics)
    except ValueError:
        return True


def _entries(doc: dict, role: str) -> list:
    section = doc.get(role)
    if section is None:
        return []
    return section if isinstance(section, list) else [section]


def _kinematics(entry: dict) -> str:
    kin = entry.get("kinematics") or {}
    return kin.get("name", "omni") if isinstance(kin, dict) else "omni"


def _python_behaviors(role: str, index: int, entry: dict) -> list:
    """The behaviours of one entry that Python has to run."""
    found = []
    kin = _kinematics(entry)
    group = entry.get("group_behavior")
    if isinstance(group, dict) and group.get("name") and not native_knows(kin, "group_behavior", group["name"]):
        found.append(PythonBehavior(role, index, dict(group), group=True))
    beh = entry.get("behavior")
    configs = beh if isinstance(beh, list) else [beh]
    if all(isinstance(c, dict) and c.get("name") for c in configs):
        if any(not native_knows(kin, "behavior", c["name"]) for c in configs):
            found.append(PythonBehavior(role, index, dict(configs[0]), group=False,
                                        per_object=[dict(c) for c in configs]))
    return found


_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()


@functools.lru_cache(maxsize=4096)
def _plain(text: str):
    """A plain scalar's value as PyYAML's safe_load makes it (its values are immutable, so a
    cache may hand the same one out). A tag SafeConstructor has no constructor for (``<<``,
    ``=``) stays the text: the native loader applies no merge keys either."""
    tag = _RESOLVER.resolve(yaml.ScalarNode, text, (True, False))
    construct = yaml.constructor.SafeConstructor.yaml_constructors.get(tag)
    if construct is None or tag == "tag:yaml.org,2002:merge":
        return text
    return construct(_CONSTRUCTOR, yaml.ScalarNode(tag, text))


def world_step_mode(doc) -> str:
    """The world's step_mode as IR-SIM reads it (stripped, lower case; default internal)."""
    world = doc.get("world") or {}
    return str(world.get("step_mode", "internal")).strip().lower()


def load(path: str, seed=None, step_mode=None) -> LoadedWorld:
    """``step_mode`` (make()'s) overrides the world's, as in IR-SIM: the native loader takes it
    as an option (the file is not rewritten)."""
    # The file itself, untouched: the behaviours nobody registered natively are left to this
    # layer (host_behaviors), which commands those objects every step.
    sim, doc = _core._load_with_document(str(path), seed, step_mode, _plain)
    if not isinstance(doc, dict):  # an empty file: the native loader accepts an empty world
        doc = {}
    if isinstance(doc.get("irsim"), dict):  # IR-SIM 2.12.0: a file shared with another simulator
        doc = doc["irsim"]
    if step_mode is not None:  # env.config shows the world as IR-SIM runs it
        doc["world"] = dict(doc.get("world") or {}, step_mode=step_mode)
    behaviors = []
    for role in _SECTIONS:
        for index, entry in enumerate(_entries(doc, role)):
            if isinstance(entry, dict):
                behaviors.extend(_python_behaviors(role, index, entry))
    entries = {role: _entries(doc, role) for role in _SECTIONS}
    counts = {role: [int(e.get("number", 1)) if isinstance(e, dict) else 1 for e in entries[role]]
              for role in _SECTIONS}
    sections = {"world": doc.get("world") or {}, "gui": doc.get("gui") or {},
                "robot": doc.get("robot"), "obstacle": doc.get("obstacle"),
                "custom": doc.get("custom") or {}}
    return LoadedWorld(sim, behaviors, counts, entries, doc.get("world") or {}, sections)
