"""ubot.Simulation: loading, stepping with commands, objects, lidar samples, reset / snapshot /
restore, errors (docs/python.md)."""

import gc
import math
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import ubot
from conftest import WALL_WORLD, example


def test_loads_a_path_or_pathlike_with_its_names():
    for path in (example("lidar_world.yaml"), pathlib.Path(example("lidar_world.yaml"))):
        sim = ubot.Simulation(path, seed=3)
        assert sim.seed == 3
        assert sim.robot_names == ["robot_0"]
        assert sim.obstacle_names == ["obstacle_1", "obstacle_2", "obstacle_3", "obstacle_4"]
        assert sim.object_names == sim.robot_names + sim.obstacle_names
        assert sim.world_size == (0.0, 10.0, 0.0, 10.0)
        assert sim.step_time == pytest.approx(0.1)
        assert sim.world_file == str(path)


def test_object_attributes_are_the_world_file_values(wall_sim):
    robot = wall_sim.object("robot_0")
    assert (robot.id, robot.name, robot.role, robot.kinematics) == (0, "robot_0", "robot", "diff")
    np.testing.assert_array_equal(robot.state, [2, 5, 0])
    np.testing.assert_array_equal(robot.goal, [9, 5, 0])
    np.testing.assert_array_equal(robot.vel_max, [1, 1])
    assert robot.radius == 0.2 and robot.shape_kind == "circle"
    assert robot.vertices.shape == (0, 2)
    assert robot.sensor_names == ["lidar2d_0"]
    wall = wall_sim.object(1)
    assert wall.role == "obstacle" and wall.kinematics == "none"
    # The rectangle's outline in the world: corners at x = 5.5 and 6.5, y = 1 and 9.
    np.testing.assert_allclose(sorted(map(tuple, wall.vertices)),
                               [(5.5, 1), (5.5, 9), (6.5, 1), (6.5, 9)])
    assert [o.name for o in wall_sim.objects] == wall_sim.object_names


def test_lidar_ranges_match_the_wall_distance(wall_sim):
    wall_sim.step(np.zeros((1, 2)))
    scan = wall_sim.sensor("robot_0", "lidar2d_0")
    np.testing.assert_allclose(scan.angles, [-math.pi / 2, 0, math.pi / 2])
    # Forward beam: from x = 2 to the face at 5.5; the side beams see nothing within 8 m.
    np.testing.assert_allclose(scan.ranges, [8, 3.5, 8], atol=1e-9)
    np.testing.assert_array_equal(scan.valid, [False, True, False])
    np.testing.assert_allclose(scan.points, [[3.5, 0]], atol=1e-9)
    assert scan.status == "Valid" and scan.stamp == pytest.approx(0.1)
    np.testing.assert_allclose(scan.origin, [2, 5, 0])


def test_command_moves_the_robot_by_v_dt(wall_sim):
    wall_sim.step({"robot_0": [0.5, 0.0]})
    np.testing.assert_allclose(wall_sim.object("robot_0").state, [2.05, 5, 0], atol=1e-12)
    np.testing.assert_allclose(wall_sim.object("robot_0").velocity, [0.5, 0])
    wall_sim.step(np.array([[0.5, 0.0]]))
    np.testing.assert_allclose(wall_sim.object("robot_0").state, [2.10, 5, 0], atol=1e-12)
    wall_sim.step([[0.5, 0.0]])  # any (n_robots, 2) array-like
    np.testing.assert_allclose(wall_sim.object("robot_0").state, [2.15, 5, 0], atol=1e-12)
    # Clipped to vel_max like a behaviour's output.
    wall_sim.step({"robot_0": [5.0, 0.0]})
    np.testing.assert_allclose(wall_sim.object("robot_0").state, [2.25, 5, 0], atol=1e-12)
    assert wall_sim.step_count == 4 and wall_sim.time == pytest.approx(0.4)
    # The scan sees the wall from the new position.
    assert wall_sim.sensor(0, "lidar2d_0").ranges[1] == pytest.approx(3.25)


