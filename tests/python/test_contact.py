"""The contact sensor from Python (docs/contact.md, issue 14): ``Object.contact`` of the native
module and ``obj.contact`` of ``ubot.irsim``, on the seed's push-box world (examples/push_box.yaml:
a robot of radius 0.3 at (1, 5) drives at 1 m/s to (9, 5) through a 0.8 m box of 1 kg at (3, 5))."""

import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import ubot
from conftest import example
from ubot import irsim

PUSH_BOX = example("push_box.yaml")
STEP = 0.1
# The robot's front (x + 0.3) meets the box's back face (x = 2.6) in the step ending at 1.4 s.
FIRST_CONTACT_STEP = 14

# The seed's script (seeds/irsim-sensors.txt, the contact sensor part), as written.
SEED_SCRIPT = """\
import irsim

env = irsim.make("push_box_world.yaml")

for _ in range(300):
    env.step()
    robot = env.robot
    if robot.contact.started:
        print(f"{robot.name} touches", ", ".join(str(c) for c in robot.contact.reports))
    env.render()

env.end()
"""


def steps(sim, n):
    for _ in range(n):
        sim.step()


def test_native_reading_follows_the_push():
    sim = ubot.Simulation(PUSH_BOX, seed=0, threads=1)
    robot, box = sim.object("robot_0"), sim.object("obstacle_1")
    started = []
    for k in range(1, 61):
        sim.step()
        r = robot.contact
        if r.started:
            started.append(k)
        if k < FIRST_CONTACT_STEP:
            assert not r.in_contact and r.partners == [] and r.reports == []
            assert r.air_time == pytest.approx(k * STEP) and r.contact_time == 0
            np.testing.assert_array_equal(r.force, [0, 0])
            np.testing.assert_array_equal(box.state, [3, 5, 0])  # nothing pushed it yet
        else:
            assert r.in_contact and r.partners == [box.id] and not r.ended
            assert r.contact_time == pytest.approx((k - FIRST_CONTACT_STEP + 1) * STEP)
            assert r.air_time == 0
    assert started == [FIRST_CONTACT_STEP]
    # After 6 s the box has been pushed metres forward along y = 5, ahead of the robot.
    assert box.state[0] > 6.0 and abs(box.state[1] - 5.0) < 0.05
    assert box.state[0] - robot.state[0] > 0.7 - 0.05


def test_native_reports_are_the_two_sides_of_one_contact():
    sim = ubot.Simulation(PUSH_BOX, seed=0, threads=1)
    steps(sim, 45)
    robot, box = sim.object("robot_0").contact, sim.object("obstacle_1").contact
    (on_robot,), (on_box,) = robot.reports, box.reports
    assert isinstance(on_robot, ubot.ContactReport) and isinstance(robot, ubot.ContactReading)
    assert (on_robot.other, on_box.other) == (1, 0)
    # The box pushes the robot back (-x), the robot pushes the box forward (+x), at one point.
    np.testing.assert_allclose(on_robot.normal, [-1, 0], atol=1e-6)
    np.testing.assert_allclose(on_box.normal, [1, 0], atol=1e-6)
    np.testing.assert_array_equal(on_robot.point, on_box.point)
    assert on_robot.force == on_box.force and on_robot.depth == on_box.depth
    # Pushing at a steady 1 m/s against the box's floor drag: damping 2/s x 1 kg x 1 m/s.
    vx = sim.object("obstacle_1").velocity_xy[0]
    assert vx == pytest.approx(1.0, abs=0.02)
    assert box.force[0] == pytest.approx(2.0 * vx, abs=0.1)
    np.testing.assert_array_equal(robot.force, -box.force)
    assert "other=1" in str(on_robot) and "normal=(-1.000, " in str(on_robot)


def test_a_reading_is_a_copy_of_its_step():
    sim = ubot.Simulation(PUSH_BOX, seed=0, threads=1)
    steps(sim, FIRST_CONTACT_STEP)
    first = sim.object("robot_0").contact
    sim.step()
    assert first.started and not sim.object("robot_0").contact.started
    assert first.contact_time == pytest.approx(STEP)


