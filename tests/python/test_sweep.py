"""ubot.sweep: scenario sweeps on Dask (docs/sweeps.md)."""

import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pandas as pd
import pytest
from conftest import SOURCE_DIR, WALL_WORLD, example

import ubot
from ubot.sweep import metrics, runner
from ubot.sweep.run import run_task

UBOT_BIN = os.environ.get("UBOT_BIN")
HERE = os.path.dirname(os.path.abspath(__file__))

# 2 x 2 parameter points x 2 seeds = 8 short runs; the slow robot never arrives, so every run
# lasts all its steps (long enough for a worker to be killed while it holds one).
SWEEP = f"""
name: small
worlds: [{example("lidar_world.yaml")}]
seed: 11
seeds: 2
steps: {{steps}}
parameters:
  robot[0].vel_max: [[0.02, 1], [0.5, 1]]
  robot[0].sensors[0].noise: [true, false]
"""


@pytest.fixture
def work():
    path = tempfile.mkdtemp(prefix=f"ubot_sweep_{os.getpid()}_")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def write(work, name, text):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def serial_table(sweep):
    """The runs one after the other, no Dask: the reference every sweep must equal."""
    from ubot.sweep import report

    return report.table([run_task(r) for r in sweep.runs], sweep.parameter_names)


def csv_lines(table):
    return table.to_csv(index=False).splitlines()


@pytest.fixture(scope="module")
def local_client():
    from distributed import Client, LocalCluster

    with Client(LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                             dashboard_address=None)) as client:
        yield client


def test_runs_are_seeded_from_the_sweep_seed_and_their_index(work):
    sweep = ubot.sweep.load(write(work, "s.yaml", SWEEP.format(steps=5)))
    assert len(sweep.runs) == 8
    assert [r.seed for r in sweep.runs] == [ubot.stream_seed(11, f"sweep/{i}")
                                            for i in range(8)]
    assert len({r.seed for r in sweep.runs}) == 8
    assert [dict(r.params)["robot[0].vel_max"] for r in sweep.runs[:4]] == [[0.02, 1]] * 4
    assert [dict(r.params)["robot[0].sensors[0].noise"] for r in sweep.runs[:4]] == \
        [True, True, False, False]
    explicit = ubot.sweep.load(write(work, "e.yaml", "worlds: [%s]\nseeds: [3, 9]\n"
                                     % example("lidar_world.yaml")))
    assert [r.seed for r in explicit.runs] == [3, 9]


def documented_stream_seed(world_seed, stream_id):
    """docs/determinism.md's rule, written out here: mix64(mix64(w) XOR fnv1a64(id))."""
    mask = 2**64 - 1

    def mix64(z):
        z = (z + 0x9E3779B97F4A7C15) & mask
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    h = 0xCBF29CE484222325
    for byte in stream_id.encode():
        h = ((h ^ byte) * 0x100000001B3) & mask
    return mix64(mix64(world_seed) ^ h)


def test_run_seeds_follow_the_documented_rule():
    assert [ubot.stream_seed(11, f"sweep/{i}") for i in range(3)] == \
        [documented_stream_seed(11, f"sweep/{i}") for i in range(3)]
    assert ubot.sweep.run_seed(2**64 - 1, 12345) == documented_stream_seed(2**64 - 1, "sweep/12345")


