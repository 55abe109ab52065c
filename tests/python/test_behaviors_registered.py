"""ubot.register_behavior: a per-object behaviour written in Python goes into the registry the
built-in dash, rvo and sfm are in, so a world names it with `behavior: {name: ...}` and the
native step calls it for each object that names it, when that object moves (issue 48, one
registry). Names are unique per process: each test registers its own."""

import numpy as np
import pytest

import ubot

WORLD = """\
world: {{height: 10, width: 10, step_time: 0.1}}
robot:
  - number: 2
    distribution: {{name: manual}}
    kinematics: {{name: diff}}
    shape: {{name: circle, radius: 0.2}}
    state: [[1, 1, 0], [1, 6, 0]]
    goal: [9, 1, 0]
    vel_max: [1, 1]
    behavior: {{name: {name}, gain: 0.5, label: ahead}}
"""


def test_a_python_behaviour_drives_each_object_that_names_it():
    seen = []

    def ahead(obj, gain, label, step_time):
        seen.append((obj["name"], label, step_time))
        if obj["state"][1] > 5:
            return None  # the upper robot stands: no velocity
        return [gain * 4.0, 0.25]  # diff: [v, w]; v is clipped to vel_max 1

    ubot.register_behavior("diff", "test_ahead", ahead)
    assert "test_ahead" in ubot.behavior_names("diff")
    assert "test_ahead" not in ubot.behavior_names("omni")
    sim = ubot.Simulation.from_yaml(WORLD.format(name="test_ahead"))
    sim.step()
    assert seen == [("robot_0", "ahead", 0.1), ("robot_1", "ahead", 0.1)]
    np.testing.assert_allclose(sim.object(0).velocity, [1.0, 0.25], rtol=0, atol=0)
    np.testing.assert_allclose(sim.object(1).velocity, [0.0, 0.0], rtol=0, atol=0)
    assert sim.object(0).state[0] > 1.0 and sim.object(1).state[0] == 1.0


def test_its_result_is_checked_and_its_name_is_its_own():
    ubot.register_behavior("diff", "test_bad", lambda obj, **params: "fast")
    sim = ubot.Simulation.from_yaml(WORLD.format(name="test_bad"))
    with pytest.raises(ubot.Error, match="behaviour 'test_bad' returned str for robot_0"):
        sim.step()
    ubot.register_behavior("diff", "test_nan", lambda obj, **params: [float("nan"), 0.0])
    with pytest.raises(ValueError):
        ubot.Simulation.from_yaml(WORLD.format(name="test_nan")).step()
    with pytest.raises(ubot.Error, match="already registered"):
        ubot.register_behavior("diff", "test_bad", lambda obj, **params: None)
    with pytest.raises(ubot.Error, match="built in"):
        ubot.register_behavior("diff", "dash", lambda obj, **params: None)
    with pytest.raises(ValueError, match="kinematics"):
        ubot.register_behavior("tank", "test_tank", lambda obj, **params: None)


def test_an_unregistered_name_is_a_world_error_at_the_name():
    with pytest.raises(ubot.WorldError, match=r"no behaviour 'test_never' for diff kinematics "
                                              r"\(known: dash, rvo, sfm") as err:
        ubot.Simulation.from_yaml(WORLD.format(name="test_never"))
    assert (err.value.line, err.value.column, err.value.key) == (10, 22, "robot[0].behavior.name")


def test_host_behaviors_leave_unregistered_ones_to_the_caller_and_pickle_so():
    """ubot.irsim's load: the file untouched, its Python behaviours (registered after make, so
    after the world is built) left to the layer, which commands those objects."""
    import pickle

    text = WORLD.format(name="test_later") + (
        "  - kinematics: {name: omni}\n    state: [5, 5, 0]\n    goal: [9, 5, 0]\n"
        "    group_behavior: {name: test_later_group, gain: 1}\n")
    with pytest.raises(ubot.WorldError, match="no (group )?behaviour 'test_later"):
        ubot.Simulation.from_yaml(text)
    sim = ubot.Simulation.from_yaml(text, host_behaviors=True)
    sim.step()
    # No velocity of their own; the group's member (no behavior: of its own) stands as well.
    assert [list(sim.object(i).velocity) for i in range(3)] == [[0, 0], [0, 0], [0, 0]]
    sim.step({"robot_0": [0.5, 0.0], "robot_2": [0.2, 0.1]})
    assert list(sim.object(0).velocity) == [0.5, 0.0] and list(sim.object(2).velocity) == [0.2, 0.1]
    again = pickle.loads(pickle.dumps(sim))
    again.step()
    assert list(again.object(0).velocity) == [0.0, 0.0]
    assert sim.__getstate__()["host_behaviors"] is True