def test_set_state_is_seen_by_the_next_sample(wall_sim):
    wall_sim.set_state("robot_0", [4, 5, 0])
    np.testing.assert_array_equal(wall_sim.object("robot_0").state, [4, 5, 0])
    wall_sim.step({"robot_0": [0, 0]})
    assert wall_sim.sensor("robot_0", "lidar2d_0").ranges[1] == pytest.approx(1.5)
    wall_sim.set_goals("robot_0", [[1, 2], [3, 4, 0.5]])
    goals = wall_sim.object("robot_0").goals
    np.testing.assert_array_equal(goals[0], [1, 2, 0])
    np.testing.assert_array_equal(goals[1], [3, 4, 0.5])
    wall_sim.set_goals("robot_0", [])
    assert wall_sim.object("robot_0").goal is None


def test_arrays_are_read_as_numpy_shows_them_whatever_their_strides(wall_sim):
    # A reversed view, every other element and a broadcast (stride 0) view: the values numpy
    # shows, not the buffer's first bytes (and no read past a stride-0 view's one element).
    wall_sim.set_state("robot_0", np.array([0.0, 0.5, 9.0, 4.0])[::-1][:3][::-1][::-1])
    np.testing.assert_array_equal(wall_sim.object("robot_0").state, [4, 9, 0.5])
    wall_sim.set_state("robot_0", np.array([4.0, -1.0, 5.0, -1.0, 0.25])[::2])
    np.testing.assert_array_equal(wall_sim.object("robot_0").state, [4, 5, 0.25])
    wall_sim.set_state("robot_0", np.broadcast_to(np.array(3.0), (3,)))
    np.testing.assert_array_equal(wall_sim.object("robot_0").state[:2], [3, 3])
    wall_sim.set_goals("robot_0", [np.array([7.0, 0.0, 6.0])[::-2]])
    np.testing.assert_array_equal(wall_sim.object("robot_0").goals[0], [6, 7, 0])
    commands = np.zeros((2, 3))
    commands[0] = [0.5, 99.0, 0.0]
    wall_sim.set_state("robot_0", [4, 5, 0])
    wall_sim.step(commands[:1, ::2])  # [[0.5, 0.0]]: forward at 0.5 m/s, no turn
    state = wall_sim.object("robot_0").state
    assert state[0] == pytest.approx(4 + 0.5 * wall_sim.step_time) and state[2] == 0


def test_set_state_and_goals_keep_to_the_worlds_limit(wall_sim):
    # World files are limited to ±1e9 m; a state beyond it was taken, and every later step failed.
    for bad in ([1e308, 1e308, 0], [4, -2e9, 0]):
        with pytest.raises(ValueError, match="set_state: .* is beyond the limit of ±1e9"):
            wall_sim.set_state("robot_0", bad)
    with pytest.raises(ValueError, match="set_goals: .* is beyond the limit of ±1e9"):
        wall_sim.set_goals("robot_0", [[1e10, 0]])
    wall_sim.set_state("robot_0", [4, 5, 0])
    wall_sim.step()


def test_views_are_read_only_and_keep_the_simulation_alive():
    sim = ubot.Simulation.from_yaml(WALL_WORLD)
    sim.step()
    ranges = sim.sensor("robot_0", "lidar2d_0").ranges
    assert not ranges.flags.writeable and not ranges.flags.owndata
    with pytest.raises(ValueError):
        ranges[0] = 1.0
    kept = ranges.copy()
    del sim
    gc.collect()
    np.testing.assert_array_equal(ranges, kept)


