"""ubot.irsim parses a world file once: the native loader hands back its document, and the Python
values made of it are what PyYAML's ``safe_load`` makes of the same text (IR-SIM's
``env.config``), scalar by scalar (issue 48)."""
import datetime
import glob
import math
import os

import pytest
import yaml

import ubot
from ubot import _core
from ubot.irsim import _world_prep

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def native_document(path):
    return _core._load_with_document(str(path), None, None, _world_prep._plain)


def same(a, b):
    """Equal as PyYAML's values, NaN equal to NaN and types compared too (1 is not 1.0 or True)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return type(a) is type(b) and a == b


def loadable_worlds():
    patterns = ["config/**/*.yaml", "examples/**/*.yaml", "tests/data/irsim_usage/**/*.yaml",
                "tests/data/irsim_worlds/**/*.yaml"]
    paths = sorted({p for pat in patterns
                    for p in glob.glob(os.path.join(ROOT, pat), recursive=True)})
    assert len(paths) > 40
    return paths


@pytest.mark.parametrize("path", loadable_worlds(), ids=lambda p: os.path.relpath(p, ROOT))
def test_every_bundled_world_reads_as_pyyaml_reads_it(path):
    with open(path, encoding="utf-8") as f:
        expected = yaml.safe_load(f)
    try:
        sim, document = native_document(path)
    except (ubot.WorldError, ValueError, RuntimeError) as err:
        pytest.skip(f"not a world the native loader builds on its own: {err}")
    assert same(document, expected)
    assert sim.time == 0.0


# YAML 1.1's implicit types as PyYAML resolves them, under `custom:` (IR-SIM 2.12.0's block of
# the user's own values, which the native loader keeps untouched).
TRICKY = """\
world: {height: 10, width: 10}
robot:
  - kinematics: {name: diff}
    state: [1, 1, 0]
    behavior: {name: dash}
custom:
  booleans: [yes, No, ON, off, true, FALSE, y, n]
  integers: [0, -17, +5, 0x1F, 017, 0b101, 1_000, 1:30, 08]
  floats: [1.5, -0.0, 1.0e+3, 6.8523015e+5, .5, 1_000.5, .inf, -.Inf, .NaN, 190:20:30.15]
  strings: [1e3, '1.5', "yes", hello world, 2.5.1, ~foo, 0x, "null"]
  nulls: [~, null, Null, NULL, ]
  empty:
  date: 2001-12-14
  stamp: 2001-12-14t21:59:43.10-05:00
  5: an integer key
  1.5: a float key
  true: a boolean key
  shared: &point [3, 4]
  again: *point
  nested: {a: [1, {b: 2}], c: "x"}
"""


def test_yaml_one_one_scalars_resolve_as_pyyaml_resolves_them(tmp_path):
    path = tmp_path / "tricky.yaml"
    path.write_text(TRICKY)
    sim, document = native_document(path)
    expected = yaml.safe_load(TRICKY)
    assert same(document, expected)
    custom = document["custom"]
    assert custom["booleans"] == [True, False, True, False, True, False, "y", "n"]
    assert custom["integers"][3:8] == [31, 15, 5, 1000, 90]
    assert custom["strings"][0] == "1e3" and custom["strings"][2] == "yes"
    assert custom["date"] == datetime.date(2001, 12, 14)
    assert custom["again"] is custom["shared"]  # an alias is the same object, as in PyYAML
    assert len(sim.objects) == 1


def test_env_config_comes_from_the_one_parse(tmp_path, monkeypatch):
    """ubot.irsim builds IR-SIM's env.config from the native document: PyYAML's parser is not
    called at all."""
    from ubot import irsim as uirsim

    path = tmp_path / "tricky.yaml"
    path.write_text(TRICKY)

    def no_second_parse(*args, **kwargs):
        raise AssertionError("the world file was parsed a second time")

    monkeypatch.setattr(yaml, "safe_load", no_second_parse)
    monkeypatch.setattr(yaml, "load", no_second_parse)
    env = uirsim.make(str(path), display=False)
    assert env.config["custom"]["integers"][3] == 31
    assert env.config["robot"][0]["behavior"] == {"name": "dash"}
    env.end(0)


def test_a_broken_file_is_one_world_error_from_the_native_parse(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("world: {height: 10\nrobot: [")
    with pytest.raises(ubot.WorldError) as err:
        native_document(path)
    assert err.value.file == str(path) and err.value.line >= 1


def test_a_list_as_a_mapping_key_is_a_world_error_at_the_key(tmp_path):
    """A key PyYAML cannot make a dict key either (under custom:, which the native loader keeps
    untouched): a WorldError with its place, not TypeError 'unhashable type'."""
    path = tmp_path / "listkey.yaml"
    path.write_text("world: {height: 10, width: 10}\ncustom:\n  ? [1, 2]\n  : 3\n")
    with pytest.raises(ubot.WorldError, match="a mapping key is a list or a mapping") as err:
        native_document(path)
    assert (err.value.line, err.value.column) == (3, 5)
