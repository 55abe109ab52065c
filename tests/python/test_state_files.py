"""State as plain data (issue 47; docs/python.md, "Snapshots, state files and pickling"): a
pickled Snapshot, a pickled Simulation and a state file continue in another process byte for
byte as the run that never stopped; what cannot be pickled or read back says why."""

import copy
import multiprocessing
import os
import pickle
import shutil
import subprocess
import sys

import numpy as np
import pytest

import state_worker
import ubot
from conftest import WALL_WORLD, example
from state_worker import drive, make, observe

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "state_worker.py")

# Noise everywhere: motion noise, wander goals, random placement, lidar range and angle noise,
# and smoke in the beams (docs/determinism.md: each is a seeded stream, part of the state).
NOISY_WORLD = """
world: {width: 10, height: 10, step_time: 0.1, seed: 5}
robot:
  - number: 3
    distribution: {name: random, range_low: [1, 1, -3], range_high: [9, 9, 3], min_distance: 1.0}
    kinematics: {name: diff, noise: true}
    shape: {name: circle, radius: 0.2}
    goal: [8, 8, 0]
    behavior: {name: dash, wander: true, range_low: [1, 1, -3], range_high: [9, 9, 3]}
    sensors:
      - {name: lidar2d, range_max: 6, angle_range: 3.14, number: 60, noise: true, std: 0.05,
         angle_std: 0.01}
obstacle:
  - shape: {name: rectangle, length: 1.5, width: 1.2}
    state: [5, 5, 0.3]
media:
  - cells: [{position: [3, 6, 0], radius: 1.0, density: 0.7}]
"""

WORLDS = {
    # IMUs with white noise and bias random walks, a drone on a trajectory, a thrown ball.
    "imu": ("path", example("imu_world.yaml"), None),
    "noisy": ("yaml", NOISY_WORLD, 11, "/"),
}


def run_worker(request, cwd):
    """state_worker.resume(request) in a new Python process started in `cwd`."""
    done = subprocess.run([sys.executable, WORKER], input=pickle.dumps(request),
                          capture_output=True, cwd=cwd, timeout=300, check=False)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return pickle.loads(done.stdout)


def assert_same_steps(got, expected):
    assert len(got) == len(expected) > 0
    for step, (a, b) in enumerate(zip(got, expected)):
        assert a == b, f"step {step + 1} after the restore differs"


@pytest.mark.parametrize("name", sorted(WORLDS))
def test_a_pickled_snapshot_continues_in_another_process(name, tmp_path):
    world = WORLDS[name]
    sim = make(world)
    drive(sim, 12)
    snap = sim.snapshot()
    data = pickle.dumps(snap)
    expected = drive(sim, 40)  # the uninterrupted run
    result = run_worker({"mode": "snapshot", "world": world, "pickle": data, "until": 40},
                        cwd=tmp_path)
    assert result["info"]["snapshot"] == (12, snap.seed)
    assert result["info"]["start"] == (12, snap.seed)
    assert_same_steps(result["seen"], expected)
    # The noise is real: another seed's run differs.
    other = make(world[:2] + (123,) + world[3:])
    assert drive(other, 40)[-1] != expected[-1]


def test_snapshot_bytes_continue_in_another_process(tmp_path):
    world = WORLDS["noisy"]
    sim = make(world)
    drive(sim, 7)
    data = sim.snapshot().to_bytes()
    assert isinstance(data, bytes) and data.startswith(b"UBOTSTAT")
    expected = drive(sim, 30)
    result = run_worker({"mode": "bytes", "world": world, "bytes": data, "until": 30},
                        cwd=tmp_path)
    assert_same_steps(result["seen"], expected)


def test_a_snapshot_goes_through_multiprocessing_spawn():
    world = WORLDS["noisy"]
    sim = make(world)
    drive(sim, 5)
    snap = sim.snapshot()
    expected = drive(sim, 20)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        result = pool.apply(state_worker.resume,
                            ({"mode": "snapshot", "world": world, "pickle": pickle.dumps(snap),
                              "until": 20},))
    assert_same_steps(result["seen"], expected)