def test_reset_snapshot_restore_reproduce_the_run():
    sim = ubot.Simulation(example("lidar_world.yaml"), seed=2)
    first = []
    for _ in range(10):
        sim.step()
        first.append(sim.object(0).state)
    sim.reset()
    assert sim.step_count == 0
    np.testing.assert_array_equal(sim.object(0).state, [1, 1, 0])
    for _ in range(5):
        sim.step()
    snap = sim.snapshot()
    assert snap.step_count == 5
    later = []
    for _ in range(5):
        sim.step()
        later.append((sim.object(0).state, sim.sensor(0, "lidar2d_0").ranges.copy()))
    np.testing.assert_array_equal(later[-1][0], first[-1])
    sim.restore(snap)
    assert sim.step_count == 5
    for state, ranges in later:
        sim.step()
        np.testing.assert_array_equal(sim.object(0).state, state)
        np.testing.assert_array_equal(sim.sensor(0, "lidar2d_0").ranges, ranges)


def test_done_when_the_robot_arrives():
    sim = ubot.Simulation(example("lidar_world.yaml"))
    assert not sim.done()
    while not sim.done() and sim.step_count < 1000:
        sim.step()
    robot = sim.object("robot_0")
    assert sim.done() and (robot.arrive or robot.stop)


@pytest.mark.parametrize(
    "commands",
    [np.zeros((2, 2)), np.zeros(2), np.zeros((1, 3)), [[0.1, 0.0, 0.0]], "fast"],
)
def test_wrong_command_shapes_raise_value_error(wall_sim, commands):
    with pytest.raises(ValueError, match="shape \\(1, 2\\)"):
        wall_sim.step(commands)
    assert wall_sim.step_count == 0


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_commands_raise_value_error(wall_sim, bad):
    with pytest.raises(ValueError, match="not finite"):
        wall_sim.step({"robot_0": [bad, 0.0]})
    with pytest.raises(ValueError, match="not finite"):
        wall_sim.step(np.array([[0.0, bad]]))
    with pytest.raises(ValueError, match="finite"):
        wall_sim.set_state("robot_0", [bad, 0, 0])
    assert wall_sim.step_count == 0


def test_unknown_names_raise_value_error(wall_sim):
    with pytest.raises(ValueError, match="no object named 'robot_9'"):
        wall_sim.step({"robot_9": [0, 0]})
    with pytest.raises(ValueError, match="must be 2 numbers"):
        wall_sim.step({"robot_0": [0, 0, 0]})
    with pytest.raises(ValueError, match="no object with id 7"):
        wall_sim.object(7)
    with pytest.raises(ValueError, match="no object with id -1"):
        wall_sim.object(-1)
    with pytest.raises(ValueError, match="no object with id 1180591620717411303424"):
        wall_sim.object(2**70)
    with pytest.raises(ValueError, match="no sensor named 'camera'"):
        wall_sim.sensor("robot_0", "camera")
    with pytest.raises(ValueError, match="2 or 3 values"):
        wall_sim.set_goals("robot_0", [[1]])
    # Found by fuzz_python: a name that is no UTF-8 (a lone surrogate) was a RuntimeError.
    for use in (lambda: wall_sim.object("robot_\ud800"),
                lambda: wall_sim.step({"\udfff": [0, 0]})):
        with pytest.raises(TypeError):
            use()


def test_clearance_is_the_distance_between_the_shapes_now(wall_sim):
    # The robot's disc (radius 0.2 at x = 2) and the wall's face x = 5.5.
    assert wall_sim.clearance("robot_0", "obstacle_1") == pytest.approx(3.3, abs=1e-12)
    wall = wall_sim.object("obstacle_1")
    assert wall_sim.clearance(wall, 0) == wall_sim.clearance(0, "obstacle_1")
    wall_sim.step({"robot_0": [0.5, 0.0]})
    assert wall_sim.clearance("robot_0", 1) == pytest.approx(3.25, abs=1e-12)
    wall_sim.set_state("robot_0", [5.4, 5, 0])  # overlapping the face
    assert wall_sim.clearance("robot_0", "obstacle_1") == 0.0
    wall_sim.set_state("robot_0", [6, 9.5, 0])  # 0.5 above the wall's top edge y = 9
    assert wall_sim.clearance("robot_0", "obstacle_1") == pytest.approx(0.3, abs=1e-12)
    assert wall_sim.clearance("robot_0", "robot_0") == 0.0


