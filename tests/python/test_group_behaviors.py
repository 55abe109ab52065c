"""ubot.register_group_behavior: a group behaviour written in Python goes into the registry the
built-in orca and sfm are in, so a world names it with `group_behavior: {name: ...}` and the
native step calls it (issue 48, one registry). Names are unique per process: each test
registers its own."""

import pickle

import numpy as np
import pytest

import ubot

WORLD = """\
world: {{height: 10, width: 10, step_time: 0.1}}
robot:
  - number: 3
    distribution: {{name: manual}}
    kinematics: {{name: omni}}
    shape: {{name: circle, radius: 0.2}}
    state: [[1, 1, 0], [5, 1, 0], [3, 4, 0]]
    goal: [9, 9, 0]
    vel_max: [2, 2]
    behavior: {{name: dash}}
    group_behavior: {{name: {name}, gain: 0.5, label: pull}}
  - kinematics: {{name: omni}}
    shape: {{name: circle, radius: 0.2}}
    state: [8, 8, 0]
    goal: [8, 1, 0]
    behavior: {{name: dash}}
"""


def world(name):
    return ubot.Simulation.from_yaml(WORLD.format(name=name))


def test_a_python_group_behaviour_drives_its_group_from_the_native_step():
    seen = []

    def gather(members, gain, label, step_time):
        seen.append((label, step_time, [m["name"] for m in members]))
        centre = np.mean([m["state"][:2] for m in members], axis=0)
        return [gain * (centre - m["state"][:2]) for m in members]  # omni: [vx, vy], heading 0

    ubot.register_group_behavior("omni", "test_gather", gather)
    assert "test_gather" in ubot.group_behavior_names("omni")
    assert "test_gather" not in ubot.group_behavior_names("diff")
    sim = world("test_gather")
    start = np.array([sim.object(i).state[:2] for i in range(3)])
    centre = start.mean(axis=0)
    sim.step()
    for i in range(3):  # moved by gain x (centre - position) x step_time, exactly
        expected = start[i] + 0.5 * (centre - start[i]) * 0.1
        np.testing.assert_allclose(sim.object(i).state[:2], expected, rtol=0, atol=1e-12)
    assert seen == [("pull", 0.1, ["robot_0", "robot_1", "robot_2"])]
    # The robot outside the group keeps its own behaviour (dash, down towards its goal).
    assert sim.object(3).state[1] < 8


def test_none_leaves_a_member_to_its_own_behaviour_and_the_result_is_checked():
    def half(members, **params):
        return [None if m["id"] == 0 else [0.0, 0.0] for m in members]

    ubot.register_group_behavior("omni", "test_half", half)
    sim = world("test_half")
    before = [sim.object(i).state[:2].copy() for i in range(3)]
    sim.step()
    assert not np.allclose(sim.object(0).state[:2], before[0])  # its own dash, to its goal
    np.testing.assert_array_equal(sim.object(1).state[:2], before[1])

    ubot.register_group_behavior("omni", "test_short", lambda members, **p: [[0, 0]])
    with pytest.raises(ubot.Error, match="'test_short' returned 1 commands for 3 members"):
        world("test_short").step()
    ubot.register_group_behavior("omni", "test_nan",
                                 lambda members, **p: [[float("nan"), 0]] * len(members))
    with pytest.raises(ValueError, match="the command of robot_0 is not finite"):
        world("test_nan").step()
    ubot.register_group_behavior("omni", "test_text", lambda members, **p: "fast")
    with pytest.raises(ubot.Error, match="returned str, not a list of commands"):
        world("test_text").step()


def test_an_exception_in_the_behaviour_reaches_the_caller_before_anything_moves():
    def broken(members, **params):
        raise RuntimeError("the planner failed")

    ubot.register_group_behavior("omni", "test_broken", broken)
    sim = world("test_broken")
    before = [sim.object(i).state.copy() for i in range(4)]
    with pytest.raises(RuntimeError, match="the planner failed"):
        sim.step()
    for i in range(4):
        np.testing.assert_array_equal(sim.object(i).state, before[i])
    assert sim.step_count == 0


def test_registering_twice_or_for_no_kinematics_is_refused():
    ubot.register_group_behavior("omni", "test_once", lambda members, **p: [None] * len(members))
    with pytest.raises(ubot.Error, match="'test_once' for omni kinematics is already registered"):
        ubot.register_group_behavior("omni", "test_once", lambda members, **p: [])
    with pytest.raises(ValueError, match="unknown kinematics 'hover'"):
        ubot.register_group_behavior("hover", "test_hover", lambda members, **p: [])
    with pytest.raises(TypeError):
        ubot.register_group_behavior("omni", "test_not_callable", 5)


def test_an_unregistered_name_lists_the_python_ones_too():
    ubot.register_group_behavior("omni", "test_listed", lambda members, **p: [None] * len(members))
    with pytest.raises(ubot.Error, match=r"no group behaviour 'test_nobody' for omni kinematics "
                                         r"\(known: .*test_listed"):
        world("test_nobody")


def test_a_world_with_a_python_group_behaviour_pickles_and_steps_on():
    ubot.register_group_behavior(
        "omni", "test_drift", lambda members, **p: [[0.3, 0.0]] * len(members))
    sim = world("test_drift")
    sim.step()
    again = pickle.loads(pickle.dumps(sim))
    sim.step()
    again.step()
    for i in range(4):
        np.testing.assert_array_equal(again.object(i).state, sim.object(i).state)