def test_a_local_cluster_equals_serial_runs_row_by_row(work, local_client):
    sweep = ubot.sweep.load(write(work, "s.yaml", SWEEP.format(steps=40)))
    serial = serial_table(sweep)
    assert (serial["status"] == "ok").all()
    on_dask = ubot.sweep(sweep, client=local_client, out=os.path.join(work, "out"),
                         progress=False)
    assert csv_lines(on_dask) == csv_lines(serial)
    written = pd.read_csv(os.path.join(work, "out", "results.csv"))
    assert len(written) == 8 and list(written["run"]) == list(range(8))
    with open(os.path.join(work, "out", "summary.png"), "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    # A run re-run alone, in a fresh load of the sweep file, gives the same row.
    from ubot.sweep import report

    alone = report.table([run_task(ubot.sweep.load(sweep.file).runs[5])],
                         sweep.parameter_names)
    assert csv_lines(alone)[1] == csv_lines(on_dask)[6]


def test_the_row_matches_the_simulation_stepped_by_hand(work):
    """WALL_WORLD with a dash behaviour (a key the world lacks, set by the sweep): the robot
    drives at the wall x = 5.5 and stops on it (collision_mode stop)."""
    world = write(work, "wall.yaml", WALL_WORLD)
    sweep = ubot.sweep.load(write(work, "s.yaml", f"worlds: [{world}]\nsteps: 100\n"
                                  "parameters:\n  robot[0].behavior: [{name: dash}]\n"))
    row = run_task(sweep.runs[0])
    dashing = WALL_WORLD.replace("    vel_max: [1, 1]\n",
                                 "    vel_max: [1, 1]\n    behavior: {name: dash}\n")
    with ubot.Simulation.from_yaml(dashing, seed=sweep.runs[0].seed, threads=1) as sim:
        xs = [sim.object("robot_0").state[0]]
        while sim.step_count < 100 and not sim.done():
            sim.step()
            xs.append(sim.object("robot_0").state[0])
        assert sim.object("robot_0").collision
    assert row["status"] == "ok" and row["steps"] == len(xs) - 1
    assert row["robot_0.collisions"] == 1
    assert row["robot_0.min_clearance"] == 0.0
    assert row["robot_0.arrival_time"] is None
    assert row["robot_0.path_length"] == pytest.approx(xs[-1] - 2.0, abs=1e-12)
    assert xs[-1] + 0.2 >= 5.5 - 0.1  # it got to the wall


def test_runs_start_from_a_saved_state_with_their_own_seeds(work):
    """start_state (issue 47): every run goes on from the saved step, reseeded with its seed, for
    at most `steps` more; two runs of one seed agree, runs of other seeds differ (noisy lidar and
    motion); a changed state file changes the runs' keys."""
    noisy = WALL_WORLD.replace("number: 3}", "number: 3, noise: true, std: 0.05}").replace(
        "kinematics: {name: diff}", "kinematics: {name: diff, noise: true}")
    world = write(work, "wall.yaml", noisy)
    with ubot.Simulation(world, seed=4) as sim:
        for _ in range(9):
            sim.step({"robot_0": [0.3, 0.0]})
        sim.save_state(os.path.join(work, "warm.bin"))
    sweep = ubot.sweep.load(write(work, "s.yaml", f"worlds: [{world}]\nseeds: [5, 5, 6]\n"
                                  "steps: 6\nstart_state: warm.bin\nparameters:\n"
                                  "  robot[0].behavior: [{name: dash}]\n"))
    rows = [run_task(r) for r in sweep.runs]
    assert [r["status"] for r in rows] == ["ok"] * 3
    assert [r["steps"] for r in rows] == [15, 15, 15]  # 9 saved + 6
    assert rows[0]["robot_0.path_length"] == rows[1]["robot_0.path_length"]
    assert rows[0]["robot_0.path_length"] != rows[2]["robot_0.path_length"]
    # The run by hand: load, reseed, step.
    dashing = noisy.replace("    vel_max: [1, 1]\n",
                            "    vel_max: [1, 1]\n    behavior: {name: dash}\n")
    with ubot.Simulation.from_yaml(dashing, seed=5, threads=1) as sim:
        sim.restore(sim.snapshot_from_bytes(open(os.path.join(work, "warm.bin"), "rb").read()))
        sim.reseed(5)
        start = sim.object("robot_0").state[:2]
        for _ in range(6):
            sim.step()
        end = sim.object("robot_0").state[:2]
    assert rows[0]["robot_0.path_length"] >= np.hypot(*(np.array(end) - start)) - 1e-12
    keys = [r.key() for r in sweep.runs]
    with open(os.path.join(work, "warm.bin"), "r+b") as f:  # another state: other keys
        f.seek(40)
        f.write(b"\x01")
    assert [r.key() for r in ubot.sweep.load(sweep.file).runs] != keys
    bad = write(work, "b.yaml", f"worlds: [{world}]\nstart_state: missing.bin\n")
    with pytest.raises(ubot.sweep.SweepError, match="start_state: cannot read"):
        ubot.sweep.load(bad)


# A circle robot of radius 0.5 at the origin that never moves (no goal), among static shapes
# whose distances to it and to each other are worked out by hand.
CLEARANCE_WORLD = """
world: {width: 20, height: 20, offset: [-10, -10]}
robot:
  - shape: {name: circle, radius: 0.5}
    state: [0, 0, 0]
obstacle:
  - {name: disc, shape: {name: circle, radius: 1.0}, state: [3, 4, 0]}
  - name: square
    shape: {name: polygon, vertices: [[2, -1], [4, -1], [4, 1], [2, 1]]}
    state: [0, 0, 0]
  - name: corner
    shape: {name: polygon, vertices: [[5, 2], [6, 2], [6, 3], [5, 3]]}
    state: [0, 0, 0]
  - {name: line, shape: {name: linestring, vertices: [[3, -5], [3, 5]]}, state: [0, 0, 0]}
  - {name: dot, shape: {name: circle, radius: 0.1}, state: [3, 0, 0]}
  - {name: far, shape: {name: circle, radius: 0.1}, state: [-8, 0, 0], unobstructed: true}
"""


def test_clearance_geometry_against_hand_computed_distances():
    with ubot.Simulation.from_yaml(CLEARANCE_WORLD, threads=1) as sim:
        d = sim.clearance
        assert d("robot_0", "disc") == pytest.approx(5 - 0.5 - 1)
        assert d("robot_0", "square") == pytest.approx(1.5)
        assert d("square", "robot_0") == pytest.approx(1.5)
        assert d("dot", "square") == 0.0  # inside
        assert d("square", "corner") == pytest.approx(np.hypot(1, 1))
        assert d("square", "line") == 0.0  # crosses it
        assert d("robot_0", "line") == pytest.approx(2.5)
        assert d("dot", "line") == 0.0  # on the open chain
        # The metric: the nearest collidable object (the unobstructed one, nearer, left out).
        assert sim.min_clearance("robot_0") == pytest.approx(1.5)
        assert sim.min_clearance("dot") == 0.0
        robot = metrics.robot_metrics(sim)[0]
        assert robot.min_clearance == pytest.approx(1.5)
        sim.set_state("far", [0.7, 0, 0])
        robot.after_step(0.1)
        assert robot.min_clearance == pytest.approx(1.5)
        sim.set_state("dot", [0, 1.2, 0])
        robot.after_step(0.2)
        assert robot.min_clearance == pytest.approx(1.2 - 0.5 - 0.1)
        sim.set_state("dot", [0, 3, 0])
        robot.after_step(0.3)  # the minimum stays the smallest seen
        assert robot.min_clearance == pytest.approx(1.2 - 0.5 - 0.1)
    alone = "world: {width: 10, height: 10}\nrobot:\n  - {shape: {name: circle, radius: 0.5}}\n"
    with ubot.Simulation.from_yaml(alone, threads=1) as sim:
        assert np.isnan(sim.min_clearance("robot_0"))  # nothing to collide with
        assert np.isnan(metrics.robot_metrics(sim)[0].min_clearance)


def test_resume_skips_the_runs_already_done(work, monkeypatch):
    sweep_file = write(work, "s.yaml", SWEEP.format(steps=10))
    out = os.path.join(work, "out")
    first = ubot.sweep.execute(ubot.sweep.load(sweep_file), None, out, progress=False)
    os.remove(os.path.join(out, "runs", "000003.json"))
    ran = []
    monkeypatch.setattr(runner, "run_task", lambda run, out_dir: ran.append(run.index)
                        or run_task(run, out_dir))
    again = ubot.sweep.execute(ubot.sweep.load(sweep_file), None, out, progress=False)
    assert ran == [3]
    assert csv_lines(again) == csv_lines(first)
    ran.clear()
    changed = write(work, "s.yaml", SWEEP.format(steps=11))  # another definition: stale files
    ubot.sweep.execute(ubot.sweep.load(changed), None, out, progress=False)
    assert ran == list(range(8))


def test_a_bad_parameter_path_or_a_failing_metric_is_an_error_row(work, local_client):
    write(work, "boom.py", "def score(sim, run):\n    if run.index == 1:\n"
          "        raise RuntimeError('no score for run 1')\n    return 2.5\n")
    sweep_file = write(work, "s.yaml", f"""
worlds: [{example("lidar_world.yaml")}]
steps: 3
parameters:
  robot[0].shape.radius: [0.2, 0.3]
metrics: [path_length, "boom:score"]
""")
    table = ubot.sweep(sweep_file, client=local_client, progress=False)
    assert list(table["status"]) == ["ok", "error"]
    assert table["score"][0] == 2.5
    assert "RuntimeError: no score for run 1" in table["error"][1]
    bad = write(work, "b.yaml", f"worlds: [{example('lidar_world.yaml')}]\nsteps: 3\n"
                "parameters:\n  robot[4].state: [[1, 1, 0]]\n  obstacle[0].shape.radius: [0.1]\n")
    row = ubot.sweep(bad, client=local_client, progress=False).iloc[0]
    assert row["status"] == "error"
    assert "robot[4].state: robot has 1 entries, no [4]" in row["error"]
    radius = write(work, "r.yaml", f"worlds: [{example('lidar_world.yaml')}]\nsteps: 3\n"
                   "parameters:\n  robot[0].shape.radius: [-1.0]\n")
    error = ubot.sweep(radius, client=local_client, progress=False)["error"][0]
    assert "WorldError" in error and "robot[0].shape.radius" in error


def test_key_paths_index_a_single_robot_mapping_as_irsim_lists_it():
    from ubot.sweep.run import ParameterError, set_key_path

    world = {"robot": {"kinematics": {"name": "diff"}, "sensors": [{"std": 0.1}]},
             "obstacle": [{"shape": {"name": "circle", "radius": 1.0}}]}
    set_key_path(world, "robot[0].sensors[0].std", 0.3)
    set_key_path(world, "robot.kinematics.name", "omni")
    set_key_path(world, "obstacle[0].shape.radius", 2.0)
    assert world["robot"] == {"kinematics": {"name": "omni"}, "sensors": [{"std": 0.3}]}
    assert world["obstacle"][0]["shape"]["radius"] == 2.0
    with pytest.raises(ParameterError, match=r"robot\[1\].state: robot is not a list"):
        set_key_path(world, "robot[1].state", [0, 0, 0])
    with pytest.raises(ParameterError, match=r"replace robot itself, not robot\[0\]"):
        set_key_path(world, "robot[0]", {})


def test_a_run_that_kills_its_worker_becomes_an_error_row(work):
    """Run 1's metric ends the worker process; Dask gives up on it (allowed-failures 0 here, 3 by
    default) and the sweep still has every row. Worker saturation 1: the worker holds only the
    run it executes, so no other run dies with it (Dask counts those as suspects too)."""
    import dask
    from distributed import Client, LocalCluster

    write(work, "fatal.py", "import os\n\ndef exit_on_run_1(sim, run):\n"
          "    if run.index == 1:\n        os._exit(3)\n    return 1.0\n")
    sweep_file = write(work, "s.yaml", f"worlds: [{example('lidar_world.yaml')}]\nseeds: 3\n"
                       "steps: 3\nmetrics: [path_length, 'fatal:exit_on_run_1']\n")
    with dask.config.set({"distributed.scheduler.allowed-failures": 0,
                          "distributed.scheduler.worker-saturation": 1.0}), \
            Client(LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                dashboard_address=None)) as client:
        table = ubot.sweep(sweep_file, client=client, progress=False)
    assert list(table["status"]) == ["ok", "error", "ok"]
    assert table["error"][1].startswith("KilledWorker")
    assert list(table["exit_on_run_1"])[::2] == [1.0, 1.0]