def test_clearance_of_unknown_objects_raises():
    sim, other = ubot.Simulation.from_yaml(WALL_WORLD), ubot.Simulation.from_yaml(WALL_WORLD)
    with sim, other:
        with pytest.raises(ValueError, match="no object named 'wall'"):
            sim.clearance("robot_0", "wall")
        with pytest.raises(ValueError, match="no object with id 2"):
            sim.clearance(2, "robot_0")
        with pytest.raises(ValueError, match="another simulation"):
            sim.clearance(other.object(0), 1)
        with pytest.raises(TypeError, match="name \\(str\\) or id \\(int\\)"):
            sim.clearance("robot_0", 1.0)


def test_a_closed_simulation_raises_ubot_error():
    sim = ubot.Simulation.from_yaml(WALL_WORLD)
    sim.step()
    scan = sim.sensor("robot_0", "lidar2d_0")
    robot = sim.object("robot_0")
    sim.close()
    assert sim.closed
    for use in (sim.step, sim.done, sim.snapshot, lambda: sim.object(0), lambda: robot.state,
                lambda: scan.ranges, lambda: sim.robot_names, lambda: sim.clearance(0, 1)):
        with pytest.raises(ubot.Error, match="closed"):
            use()
    sim.close()  # closing twice is fine


def test_world_error_carries_file_line_column_and_key(tmp_path):
    path = tmp_path / f"bad_{os.getpid()}.yaml"
    path.write_text("world:\n  width: 10\nrobot:\n  - shape: {name: circle, radius: wide}\n")
    with pytest.raises(ubot.WorldError) as info:
        ubot.Simulation(path)
    e = info.value
    assert isinstance(e, ValueError) and isinstance(e, ubot.Error)
    assert (e.file, e.line, e.column) == (str(path), 4, 35)
    assert e.key == "robot[0].shape.radius"
    assert "expected a number" in e.message and str(path) in str(e)


def test_world_error_of_a_string_and_of_a_missing_file():
    with pytest.raises(ubot.WorldError) as info:
        ubot.Simulation.from_yaml("world:\n  height: x\n", base_dir="/nowhere")
    assert (info.value.file, info.value.line, info.value.column) == ("/nowhere/<string>", 2, 11)
    assert info.value.key == "world.height"
    with pytest.raises(ubot.WorldError, match="file not found") as info:
        ubot.Simulation("/nowhere/missing.yaml")
    assert info.value.file == "/nowhere/missing.yaml" and info.value.line == 0


def test_world_error_of_a_megabyte_value_is_short_and_keeps_its_location():
    # A 30 KB value overflowed the stack of the message parser (std::regex), a 25 MB one too:
    # the process died of SIGSEGV instead of raising.
    for n in (30_000, 25_000_000):
        with pytest.raises(ubot.WorldError) as info:
            ubot.Simulation.from_yaml("world:\n  height: " + "x" * n + "\n", base_dir="/nowhere")
        e = info.value
        assert (e.file, e.line, e.column, e.key) == ("/nowhere/<string>", 2, 11, "world.height")
        assert f"'{'x' * 64}...' ({n} bytes)" in e.message
        assert len(str(e)) < 300


@pytest.mark.parametrize("threads", [-1, 257, 10**7, 10**9, 2**31 - 1])
def test_threads_outside_the_clis_bounds_raise_value_error(threads):
    # 10**9 and 2**31 - 1 made TBB's arena crash the interpreter (SIGSEGV) at the first step of
    # a world with several sensors; the CLI refused them, the module did not.
    with pytest.raises(ValueError, match=rf"Simulation: threads must be a whole number from 0 to 256 .*got {threads}$"):
        ubot.Simulation(example("camera_world.yaml"), threads=threads)
    with pytest.raises(ValueError, match=r"Simulation.from_yaml: threads must be"):
        ubot.Simulation.from_yaml(WALL_WORLD, threads=threads)
    with pytest.raises(ValueError, match=r"VectorEnv: threads must be"):
        ubot.VectorEnv(example("camera_world.yaml"), 2, threads=threads)


