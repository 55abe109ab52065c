"""ubot.pyrvo: pyrvo's RVOSimulator API over ubot's ORCA, and ``pyrvo`` under the runner
(docs/irsim-python.md, "pyrvo").

The replay test holds IR-SIM's own ``orca_world.py`` loop on ubot.irsim + ubot.pyrvo to what
IR-SIM + the real pyrvo 0.4.3 (RVO2, float) did (tests/python/record_pyrvo_orca.py made the
fixture): every robot's position to 1e-6 m over 100 steps; the live test makes that recording
again with IR-SIM and pyrvo from the pinned test venv, and holds both to it.
"""

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import ubot
from ubot import pyrvo

HERE = os.path.dirname(os.path.abspath(__file__))
USAGE = os.path.join(os.path.dirname(HERE), "data", "irsim_usage", "19orca_world")


@pytest.fixture()
def folder():
    path = tempfile.mkdtemp(prefix=f"ubot_pyrvo_{os.getpid()}_")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def run_module(args, cwd):
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    env = dict(os.environ, MPLBACKEND="Agg",
               PYTHONPATH=os.pathsep.join(os.path.abspath(p) for p in paths if p))
    env.pop("DISPLAY", None)
    return subprocess.run([sys.executable, "-m", "ubot.irsim", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def simulator(time_step=0.1, radius=0.5, max_speed=2.0):
    sim = pyrvo.RVOSimulator()
    sim.set_time_step(time_step)
    sim.set_agent_defaults(15.0, 10, 20.0, 10.0, radius, max_speed)
    return sim


def test_a_free_agent_takes_its_preferred_velocity_and_moves_by_it():
    sim = simulator()
    assert sim.add_agent([1.0, 2.0]) == 0
    sim.set_agent_pref_velocity(0, (0.6, -0.8))
    for _ in range(5):
        sim.do_step()
    assert sim.get_agent_velocity(0).to_tuple() == pytest.approx((0.6, -0.8), abs=1e-15)
    p = sim.get_agent_position(0)
    assert (p.x, p.y) == pytest.approx((1.0 + 5 * 0.06, 2.0 - 5 * 0.08), abs=1e-12)
    assert sim.get_global_time() == pytest.approx(0.5, abs=1e-12)
    assert sim.get_num_agents() == 1 and sim.get_time_step() == 0.1


def test_a_preferred_velocity_beyond_max_speed_is_shortened_to_it():
    sim = simulator(max_speed=2.0)
    sim.add_agent([0, 0])
    sim.set_agent_pref_velocity(0, [3.0, 4.0])  # 5 m/s
    sim.do_step()
    assert sim.get_agent_velocity(0).to_tuple() == pytest.approx((1.2, 1.6), abs=1e-12)


def test_two_agents_crossing_head_on_pass_without_touching():
    sim = simulator(radius=0.5, max_speed=1.0)
    sim.add_agent([-5.0, 0.05])
    sim.add_agent([5.0, -0.05])
    closest = math.inf
    for _ in range(200):
        for i, goal in ((0, (5.0, 0.05)), (1, (-5.0, -0.05))):
            p = sim.get_agent_position(i)
            d = np.subtract(goal, (p.x, p.y))
            n = np.linalg.norm(d)
            sim.set_agent_pref_velocity(i, (d / n if n > 1 else d).tolist())
        sim.do_step()
        a, b = sim.get_agent_position(0), sim.get_agent_position(1)
        closest = min(closest, math.hypot(a.x - b.x, a.y - b.y))
    # ORCA keeps them at least the sum of their radii apart (within the LP's rounding) and both
    # get past each other to their goals.
    assert closest >= 1.0 - 1e-9
    assert closest < 1.2  # they did have to avoid each other
    # (the preferred velocity is the remaining offset within 1 m: 10 % of it per step)
    assert sim.get_agent_position(0).x == pytest.approx(5.0, abs=1e-4)
    assert sim.get_agent_position(1).x == pytest.approx(-5.0, abs=1e-4)


def test_constructor_parameters_setters_and_vector2():
    sim = pyrvo.RVOSimulator(0.25, 10.0, 5, 4.0, 3.0, 0.4, 1.5, [0.1, 0.2])
    assert sim.add_agent([0, 0]) == 0
    assert sim.get_agent_velocity(0).to_tuple() == (0.1, 0.2)  # the defaults' velocity
    assert sim.get_time_step() == 0.25
    assert (sim.get_agent_radius(0), sim.get_agent_max_speed(0)) == (0.4, 1.5)
    assert (sim.get_agent_neighbor_dist(0), sim.get_agent_max_neighbors(0)) == (10.0, 5)
    assert (sim.get_agent_time_horizon(0), sim.get_agent_time_horizon_obst(0)) == (4.0, 3.0)
    assert sim.add_agent([1, 1], 2.0, 3, 1.0, 1.0, 0.3, 0.7) == 1
    assert sim.get_agent_velocity(1).to_tuple() == (0.0, 0.0)
    sim.set_agent_radius(1, 0.9)
    sim.set_agent_position(1, pyrvo.Vector2(4.0, 5.0))
    assert sim.get_agent_radius(1) == 0.9 and sim.get_agent_position(1).to_tuple() == (4.0, 5.0)
    v = pyrvo.Vector2.from_list([1.5, -2.5])
    assert (v.x, v.y) == (1.5, -2.5) and pyrvo.Vector2.from_tuple((3, 4)).to_tuple() == (3, 4)
    assert repr(pyrvo.Vector2(1, 2.5)) == "Vector2(1, 2.5)"
    sim.clear_agents()
    assert sim.get_num_agents() == 0


def test_misuse_raises():
    with pytest.raises(ValueError, match="set_agent_defaults"):
        pyrvo.RVOSimulator().add_agent([0, 0])  # RVO2 returns RVO_ERROR here
    sim = simulator()
    sim.add_agent([0, 0])
    with pytest.raises(IndexError, match="agent 3 does not exist"):
        sim.get_agent_velocity(3)
    with pytest.raises(IndexError):
        sim.set_agent_pref_velocity(1, [0, 0])
    for bad in ([1, 2, 3], "ab", 5):
        with pytest.raises(ValueError, match="sequence of 2 numbers"):
            sim.set_agent_position(0, bad)


def record_orca_world(folder, name, runner_args):
    """record_pyrvo_orca.py's 100 steps of orca_world.py, every 10th stored; ``runner_args``
    None: plain Python (IR-SIM itself with the real pyrvo), else ``python3 -m ubot.irsim``."""
    work = os.path.join(folder, name)
    shutil.copytree(USAGE, work)
    out = os.path.join(folder, name + ".json")
    script = [os.path.join(HERE, "record_pyrvo_orca.py"), "100", "10", out]
    if runner_args is None:
        env = dict(os.environ, MPLBACKEND="Agg")
        env.pop("DISPLAY", None)
        done = subprocess.run([sys.executable, *script], cwd=work, env=env, capture_output=True,
                              text=True, timeout=600)
    else:
        done = run_module([*runner_args, *script], work)
    assert done.returncode == 0, done.stderr[-3000:]
    with open(out, encoding="utf-8") as f:
        return json.load(f)


def test_orca_world_script_on_ubot_pyrvo_replays_irsim_with_the_real_pyrvo(folder):
    with open(os.path.join(HERE, "data", "pyrvo_orca_world.json"), encoding="utf-8") as f:
        expected = json.load(f)
    got = record_orca_world(folder, "ubot", ["--ubot-pyrvo"])
    assert got["pyrvo"] == "ubot.pyrvo"  # ubot's, though the real pyrvo is installed
    assert sorted(got["positions"], key=int) == sorted(expected["positions"], key=int)
    for step, positions in expected["positions"].items():
        np.testing.assert_allclose(got["positions"][step], positions, rtol=0, atol=1e-6,
                                   err_msg=f"step {step}")
    # Why the script never ends (in IR-SIM too): it passes ORCA's world-frame velocity as the
    # omni robots' body-frame command, and robot 0 faces the centre (yaw -pi), so it moves away
    # from its goal at 1 m/s (its preferred speed), from (145, 5) to (155, 5) in 10 s.
    np.testing.assert_allclose(expected["positions"]["100"][0], [155.0, 5.0], atol=1e-4)


def test_live_irsim_with_the_real_pyrvo_matches_the_recording_and_ubot_pyrvo(folder):
    """The recording above, made again now by IR-SIM itself with the real pyrvo (both pinned in
    the test venv), and ubot.pyrvo on the same loop: every robot every 10 steps to 1e-6 m."""
    import irsim as real_irsim  # noqa: F401  (IR-SIM itself must be installed: no skip)
    import pyrvo as real_pyrvo

    assert not real_pyrvo.__name__.startswith("ubot")
    live = record_orca_world(folder, "irsim", None)
    assert live["pyrvo"].startswith("pyrvo ")
    ours = record_orca_world(folder, "ubot", ["--ubot-pyrvo"])
    with open(os.path.join(HERE, "data", "pyrvo_orca_world.json"), encoding="utf-8") as f:
        recorded = json.load(f)
    assert sorted(live["positions"]) == sorted(recorded["positions"]) == sorted(ours["positions"])
    for step, positions in live["positions"].items():
        np.testing.assert_allclose(positions, recorded["positions"][step], rtol=0, atol=1e-6,
                                   err_msg=f"live IR-SIM + pyrvo vs the recording, step {step}")
        np.testing.assert_allclose(ours["positions"][step], positions, rtol=0, atol=1e-6,
                                   err_msg=f"ubot.pyrvo vs live IR-SIM + pyrvo, step {step}")


SHOW = "import pyrvo\nprint(pyrvo.__name__, getattr(pyrvo, '__file__', ''))\n"


def test_runner_leaves_an_installed_pyrvo_alone_unless_asked(folder):
    with open(os.path.join(folder, "show.py"), "w", encoding="utf-8") as f:
        f.write(SHOW)
    import pyrvo as real_pyrvo  # the test venv's

    done = run_module(["show.py"], folder)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[1] == real_pyrvo.__file__
    done = run_module(["--ubot-pyrvo", "show.py"], folder)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[1].endswith(os.path.join("ubot", "pyrvo.py"))
    done = run_module(["--ubot-pyrvo"], folder)
    assert done.returncode == 2 and "no script" in done.stderr
    done = run_module(["--pyrvo", "show.py"], folder)
    assert done.returncode == 2 and "unknown option --pyrvo" in done.stderr


# With no pyrvo importable (site-packages dropped from sys.path once ubot is loaded), the
# runner's finder serves ubot.pyrvo; without the runner there is no pyrvo at all.
NO_PYRVO = """
import sys
import ubot, ubot.pyrvo, ubot.irsim.__main__ as runner
sys.path = [p for p in sys.path if "-packages" not in p]
sys.modules.pop("pyrvo", None)
try:
    import pyrvo
    raise SystemExit("pyrvo importable: " + pyrvo.__file__)
except ImportError:
    pass
runner.install()
import pyrvo
print(pyrvo.__name__, pyrvo.__file__)
"""


def test_runner_serves_ubot_pyrvo_where_no_pyrvo_is_installed(folder):
    done = subprocess.run([sys.executable, "-c", NO_PYRVO], cwd=folder, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[1].endswith(os.path.join("ubot", "pyrvo.py"))


def test_module_names_are_ubots():
    assert ubot.pyrvo is pyrvo and pyrvo.RVOSimulator.__module__.startswith("ubot")


def ring_world(group_behavior: str) -> str:
    """One group of 8 omni robots at heading 0 on a ring of radius 8 (slightly uneven, as a
    perfectly symmetric ring can deadlock ORCA), each going to the opposite point."""
    states, goals = [], []
    for k in range(8):
        a = 2 * math.pi * k / 8 + 0.013 * k
        x, y = 10 + 8 * math.cos(a), 10 + 8 * math.sin(a)
        states.append(f"[{x!r}, {y!r}, 0]")
        goals.append(f"[{20 - x!r}, {20 - y!r}, 0]")
    return ("world: {width: 20, height: 20, step_time: 0.1}\nrobot:\n"
            "  - number: 8\n    distribution: {name: manual}\n    kinematics: {name: omni}\n"
            "    shape: {name: circle, radius: 0.5}\n    vel_max: [1, 1]\n    vel_min: [-1, -1]\n"
            f"    state: [{', '.join(states)}]\n    goal: [{', '.join(goals)}]\n{group_behavior}")


def test_the_facade_is_the_orca_group_behaviours_orca():
    """IR-SIM's orca_world.py loop on ubot.pyrvo gives what ubot's native `orca` group
    behaviour gives for the same parameters (robots at heading 0, where the script's
    world-frame commands are right): the same ORCA, states equal to 1e-12 m."""
    group = ("    group_behavior: {name: orca, neighborDist: 15.0, maxNeighbors: 10, "
             "timeHorizon: 5.0, timeHorizonObst: 10.0, safe_radius: 0.1, maxSpeed: 2.0}\n")
    native = ubot.Simulation.from_yaml(ring_world(group))
    driven = ubot.Simulation.from_yaml(ring_world(""))
    orca = pyrvo.RVOSimulator()
    orca.set_time_step(driven.step_time)
    orca.set_agent_defaults(15.0, 10, 5.0, 10.0, 0.5 + 0.1, 2.0)
    for robot in driven.objects:
        orca.add_agent(robot.state[:2].tolist())
    avoided, closest = 0.0, math.inf
    for _ in range(250):
        commands = {}
        for i, robot in enumerate(driven.objects):
            pref = desired_omni_vel(robot)
            orca.set_agent_pref_velocity(i, pref)
            orca.set_agent_position(i, robot.state[:2].tolist())
        orca.do_step()
        for i, robot in enumerate(driven.objects):
            commands[robot.name] = list(orca.get_agent_velocity(i).to_tuple())
            avoided = max(avoided, math.dist(commands[robot.name], orca.get_agent_pref_velocity(i)
                                             .to_tuple()))
        driven.step(commands)
        native.step()
        got = np.array([r.state for r in driven.objects])
        np.testing.assert_allclose(got, [r.state for r in native.objects], rtol=0, atol=1e-12)
        gaps = [math.dist(a[:2], b[:2]) for k, a in enumerate(got) for b in got[k + 1:]]
        closest = min(closest, min(gaps))
    assert avoided > 0.3  # ORCA did steer them off their straight lines
    assert 1.0 <= closest < 1.5  # close to each other, never touching (radii 0.5)


def desired_omni_vel(robot):
    """IR-SIM's get_desired_omni_vel(normalized=True), as orca_world.py asks for it."""
    dx, dy = robot.goal[0] - robot.state[0], robot.goal[1] - robot.state[1]
    if not math.hypot(dx, dy) > 0.1:
        return [0.0, 0.0]
    bearing = math.atan2(dy, dx)
    v = [robot.vel_max[0] * math.cos(bearing), robot.vel_max[1] * math.sin(bearing)]
    n = math.hypot(*v)
    return [v[0] / n, v[1] / n] if n > 1 else v