@pytest.mark.parametrize("text, line, column, key", [
    ("worlds: [w.yaml]\nstep: 3\n", 2, 1, "step"),
    ("worlds: [nowhere.yaml]\n", 1, 10, "worlds"),
    ("worlds: [w.yaml]\nmetrics: [path_length, speed]\n", 2, 24, "metrics[1]"),
    ("worlds: [w.yaml]\nparameters:\n  robot[0]..std: [1]\n", 3, 3, "parameters.robot[0]..std"),
    ("worlds: [w.yaml]\nparameters:\n  robot[0].std: 0.1\n", 3, 17, "parameters.robot[0].std"),
    ("worlds: [w.yaml]\nseeds: 0\n", 2, 8, "seeds"),
    ("worlds: [w.yaml]\nparameters:\n  world.width: [5]\n  world.width: [6]\n", 4, 3,
     "parameters.world.width"),
    ("worlds: [w.yaml]\noutputs: [frames, video]\n", 2, 19, "outputs"),
    ("worlds: [w.yaml\n", 2, 1, ""),
])
def test_a_bad_sweep_file_names_its_line_and_key(work, text, line, column, key):
    shutil.copy(example("lidar_world.yaml"), os.path.join(work, "w.yaml"))
    path = write(work, "bad.yaml", text)
    with pytest.raises(ubot.sweep.SweepError) as e:
        ubot.sweep.load(path)
    assert (e.value.file, e.value.line, e.value.column, e.value.key) == (path, line, column, key)
    assert str(e.value).startswith(f"{path}:{line}:{column}: ")