def test_the_largest_thread_count_steps_a_world_of_several_sensors():
    depth = {}
    for threads in (1, 256):
        with ubot.Simulation(example("camera_world.yaml"), threads=threads) as sim:
            sim.step()
            depth[threads] = np.array(sim.sensor("rover", "depth_camera_0").depth)
    assert depth[1].shape == (240, 320) and np.isfinite(depth[1]).any()
    np.testing.assert_array_equal(depth[256], depth[1])


def test_restore_of_another_world_raises_ubot_error(wall_sim):
    other = ubot.Simulation(example("lidar_world.yaml"))
    # A snapshot of another simulation is read through its bytes, which name their world.
    with pytest.raises(ubot.Error, match="the state is of another world"):
        wall_sim.restore(other.snapshot())


class Peeker:
    """A medium provider that reads the simulation from inside the step."""

    def __init__(self, sim):
        self.sim = sim

    def snapshot(self, time):
        return self.sim.object(0).state


def test_using_the_simulation_inside_its_step_raises(wall_sim):
    wall_sim.add_medium_provider(Peeker(wall_sim))
    with pytest.raises(ubot.Error, match="in the middle of a step"):
        wall_sim.step()
    assert wall_sim.step_count == 1  # the step itself ran; the simulation stays usable
    wall_sim.reset()
    assert wall_sim.step_count == 0
    # It holds the simulation, which copy.deepcopy cannot copy: no snapshots.
    with pytest.raises(ubot.Error, match="clone"):
        wall_sim.snapshot()


def test_exception_names():
    assert ubot.Error.__module__ == "ubot" and ubot.WorldError.__name__ == "WorldError"
    assert issubclass(ubot.Error, RuntimeError)
    assert issubclass(ubot.WorldError, ubot.Error) and issubclass(ubot.WorldError, ValueError)


def test_step_releases_the_gil_and_refuses_a_second_stepper():
    import threading
    import time

    sim = ubot.Simulation(example("lidar_world.yaml"), threads=1)
    counter, stop = [0], threading.Event()

    def spin():
        while not stop.is_set():
            counter[0] += 1

    spinner = threading.Thread(target=spin)
    spinner.start()
    time.sleep(0.01)
    before = counter[0]
    sim._bench_step(5000)  # some ms of C++ with the GIL released: the spinner runs meanwhile
    during = counter[0] - before
    stop.set()
    spinner.join()
    assert during > 1000

    errors = []
    stepper = threading.Thread(target=lambda: sim._bench_step(100000))  # about a second
    stepper.start()
    time.sleep(0.05)  # the stepper is inside its steps by now
    try:
        while stepper.is_alive():
            sim.step()
    except ubot.Error as e:
        errors.append(str(e))
    stepper.join()
    assert errors and "in the middle of a step" in errors[0]


def robot_world(kinematics, key, name):
    return (f"world: {{width: 10, height: 10}}\nrobot:\n  - kinematics: {{name: {kinematics}}}\n"
            f"    shape: {{name: circle, radius: 0.2}}\n    state: [2, 2, 0, 0]\n"
            f"    goal: [8, 8, 0]\n    {key}: {{name: {name}}}\n")


@pytest.mark.parametrize("kinematics", ["diff", "omni", "acker", "omni_angular"])
def test_behavior_names_are_what_the_loader_accepts(kinematics):
    names = ubot.behavior_names(kinematics)
    for name in ("dash", "rvo", "sfm", "orca", "smooth_dash"):
        try:
            ubot.Simulation.from_yaml(robot_world(kinematics, "behavior", name)).close()
            loaded = True
        except ubot.WorldError as err:
            assert err.key == "robot[0].behavior.name", err
            loaded = False
        assert loaded == (name in names), (kinematics, name)
    assert ubot.behavior_names(kinematics)[0] == "dash"