def test_an_unpickled_snapshot_restores_again_and_into_other_simulations():
    world = WORLDS["noisy"]
    sim = make(world)
    drive(sim, 4)
    snap = pickle.loads(pickle.dumps(sim.snapshot()))
    assert (snap.step_count, snap.seed) == (4, 11)
    assert repr(snap) == "<ubot.Snapshot step_count=4 seed=11>"
    expected = drive(sim, 15)
    for target in (sim, sim, make(world)):  # the second time from what the first one read
        target.restore(snap)
        assert_same_steps(drive(target, 15), expected)
    # A native snapshot restores into another simulation of the same world too (through its
    # bytes), and copies share it.
    sim.restore(snap)
    native = sim.snapshot()
    other = make(world)
    drive(other, 2)
    other.restore(copy.deepcopy(native))
    assert_same_steps(drive(other, 15), expected)
    assert copy.copy(native).step_count == 4


def test_snapshots_compare_by_their_state():
    world = WORLDS["noisy"]
    a, b = make(world), make(world)
    drive(a, 5)
    drive(b, 5)
    at5 = a.snapshot()
    assert at5 == b.snapshot()  # two simulations, the same state
    assert at5 == pickle.loads(pickle.dumps(at5))
    drive(b, 6)  # one more step
    assert at5 != b.snapshot()
    assert at5 != "a snapshot"
    with pytest.raises(TypeError):
        hash(at5)


def test_snapshot_from_bytes_is_a_snapshot_of_this_world():
    sim = make(WORLDS["noisy"])
    drive(sim, 6)
    data = sim.snapshot().to_bytes()
    snap = sim.snapshot_from_bytes(bytearray(data))
    assert (snap.step_count, snap.seed) == (6, 11)
    assert snap.to_bytes() == data  # read and written again: the same bytes
    expected = drive(sim, 10)
    sim.restore(snap)
    assert_same_steps(drive(sim, 10), expected)
    with pytest.raises(TypeError):
        sim.snapshot_from_bytes("UBOTSTAT")


@pytest.mark.parametrize("reset_seed", [None, 7])
def test_a_pickled_simulation_continues_in_another_process(reset_seed, tmp_path, monkeypatch):
    # Made from a relative path, with meshes beside the world file: the copy in another
    # directory finds them (its world file name becomes absolute there).
    monkeypatch.chdir(os.path.dirname(example("lidar3d_world.yaml")))
    sim = ubot.Simulation("lidar3d_world.yaml", seed=3, threads=1)
    if reset_seed is not None:
        sim.reset(seed=reset_seed)  # the running seed is state; the load seed stays the world's
    drive(sim, 6)
    data = pickle.dumps(sim)
    expected = drive(sim, 20)
    result = run_worker({"mode": "simulation", "pickle": data, "until": 20}, cwd=tmp_path)
    assert result["info"]["start"] == (6, 3 if reset_seed is None else reset_seed)
    assert result["info"]["world_file"] == os.path.abspath("lidar3d_world.yaml")
    assert_same_steps(result["seen"], expected)
    # In this process (the same directory), the copy keeps the name, and is a simulation of its
    # own: stepping one leaves the other.
    here = pickle.loads(data)
    assert here.world_file == "lidar3d_world.yaml" and here.step_count == 6
    assert_same_steps(drive(here, 20), expected)
    again = copy.deepcopy(here)
    here.step()
    assert (again.step_count, here.step_count) == (20, 21)


def test_a_simulation_from_yaml_pickles_with_its_text(tmp_path):
    sim = make(WORLDS["noisy"])
    drive(sim, 9)
    data = pickle.dumps(sim)
    expected = drive(sim, 25)
    result = run_worker({"mode": "simulation", "pickle": data, "until": 25}, cwd=tmp_path)
    assert result["info"]["world_file"] == "/<string>"
    assert_same_steps(result["seen"], expected)


