"""ubot.WorldError's attributes (docs/python.md, "Errors"): file, line, column, key, reason and
message come from the loader's error fields (ubot::Error::location()), not from parsing its
message, so a file name holding ':' and digits keeps its place."""

import os

import pytest

import ubot

# What an unknown key of one of IR-SIM's places adds: IR-SIM 2.12.0 has no such key either.
IRSIM_NOTE = "; IR-SIM 2.12.0 has none either (docs/irsim-keys.md)"

NESTED = """\
robot:
  - state: [1, 1, 0]
  - state: [3, 1, 0]
    sensors:
      - {name: lidar2d, range_max: 5}
      - {name: lidar2d, range_max: 5}
  - state: [5, 1, 0]
"""


def load_error(path):
    with pytest.raises(ubot.WorldError) as info:
        ubot.Simulation(path)
    return info.value


def attributes(e):
    return e.file, e.line, e.column, e.key, e.reason


def test_a_bad_key_names_the_file_line_column_and_key(tmp_path):
    path = tmp_path / "bad_key.yaml"
    path.write_text("world: {width: 10}\nrobot:\n  - kinematics: {name: diff}\n    sensorz: []\n")
    e = load_error(path)
    reason = "unknown key 'sensorz' (did you mean 'sensors'?)" + IRSIM_NOTE
    assert attributes(e) == (str(path), 4, 5, "robot[0].sensorz", reason)
    assert e.message == str(e) == f"{path}:4:5: robot[0].sensorz: {reason}"
    assert isinstance(e, ValueError) and isinstance(e, ubot.Error)


def test_a_bad_value_in_a_nested_list_names_its_indexed_key(tmp_path):
    text = NESTED.replace("- {name: lidar2d, range_max: 5}\n      - {name: lidar2d, range_max: 5}",
                          "- {name: lidar2d, range_max: far}")
    with pytest.raises(ubot.WorldError) as info:
        ubot.Simulation.from_yaml(text, base_dir=str(tmp_path))
    e = info.value
    assert attributes(e) == (str(tmp_path / "<string>"), 5, 36, "robot[1].sensors[0].range_max",
                             "expected a number, got 'far'")
    # A value out of its bounds deeper in the same list: the second sensor, its own column.
    text = NESTED.replace("range_max: 5}\n  - state: [5", "range_max: 2e6}\n  - state: [5")
    e = load_error(write(tmp_path / "nested.yaml", text))
    assert (e.line, e.column, e.key) == (6, 36, "robot[1].sensors[1].range_max")
    assert e.reason == "must be at most 1e+06 m, got 2e6"


@pytest.mark.parametrize("name", ["a:1:2", "a:1:2: b"])
def test_colons_and_digits_in_the_file_name_stay_in_the_file(tmp_path, name):
    # Parsing "FILE:LINE:COLUMN: " out of the message took ".../a" for the file and 1 and 2 for
    # the line and column in a folder "a:1:2: b", and ".../x" with 3, 4 and "world.height" for
    # the file "x:3:4: world.height: y.yaml" below.
    folder = tmp_path / name
    folder.mkdir()
    path = write(folder / "w.yaml", "world:\n  width: wide\n")
    e = load_error(path)
    assert attributes(e) == (str(path), 2, 10, "world.width", "expected a number, got 'wide'")
    assert str(e) == f"{path}:2:10: world.width: expected a number, got 'wide'"
    # A file name that reads as a whole location and key ("x:3:4: world.height: ").
    path = write(folder / "x:3:4: world.height: y.yaml", "robot:\n  - kinematic: {name: diff}\n")
    e = load_error(path)
    assert attributes(e) == (str(path), 2, 5, "robot[0].kinematic",
                             "unknown key 'kinematic' (did you mean 'kinematics'?)" + IRSIM_NOTE)
    # The file alone: missing, or a folder.
    e = load_error(folder / "missing.yaml")
    assert attributes(e) == (str(folder / "missing.yaml"), 0, 0, "", "file not found")
    e = load_error(folder)
    assert attributes(e) == (str(folder), 0, 0, "", "is a directory, not a world file")


def test_yaml_syntax_errors_have_a_line_and_column_and_no_key(tmp_path):
    e = load_error(write(tmp_path / "w.yaml", "world: {height: 10\nrobot: []\n"))
    assert (e.line, e.column, e.key) == (2, 6, "")
    assert e.reason.startswith("malformed YAML: did not find expected ',' or '}'")


def test_a_world_error_raised_from_python_has_the_empty_defaults():
    e = ubot.WorldError("no location")
    assert attributes(e) == ("", 0, 0, "", "") and e.message == ""
    assert str(e) == "no location"


def test_vector_env_raises_the_same_attributes(tmp_path):
    pytest.importorskip("gymnasium")
    folder = tmp_path / "b:7:8"
    folder.mkdir()
    path = write(folder / "w.yaml", "world:\n  height: x\n")
    with pytest.raises(ubot.WorldError) as info:
        ubot.VectorEnv(path, num_envs=1)
    assert attributes(info.value) == (str(path), 2, 11, "world.height",
                                      "expected a number, got 'x'")


def write(path, text):
    path.write_text(text)
    return os.fspath(path)
