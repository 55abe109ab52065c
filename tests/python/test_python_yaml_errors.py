"""Issue 51, found by fuzz_python's new entry points: a world or sweep file PyYAML cannot read
(a control character) escaped ubot.irsim and ubot.sweep as yaml.ReaderError; it is now
ubot.WorldError / ubot.sweep.SweepError with the file, line and column."""
import pytest
from conftest import WALL_WORLD

import ubot
import ubot.irsim
from ubot.sweep import run as sweep_run
from ubot.sweep import spec as sweep_spec

CONTROL = WALL_WORLD.replace("kinematics: {name: diff}", "kinematics: {name: diff}\x7f", 1)


def test_irsim_make_refuses_a_world_with_a_control_character(tmp_path):
    world = tmp_path / "w.yaml"
    world.write_text(CONTROL)
    with pytest.raises(ubot.WorldError) as e:
        ubot.irsim.make(str(world), display=False, disable_all_plot=True)
    assert e.value.file == str(world)
    assert e.value.line >= 1


def test_a_sweep_file_with_a_control_character_names_its_position(tmp_path):
    (tmp_path / "w.yaml").write_text(WALL_WORLD)
    sweep = tmp_path / "s.yaml"
    sweep.write_text("name: s\nworlds: [w.yaml]\nsteps: 3\x16\n")
    with pytest.raises(sweep_spec.SweepError) as e:
        sweep_spec.load(str(sweep))
    assert (e.value.line, e.value.column) == (3, 9)
    assert "character #x0016 is not allowed in YAML" in str(e.value)


def test_a_swept_world_pyyaml_cannot_read_is_a_world_error(tmp_path):
    (tmp_path / "w.yaml").write_text(CONTROL)
    sweep = tmp_path / "s.yaml"
    sweep.write_text("name: s\nworlds: [w.yaml]\nsteps: 3\nparameters:\n"
                     "  world.step_time: [0.1, 0.2]\n")
    runs = sweep_spec.load(str(sweep)).runs
    with pytest.raises(ubot.WorldError) as e:
        sweep_run.world_text(runs[0])
    assert e.value.file.endswith("w.yaml")