def test_the_docs_show_the_example_sweep_file():
    with open(os.path.join(SOURCE_DIR, "docs", "sweeps.md")) as f:
        docs = f.read()
    with open(os.path.join(SOURCE_DIR, "examples", "sweeps", "lidar_noise.yaml")) as f:
        body = "".join(line for line in f if not line.startswith("#"))
    assert "```text\n" + body + "```" in docs
    assert len(ubot.sweep.load(example("sweeps/lidar_noise.yaml")).runs) == 8


def unshare_prefix():
    """`unshare -n` with lo up when this user may make a network namespace, else nothing."""
    probe = subprocess.run(["unshare", "-n", "sh", "-c", "ip link set lo up"],
                           capture_output=True)
    return ["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$0" "$@"'] \
        if probe.returncode == 0 else []


# A user metric that makes every run last at least 0.3 s, whatever the machine's speed, so the
# moment "2 runs are in and worker 0 holds one" comes in every sweep (with runs of a few
# milliseconds a fast machine finished the sweep before it).
HOLD_METRIC = """
import time


def hold(sim, run):
    time.sleep(0.3)
    return 0
"""


def cluster_logs(work):
    logs = []
    for name in ("scheduler.log", "w0.log", "w1.log"):
        path = os.path.join(work, name)
        if os.path.exists(path):
            with open(path) as f:
                logs.append(f"--- {name} ---\n" + f.read()[-4000:])
    return "\n".join(logs)


def test_a_real_scheduler_and_two_workers_give_the_same_table_even_when_one_dies(work):
    write(work, "sweep_hold.py", HOLD_METRIC)
    sweep_file = write(work, "s.yaml", SWEEP.format(steps=300) + "metrics: [arrival_time, "
                       "collisions, min_clearance, path_length, sweep_hold:hold]\n")
    serial = csv_lines(serial_table(ubot.sweep.load(sweep_file)))
    cmd = unshare_prefix() + [sys.executable, os.path.join(HERE, "sweep_cluster.py"),
                              sweep_file, work]
    try:
        result = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    except subprocess.TimeoutExpired:
        pytest.fail("the cluster sweep did not end in 180 s\n" + cluster_logs(work))
    assert result.returncode == 0, result.stderr + cluster_logs(work)
    for name in ("full", "killed"):
        with open(os.path.join(work, name, "results.csv")) as f:
            assert f.read().splitlines() == serial, name
    with open(os.path.join(work, "killed_at")) as f:
        killed_at = f.read()
    assert killed_at != "none", "the sweep ended before worker 0 could be killed holding a run"
    done, held = map(int, killed_at.split())
    assert done < 8 and held >= 1  # the worker died mid-sweep holding runs, and none was lost


@pytest.mark.skipif(not UBOT_BIN, reason="needs the ubot binary (UBOT_BIN)")
def test_the_command_line(work):
    sweep_file = write(work, "s.yaml", SWEEP.format(steps=20))
    out = os.path.join(work, "out")
    done = subprocess.run([UBOT_BIN, "sweep", sweep_file, "--out", out, "--workers", "2"],
                          capture_output=True, text=True, timeout=120, cwd=SOURCE_DIR)
    assert done.returncode == 0, done.stderr
    assert "no dashboard" in done.stderr or "dashboard: http" in done.stderr
    expected = csv_lines(serial_table(ubot.sweep.load(sweep_file)))
    with open(os.path.join(out, "results.csv")) as f:
        assert f.read().splitlines() == expected
    only = subprocess.run([UBOT_BIN, "sweep", sweep_file, "--only", "6"], capture_output=True,
                          text=True, timeout=60)
    assert only.stdout.splitlines() == [expected[0], expected[7]]
    resumed = subprocess.run([UBOT_BIN, "sweep", sweep_file, "--out", out, "--serial"],
                             capture_output=True, text=True, timeout=60)
    assert resumed.returncode == 0 and "8 of 8 runs already done" in resumed.stderr
    bad = write(work, "bad.yaml", "worlds: [x.yaml]\n")
    refused = subprocess.run([UBOT_BIN, "sweep", bad], capture_output=True, text=True,
                             timeout=60)
    assert refused.returncode == 2
    assert f"{bad}:1:10: worlds: cannot read" in refused.stderr
    nobody = subprocess.run([UBOT_BIN, "sweep", sweep_file, "--scheduler", "tcp://127.0.0.1:1",
                             "--out", out], capture_output=True, text=True, timeout=60,
                            env=dict(os.environ, DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT="2s"))
    assert nobody.returncode == 1
    assert "cannot reach the Dask scheduler tcp://127.0.0.1:1" in nobody.stderr


def test_outputs_kept_per_run_are_simulation_records(work):
    sweep_file = write(work, "s.yaml", f"worlds: [{example('lidar_world.yaml')}]\nseeds: 2\n"
                       "steps: 7\noutputs: [frames, pictures, mcap]\n")
    out = os.path.join(work, "out")
    table = ubot.sweep.execute(ubot.sweep.load(sweep_file), None, out, progress=False)
    assert list(table["status"]) == ["ok", "ok"]
    for run in (0, 1):
        run_dir = os.path.join(out, "runs", f"{run:06d}")
        with open(os.path.join(run_dir, "frames.jsonl")) as f:
            assert len(f.read().splitlines()) == 1 + 7  # the header, then one line per step
        assert os.path.getsize(os.path.join(run_dir, "world.png")) > 0
        with open(os.path.join(run_dir, "run.mcap"), "rb") as f:
            assert f.read(8) == b"\x89MCAP0\r\n"
    with pytest.raises(ValueError, match="need an output folder"):
        ubot.sweep.execute(ubot.sweep.load(sweep_file), None, None)