def test_save_state_and_load_state_through_a_file(tmp_path):
    world = WORLDS["imu"]
    sim = make(world)
    drive(sim, 15)
    path = tmp_path / "run.state"
    sim.save_state(path)  # os.PathLike
    assert path.read_bytes() == sim.snapshot().to_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.state"]  # no .part left
    expected = drive(sim, 45)
    result = run_worker({"mode": "state_file", "world": world, "path": str(path), "until": 45},
                        cwd=tmp_path)
    assert_same_steps(result["seen"], expected)
    # And in this process, into the same simulation.
    sim.load_state(str(path))
    assert sim.step_count == 15
    assert_same_steps(drive(sim, 45), expected)


# --- what cannot be restored, read or pickled -------------------------------------------------


def test_restoring_a_snapshot_of_another_world_raises(wall_sim):
    other = ubot.Simulation(example("lidar_world.yaml"))
    other.step()
    before = observe(wall_sim)
    for snap in (other.snapshot(), pickle.loads(pickle.dumps(other.snapshot()))):
        with pytest.raises(ubot.Error, match="another world"):
            wall_sim.restore(snap)
        with pytest.raises(ubot.Error, match="another world"):
            wall_sim.snapshot_from_bytes(snap.to_bytes())
    assert observe(wall_sim) == before


def flipped(data: bytes, at: int) -> bytes:
    damaged = bytearray(data)
    damaged[at] ^= 0x01
    return bytes(damaged)


