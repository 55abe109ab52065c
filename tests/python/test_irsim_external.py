"""IR-SIM's external stepping (`step_mode: external`, issue 24), run live beside IR-SIM itself:
the caller places the robots with set_state / set_velocity and env.step() only runs the sensors
and the flags. The same scripted poses go to IR-SIM (the pinned release, requirements/test.txt)
and to ubot.irsim; the lidar ranges agree to 1e-9 (polygon obstacles only: IR-SIM's circles are
64-gons, docs/irsim-parity.md; a span under 2π: SPEC §2 spaces a full circle's beams apart), the collision and arrival flags and done() exactly, and the
robots stay where they were put."""

import math

import numpy as np
import pytest

real_irsim = pytest.importorskip("irsim")
import ubot.irsim  # noqa: E402

WORLD = """
world: {height: 10, width: 10, step_time: 0.1, step_mode: %s}
robot:
  - kinematics: {name: diff}
    shape: {name: circle, radius: 0.2}
    state: [1, 1, 0]
    goal: [[[4, 5, 0], [8, 8, 0]]]
    behavior: {name: dash}
    goal_threshold: 0.2
    sensors:
      - {name: lidar2d, range_min: 0, range_max: 6, angle_range: 5.5, number: 90,
         noise: false}
  - kinematics: {name: omni}
    shape: {name: rectangle, length: 0.5, width: 0.3}
    state: [8, 2, 1.0]
    behavior: {name: dash}
    goal: [8, 9, 0]
obstacle:
  - shape: {name: polygon, vertices: [[4, 2], [5.5, 2.2], [5, 3.5], [3.8, 3]]}
  - shape: {name: rectangle, length: 1.0, width: 2.5}
    state: [2, 7, 0.4]
"""


def world_file(tmp_path, mode):
    path = tmp_path / f"external_{mode}.yaml"
    path.write_text(WORLD % mode)
    return str(path)


# (step, x, y): robot_0 is placed on the lines between these, against the polygon's lower
# edge (steps 10-14: its disc overlaps the polygon, its lidar is outside; IR-SIM places an
# object without a state at [1, 1, 0], its vertices with it),
# on the first waypoint (25-29) and on to the last one (49).
PATH = [(0, 1.0, 1.0), (10, 5.6, 2.98), (14, 5.6, 2.98), (18, 4.5, 2.9), (25, 4.0, 5.0),
        (29, 4.0, 5.0),
        (49, 8.0, 8.0)]


def scripted_pose(k):
    for (k0, x0, y0), (k1, x1, y1) in zip(PATH, PATH[1:]):
        if k0 <= k <= k1:
            t = (k - k0) / (k1 - k0)
            return [x0 + t * (x1 - x0), y0 + t * (y1 - y0), math.remainder(0.2 * k, 2 * math.pi)]
    raise ValueError(k)


def run(module, path, make_kwargs):
    env = module.make(path, display=False, **make_kwargs)
    frames = []
    for k in range(50):
        robot, other = env.robot_list[0], env.robot_list[1]
        robot.set_state(np.array(scripted_pose(k)).reshape(3, 1))
        robot.set_velocity(np.array([[0.5], [0.1 * (k % 3)]]))
        other.set_state(np.array([[8.0], [2.0 + 0.1 * k], [1.0]]))
        env.step()
        scan = env.get_lidar_scan(0)
        frames.append({
            "ranges": np.asarray(scan["ranges"], dtype=float).copy(),
            "states": [np.asarray(o.state, dtype=float).reshape(-1)[:3].copy()
                       for o in env.robot_list],
            "collision": [bool(o.collision) for o in env.robot_list],
            "arrive": [bool(o.arrive) for o in env.robot_list],
            "done": bool(env.done()),
        })
    env.end(0)
    return frames


@pytest.mark.parametrize("how", ["world", "make"])
def test_external_stepping_matches_irsim(tmp_path, how):
    """`how`: world.step_mode: external in the file, or internal there and make(step_mode=)."""
    path = world_file(tmp_path, "external" if how == "world" else "internal")
    kwargs = {} if how == "world" else {"step_mode": "external"}
    ours = run(ubot.irsim, path, kwargs)
    theirs = run(real_irsim, path, kwargs)
    assert [f["collision"][0] for f in theirs].count(True) > 0, "the script never touches"
    assert theirs[-1]["arrive"][0], "the script never arrives"
    for k, (a, b) in enumerate(zip(ours, theirs)):
        np.testing.assert_allclose(a["ranges"], b["ranges"], atol=1e-9, err_msg=f"step {k + 1}")
        for s_ours, s_theirs, pose in zip(a["states"], b["states"], [scripted_pose(k)]):
            np.testing.assert_allclose(s_ours, pose, atol=1e-12)  # nothing moved it
            np.testing.assert_allclose(s_theirs, pose, atol=1e-12)
        assert a["collision"] == b["collision"], f"step {k + 1}"
        assert a["arrive"] == b["arrive"], f"step {k + 1}"
        assert a["done"] == b["done"], f"step {k + 1}"


def test_an_action_in_external_mode_is_refused_as_irsim_does(tmp_path):
    path = world_file(tmp_path, "external")
    for module in (ubot.irsim, real_irsim):
        env = module.make(path, display=False)
        assert env.step_mode == "external"
        with pytest.raises(ValueError, match="unavailable when step_mode='external'"):
            env.step(np.array([[1.0], [0.0]]))
        env.step()  # without an action: a step


def test_an_unknown_step_mode_is_refused(tmp_path):
    path = world_file(tmp_path, "internal")
    with pytest.raises(ValueError, match="step_mode"):
        ubot.irsim.make(path, display=False, step_mode="sideways")