def test_contact2d_sample_carries_its_objects_reading():
    sim = ubot.Simulation(PUSH_BOX, seed=0, threads=1)
    steps(sim, FIRST_CONTACT_STEP)
    sample = sim.sensor("robot_0", "contact2d_0")
    assert isinstance(sample, ubot.Contact2dSample)
    assert (sample.type, sample.status, sample.stamp) == ("contact2d", "Valid", pytest.approx(1.4))
    assert (sample.force_scale, sample.color) == (0.05, "#CC79A7")
    reading, own = sample.contact, sim.object("robot_0").contact
    assert reading.started and reading.partners == own.partners == [1]
    np.testing.assert_array_equal(reading.force, own.force)
    assert reading.reports[0].force == pytest.approx(10.9, abs=0.05)  # the impact step


def test_outside_contact_mode_the_reading_stays_empty():
    with open(PUSH_BOX, encoding="utf-8") as f:
        yaml = f.read().replace("collision_mode: 'contact'", "collision_mode: 'stop'")
    with ubot.Simulation.from_yaml(yaml, seed=0, threads=1) as sim:
        steps(sim, 40)  # the robot stops at the box
        assert sim.object("robot_0").stop
        r = sim.object("robot_0").contact
        assert not r.in_contact and not r.started and r.reports == [] and r.air_time == 0


def test_irsim_contact_has_irsim_shapes_and_objects():
    env = irsim.make(PUSH_BOX, display=False)
    for _ in range(45):
        env.step()
    robot, box = env.robot, env.obstacle_list[0]
    c = robot.contact
    assert c.in_contact and c.partners == [box] and not c.started and not c.ended
    (report,) = c.reports
    assert report.other is box
    assert report.point.shape == (2, 1) and report.normal.shape == (2, 1)
    assert c.force.shape == (2, 1)
    np.testing.assert_allclose(report.normal.ravel(), [-1, 0], atol=1e-6)
    assert c.contact_time == pytest.approx((45 - FIRST_CONTACT_STEP + 1) * STEP)
    assert c.air_time == 0
    np.testing.assert_array_equal(box.contact.force, -c.force)
    assert str(report).startswith("obstacle_1: point (")
    env.end()


def absolute_pythonpath() -> str:
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    return os.pathsep.join(os.path.abspath(p) for p in paths if p)


def test_seed_push_box_script_prints_the_touch_once():
    work = tempfile.mkdtemp(prefix=f"ubot_push_box_{os.getpid()}_")
    try:
        shutil.copy(PUSH_BOX, os.path.join(work, "push_box_world.yaml"))
        with open(os.path.join(work, "push_box_world.py"), "w", encoding="utf-8") as f:
            f.write(SEED_SCRIPT)
        env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=absolute_pythonpath())
        env.pop("DISPLAY", None)
        run = subprocess.run([sys.executable, "-m", "ubot.irsim", "push_box_world.py"], cwd=work,
                             env=env, capture_output=True, text=True, timeout=300)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 1, run.stdout  # the contact starts once in 300 steps
    # The impact of the step that starts the push (docs/contact.md: 10.9 N).
    assert lines[0] == ("robot_0 touches obstacle_1: point (2.656, 5.000), normal (-1.000, -0.000), "
                        "depth 0.0017 m, force 10.901 N")


def test_the_script_logic_pushes_the_box():
    env = irsim.make(PUSH_BOX, display=False)
    box = env.obstacle_list[0]
    touches = 0
    for _ in range(300):
        env.step()
        touches += env.robot.contact.started
    assert touches == 1
    # The robot arrived (within 0.1 m of x = 9) with the box ahead of it: pushed about 6.6 m.
    assert env.robot.arrive
    assert box.state[0, 0] > 9.3 and abs(box.state[1, 0] - 5.0) < 0.05
    env.end()