def test_a_damaged_state_file_raises_and_leaves_the_simulation(tmp_path):
    sim = make(WORLDS["noisy"])
    drive(sim, 5)
    path = tmp_path / "s.state"
    sim.save_state(str(path))
    data = path.read_bytes()
    drive(sim, 8)
    before = observe(sim)
    path.write_bytes(flipped(data, len(data) // 2))
    with pytest.raises(ubot.Error, match=r"s\.state: the state file is damaged"):
        sim.load_state(path)
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ubot.Error, match="damaged"):
        sim.load_state(path)
    path.write_bytes(flipped(data, 0))
    with pytest.raises(ubot.Error, match="not a ubot state file"):
        sim.load_state(path)
    with pytest.raises(ubot.Error, match="damaged"):
        sim.snapshot_from_bytes(flipped(data, len(data) - 1))
    # A pickled Snapshot whose bytes were damaged on the way: its restore says so.
    damaged = pickle.loads(pickle.dumps(sim.snapshot_from_bytes(data)).replace(
        data, flipped(data, 120)))
    with pytest.raises(ubot.Error, match="restore: the state file is damaged"):
        sim.restore(damaged)
    assert observe(sim) == before  # untouched by every failure
    path.write_bytes(data)
    sim.load_state(path)
    assert sim.step_count == 5


def test_a_missing_state_file_raises(wall_sim, tmp_path):
    with pytest.raises(ubot.Error, match=r"missing\.state: cannot open the state file"):
        wall_sim.load_state(tmp_path / "missing.state")
    with pytest.raises(ubot.Error):
        wall_sim.save_state(tmp_path / "no" / "such" / "folder" / "s.state")


class Puff:
    def snapshot(self, time):
        return [[3.0, 3.0, 0.5, 0.6, 1.0]]


def test_a_medium_provider_added_from_python_does_not_pickle(wall_sim, tmp_path):
    wall_sim.add_medium_provider(Puff())
    wall_sim.step()
    snap = wall_sim.snapshot()  # in-process snapshots still work
    wall_sim.restore(snap)
    with pytest.raises(TypeError, match="cannot pickle ubot.Simulation: 1 medium provider"):
        pickle.dumps(wall_sim)
    with pytest.raises(TypeError, match="cannot pickle ubot.Snapshot: .*add_medium_provider"):
        pickle.dumps(snap)
    with pytest.raises(ubot.Error, match="add_medium_provider"):
        snap.to_bytes()
    with pytest.raises(ubot.Error, match="add_medium_provider"):
        wall_sim.save_state(tmp_path / "s.state")
    assert not any(tmp_path.iterdir())


def test_a_closed_simulation_does_not_pickle(wall_sim):
    wall_sim.close()
    with pytest.raises(ubot.Error, match="closed"):
        pickle.dumps(wall_sim)


def test_python_behaviours_of_ubot_irsim_do_not_pickle(tmp_path):
    from ubot import irsim
    from ubot.irsim.lib import register_behavior

    name = f"test_pickle_push_{os.getpid()}"

    @register_behavior("omni", name)
    def push(ego_object, external_objects=None, **kwargs):
        return np.array([[0.5], [0.0]])

    path = tmp_path / "world.yaml"
    world = WALL_WORLD.replace("kinematics: {name: diff}", "kinematics: {name: omni}")
    path.write_text(world.replace("vel_max: [1, 1]",
                                  f"vel_max: [1, 1]\n    behavior: {{name: '{name}'}}"))
    env = irsim.make(str(path), display=False)
    env.step()
    with pytest.raises(TypeError, match=f"behaviours '{name}' run in Python"):
        pickle.dumps(env._sim)
    env._sim.snapshot()  # in-process snapshots are unaffected


def test_an_unpickled_world_needs_its_files_where_they_were(tmp_path):
    # A mesh beside the world: the pickle holds the world's text, not the mesh.
    shutil.copy(example("meshes/cube.obj"), tmp_path / "cube.obj")
    text = WALL_WORLD + """  - shape: {name: mesh, file: cube.obj}
    state: [3, 2, 0.5]
"""
    sim = ubot.Simulation.from_yaml(text, base_dir=tmp_path)
    data = pickle.dumps(sim)
    assert pickle.loads(data).world_file == str(tmp_path / "<string>")
    (tmp_path / "cube.obj").unlink()
    with pytest.raises(ubot.WorldError, match="cube.obj"):
        pickle.loads(data)


def unpickle(obj, state):
    """What pickle.loads does with obj's pickle, with another state."""
    new, args, _ = obj.__reduce__()
    made = new(*args)
    made.__setstate__(state)
    return made


def test_a_foreign_pickle_state_raises():
    sim = make(WORLDS["noisy"])
    state = sim.__getstate__()
    assert sorted(state) == ["cwd", "format", "load_seed", "state", "step_mode", "threads",
                             "world", "world_file"]
    assert unpickle(sim, state).step_count == 0
    # Pickled before step_mode was a load option: the file's own step mode.
    assert unpickle(sim, {k: v for k, v in state.items() if k != "step_mode"}).step_count == 0
    for bad in ("sideways", 5):
        with pytest.raises(ValueError, match="step_mode"):
            unpickle(sim, dict(state, step_mode=bad))
    with pytest.raises(ValueError, match="format 2"):
        unpickle(sim, dict(state, format=2))
    with pytest.raises(ubot.Error, match="pickled Simulation: the state file is damaged"):
        unpickle(sim, dict(state, state=flipped(state["state"], 50)))
    with pytest.raises(KeyError):
        unpickle(sim, {"format": 1})
    snap = sim.snapshot()
    snap_state = snap.__getstate__()
    with pytest.raises(ValueError, match="format 9"):
        unpickle(snap, (9,) + snap_state[1:])
    with pytest.raises(ValueError, match="not the state of a pickled Snapshot"):
        unpickle(snap, snap_state[:2])


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_every_pickle_protocol(protocol):
    sim = make(WORLDS["noisy"])
    drive(sim, 3)
    # Protocols 0 and 1 went through copyreg._reduce_ex, where pybind11 aborted the interpreter.
    copy_ = pickle.loads(pickle.dumps(sim, protocol=protocol))
    snap = pickle.loads(pickle.dumps(sim.snapshot(), protocol=protocol))
    assert (copy_.step_count, snap.step_count) == (3, 3)