def builtin(names):
    """The names no test registered (test_behaviors_registered.py's may be in this process)."""
    return [n for n in names if not n.startswith("test_")]


def test_group_behavior_names_follow_the_registry():
    assert builtin(ubot.behavior_names()) == ["dash", "rvo", "sfm"]
    assert ubot.group_behavior_names("diff") == ubot.group_behavior_names("omni") == ["orca", "sfm"]
    assert ubot.group_behavior_names("acker") == [] and ubot.group_behavior_names() == ["orca", "sfm"]
    with pytest.raises(ubot.WorldError, match="orca"):
        ubot.Simulation.from_yaml(robot_world("acker", "group_behavior", "orca"))
    with pytest.raises(ValueError, match=r"unknown kinematics 'legs' \(known: diff, omni, "
                       r"omni_angular, acker, static\)"):
        ubot.behavior_names("legs")
    # `static` is a kinematics the loader takes (its behaviour keys load, and never run).
    assert builtin(ubot.behavior_names("static")) == ["dash", "rvo", "sfm"]
    assert ubot.group_behavior_names("static") == []


def test_timings_sum_the_phases_of_the_steps_since_they_were_turned_on():
    sim = ubot.Simulation(example("lidar_world.yaml"))
    sim.step()
    assert sim.timings()["steps"] == 0  # off by default
    sim.set_timing(True)
    for _ in range(5):
        sim.step()
    t = sim.timings()
    assert t["steps"] == 5
    # Every phase ran (the lidar world has behaviours and lidars), and behaviours are part of
    # the world step.
    assert t["sensors"] > 0 and t["world"] > 0 and t["scene"] > 0
    assert 0 < t["behaviours"] <= t["world"]
    assert t["fog"] == 0
    sim.set_timing(True)  # starts again from zero
    assert sim.timings()["steps"] == 0 and sim.timings()["world"] == 0
    sim.set_timing(False)
    sim.step()
    assert sim.timings()["steps"] == 0


def test_import_and_a_step_load_neither_cyclonedds_nor_openssl():
    # Start-up (docs/benchmarks.md): the ROS 2 bridge's CycloneDDS loads on first use and ubot
    # hashes ROS types itself, so `import ubot` maps neither library (about 3 ms of loading).
    code = ("import ubot; sim = ubot.Simulation(%r); sim.step(); "
            "print(open('/proc/self/maps').read())" % example("lidar_world.yaml"))
    maps = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout
    assert "_core." in maps  # the extension is listed, so would its libraries be
    for library in ("libddsc", "libcrypto", "libssl"):
        assert library not in maps


def test_step_mode_is_a_load_option_kept_by_pickling():
    # IR-SIM's irsim.make(step_mode=...): the loader takes it, the file is not rewritten.
    import pickle

    path = example("lidar_world.yaml")
    internal = ubot.Simulation(path, seed=0)
    external = ubot.Simulation(path, seed=0, step_mode="external")
    start = external.object(0).state.copy()
    internal.step()
    external.step()
    assert not np.allclose(internal.object(0).state, start)  # its behaviour moves it
    np.testing.assert_array_equal(external.object(0).state, start)  # nothing moves by itself
    again = pickle.loads(pickle.dumps(external))
    again.step()
    np.testing.assert_array_equal(again.object(0).state, start)
    with open(path) as f:
        text = f.read()
    from_text = ubot.Simulation.from_yaml(text, step_mode="external",
                                          base_dir=os.path.dirname(path))
    from_text.step()
    np.testing.assert_array_equal(from_text.object(0).state, start)
    with pytest.raises(ValueError, match="step_mode: expected 'internal' or 'external', got 'ext'"):
        ubot.Simulation(path, step_mode="ext")
