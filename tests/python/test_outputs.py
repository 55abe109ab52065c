"""Simulation.record writes `ubot run`'s files byte for byte; write_picture / picture; Python
medium providers (docs/python.md, "Outputs" and "Media")."""

import json
import os
import subprocess

import numpy as np
import pytest

import ubot
from conftest import WALL_WORLD, example

UBOT_BIN = os.environ.get("UBOT_BIN")
needs_cli = pytest.mark.skipif(not UBOT_BIN, reason="UBOT_BIN (the ubot CLI) not given")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def run_cli(world, steps, out, *extra):
    subprocess.run([UBOT_BIN, "run", world, "--steps", str(steps), "--out", str(out), "--quiet",
                    *extra], check=True)


@needs_cli
def test_record_writes_the_cli_files(tmp_path):
    world = example("imu_world.yaml")
    cli, py = tmp_path / f"cli_{os.getpid()}", tmp_path / f"py_{os.getpid()}"
    run_cli(world, 30, cli, "--mcap", str(cli / "run.mcap"))
    with ubot.Simulation(world) as sim:
        sim.record(py, mcap=str(py / "run.mcap"))
        for _ in range(30):
            sim.step()
    for name in ("frames.jsonl", "world.png", "run.mcap", "rover/imu_0.csv", "rover/imu_0.png"):
        assert read(py / name) == read(cli / name), name


@needs_cli
def test_record_map_and_thinned_frames(tmp_path):
    world = example("lidar_world.yaml")
    cli, py = tmp_path / f"cli_{os.getpid()}", tmp_path / f"py_{os.getpid()}"
    run_cli(world, 20, cli, "--frames", "5", "--map", str(cli / "map.ply"))
    sim = ubot.Simulation(world)
    sim.record(py, frames=5, map=str(py / "map.ply"), picture=False)
    for _ in range(20):
        sim.step()
    sim.close()
    assert read(py / "frames.jsonl") == read(cli / "frames.jsonl")
    assert read(py / "map.ply") == read(cli / "map.ply")
    assert not (py / "world.png").exists()


@needs_cli
def test_record_writes_the_cli_parquet_files(tmp_path):
    # frames_format is --frames-format: the same Parquet bytes as `ubot run`.
    world = example("imu_world.yaml")
    cli, py = tmp_path / f"cli_{os.getpid()}", tmp_path / f"py_{os.getpid()}"
    run_cli(world, 30, cli, "--frames-format", "jsonl,parquet")
    with ubot.Simulation(world) as sim:
        sim.record(py, frames_format="parquet,jsonl")
        for _ in range(30):
            sim.step()
    for name in ("frames.jsonl", "objects.parquet", "scans.parquet", "imu.parquet"):
        assert read(py / name) == read(cli / name), name
    only = tmp_path / f"only_{os.getpid()}"
    with ubot.Simulation(world) as sim:
        sim.record(only, frames_format="parquet", picture=False, sensor_files=False)
        sim.step()
    assert sorted(p.name for p in only.iterdir() if not p.name.startswith(".")) == [
        "imu.parquet", "objects.parquet", "scans.parquet"]
    with pytest.raises(ValueError, match="record: frames_format: expected 'jsonl', 'parquet'"):
        ubot.Simulation(world).record(tmp_path / "bad", frames_format="csv")


@needs_cli
def test_write_picture_is_world_png_at_step_0(tmp_path):
    world = example("lidar_world.yaml")
    cli = tmp_path / f"cli_{os.getpid()}"
    run_cli(world, 0, cli)
    sim = ubot.Simulation(world)
    path = tmp_path / f"picture_{os.getpid()}.png"
    sim.write_picture(path)
    assert read(path) == read(cli / "world.png")


def test_picture_array_has_the_png_size(tmp_path):
    sim = ubot.Simulation(example("lidar_world.yaml"))
    rgba = sim.picture()
    assert rgba.shape == (800, 800, 4) and rgba.dtype == np.uint8
    assert sim.picture(max_side=100).shape == (100, 100, 4)
    with pytest.raises(ValueError):
        sim.picture(max_side=0)
    # A side past 8K is refused before anything is drawn: fuzz_python's input asking for
    # 2**31 - 1 pixels took 3.4 GB before the fuzzer's limit stopped it.
    assert sim.picture(max_side=8192).shape == (8192, 8192, 4)
    for side in (8193, 2**31 - 1):
        with pytest.raises(ValueError, match=f"max_side must be from 1 to 8192 pixels, got {side}"):
            sim.picture(max_side=side)


def test_record_misuse_raises(tmp_path):
    sim = ubot.Simulation(example("lidar_world.yaml"))
    with pytest.raises(ValueError):
        sim.record(tmp_path, frames=0)
    # Found by fuzz_python: an int past int64 was pybind11's RuntimeError.
    with pytest.raises(ValueError, match="positive step count"):
        sim.record(tmp_path, frames=-2**70)
    with pytest.raises(TypeError, match="positive step count"):
        sim.record(tmp_path, frames=1.5)
    huge = ubot.Simulation(example("lidar_world.yaml"))
    huge.record(tmp_path / "huge", frames=2**70, picture=False, sensor_files=False)
    for _ in range(3):
        huge.step()
    huge.close()
    assert len((tmp_path / "huge" / "frames.jsonl").read_text().splitlines()) <= 1
    with pytest.raises(ubot.Error, match="compression"):
        sim.record(tmp_path, mcap=str(tmp_path / "x.mcap"), mcap_compression="gzip")
    sim.close()
    with pytest.raises(ubot.Error, match="closed"):
        sim.record(tmp_path)


class Puff:
    """One smoke cell in front of the robot's lidar while `on`."""

    def __init__(self):
        self.on = True
        self.calls = []

    def snapshot(self, time):
        self.calls.append(time)
        if not self.on:
            return None
        return {"cells": [[4.0, 5.0, 0.0, 0.5, 1.0]], "tint": (0.2, 0.2, 0.2), "name": "puff"}


def test_python_medium_provider_cuts_the_beam():
    sim = ubot.Simulation.from_yaml(WALL_WORLD)
    puff = Puff()
    sim.add_medium_provider(puff)
    sim.step({"robot_0": [0, 0]})
    # The forward beam enters the cell (centre x = 4, radius 0.5) at x = 3.5: 1.5 m from x = 2.
    assert sim.sensor(0, "lidar2d_0").ranges[1] == pytest.approx(1.5)
    assert puff.calls == [pytest.approx(0.1)]
    puff.on = False
    sim.step({"robot_0": [0, 0]})
    assert sim.sensor(0, "lidar2d_0").ranges[1] == pytest.approx(3.5)


def test_medium_provider_snapshots_copy_its_state():
    sim = ubot.Simulation.from_yaml(WALL_WORLD)
    sim.add_medium_provider(Puff())
    snap = sim.snapshot()
    sim.step({"robot_0": [0, 0]})
    first = sim.sensor(0, "lidar2d_0").ranges.copy()
    sim.restore(snap)
    sim.step({"robot_0": [0, 0]})
    np.testing.assert_array_equal(sim.sensor(0, "lidar2d_0").ranges, first)


class Raises:
    def snapshot(self, time):
        raise KeyError("no smoke today")


class BadCells:
    def snapshot(self, time):
        return np.zeros((2, 4))


def test_medium_provider_errors_raise():
    sim = ubot.Simulation.from_yaml(WALL_WORLD)
    sim.add_medium_provider(Raises())
    with pytest.raises(KeyError, match="no smoke today"):
        sim.step()
    other = ubot.Simulation.from_yaml(WALL_WORLD)
    other.add_medium_provider(BadCells())
    with pytest.raises(ubot.Error, match="shape \\(n, 5\\)"):
        other.step()
    with pytest.raises(TypeError):
        other.add_medium_provider(object())
    # Found by fuzz_python: a name of another type was pybind11's RuntimeError.
    named = ubot.Simulation.from_yaml(WALL_WORLD)
    named.add_medium_provider(NamedBy(7))
    with pytest.raises(TypeError, match="'name' must be a str"):
        named.step()


class NamedBy:
    def __init__(self, name):
        self.name = name

    def snapshot(self, time):
        return {"cells": [[4.0, 5.0, 0.0, 0.5, 1.0]], "name": self.name}


# --- frames as Parquet (docs/outputs.md, "frames as Parquet") ---------------------------------
# `ubot run --frames-format jsonl,parquet` writes the same steps twice; the Parquet files, read
# with pyarrow (and pandas once), must hold frames.jsonl's values exactly, row for row.

# What the examples leave out: acker (steer), omni_angular (v2), a lidar with has_velocity, an
# IMU faster than the world (several samples a step), disabled sensors (rows of nulls), a field
# of view on an object whose lidar is fmcw_lidar2d.
MIXED_WORLD = """
world: {width: 12, height: 12, step_time: 0.1, seed: 3}
robot:
  - kinematics: {name: acker}
    shape: {name: rectangle, length: 0.6, width: 0.3}
    state: [2, 2, 0, 0]
    goal: [10, 8, 0]
    behavior: {name: dash}
    sensors:
      - {type: lidar2d, range_max: 5, number: 30, has_velocity: true, noise: true}
      - {type: imu, update_rate_hz: 25, noise: true}
  - kinematics: {name: omni_angular}
    shape: {name: circle, radius: 0.2}
    state: [8, 2, 0]
    goal: [2, 9, 0]
    behavior: {name: dash}
    fov: 1.57
    fov_radius: 6
    sensors:
      - {type: fmcw_lidar2d, range_max: 6, number: 20, angle_range: 2}
      - {type: lidar2d, number: 10, enabled: false}
      - {type: imu, enabled: false}
obstacle:
  - shape: {name: circle, radius: 0.5}
    state: [6, 6, 0]
    kinematics: {name: omni}
    goal: [3, 3, 0]
    behavior: {name: dash}
"""
SCAN_TYPES = ("lidar2d", "fmcw_lidar2d")
IMU_VECTORS = ("angular_velocity", "linear_acceleration", "angular_velocity_variance",
               "linear_acceleration_variance")


def read_frames(path):
    import json

    with open(path) as f:
        lines = [json.loads(line) for line in f]
    return lines[0], lines[1:]


def expected_objects(steps):
    rows = []
    for line in steps:
        for o in line["objects"]:
            state, velocity = o["state"], o["velocity"]
            rows.append({
                "step": line["step"], "time": line["time"], "id": o["id"],
                "x": state[0], "y": state[1], "yaw": state[2],
                "steer": state[3] if len(state) > 3 else None,
                "v0": velocity[0], "v1": velocity[1],
                "v2": velocity[2] if len(velocity) > 2 else None,
                "collision": o["collision"], "arrive": o["arrive"], "stop": o["stop"],
                "fov_detected": o.get("fov_detected")})
    return rows


def expected_scans(steps):
    rows = []
    for line in steps:
        for s in line["sensors"]:
            if s["type"] not in SCAN_TYPES:
                continue
            data = s["status"] != "Disabled"
            origin = s["origin"] if data else [None] * 3
            velocity = s.get("velocity")
            rows.append({
                "step": line["step"], "object_id": s["object_id"], "index": s["index"],
                "type": s["type"], "sequence": s["sequence"], "stamp": s["stamp"],
                "status": s["status"], "origin_x": origin[0], "origin_y": origin[1],
                "origin_yaw": origin[2], "ranges": s.get("ranges"), "valid": s.get("valid"),
                # float32 in both: frames.jsonl writes a float's shortest form
                "intensities": (None if not data else
                                [float(np.float32(v)) for v in s["intensities"]]),
                "radial_velocity": s.get("radial_velocity"),
                "velocity_x": None if velocity is None else [v[0] for v in velocity],
                "velocity_y": None if velocity is None else [v[1] for v in velocity]})
    return rows


def imu_values(sample):
    values = {}
    for axis, v in zip("xyzw", sample["orientation"] if sample else [None] * 4):
        values[f"orientation_{axis}"] = v
    for name in IMU_VECTORS:
        for axis, v in zip("xyz", sample[name] if sample else [None] * 3):
            values[f"{name}_{axis}"] = v
    return values


def expected_imu(steps):
    rows = []
    for line in steps:
        for s in line["sensors"]:
            if s["type"] != "imu":
                continue
            key = {"step": line["step"], "object_id": s["object_id"], "index": s["index"]}
            if s["status"] == "Disabled":  # no samples: one row with the entry's header
                rows.append({**key, "sequence": s["sequence"], "stamp": s["stamp"],
                             "valid": s["valid"], "status": s["status"], **imu_values(None)})
                continue
            for sample in s["samples"]:
                rows.append({**key, "sequence": sample["sequence"], "stamp": sample["stamp"],
                             "valid": sample["valid"], "status": sample["status"],
                             **imu_values(sample)})
    return rows


def assert_same_rows(got, expected, name):
    assert len(got) == len(expected), name
    for i, (g, e) in enumerate(zip(got, expected)):
        assert g == e, f"{name} row {i}"


def check_parquet_against_jsonl(out):
    """Compares every Parquet file in `out` with frames.jsonl; returns the row counts."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    header, steps = read_frames(out / "frames.jsonl")
    types = {s["type"] for s in header["sensors"]}
    counts = {}
    for name, expected in (("objects", expected_objects(steps)), ("scans", expected_scans(steps)),
                           ("imu", expected_imu(steps))):
        path = out / f"{name}.parquet"
        wanted = name == "objects" or (name == "scans" and types & set(SCAN_TYPES)) or (
            name == "imu" and "imu" in types)
        assert path.exists() == bool(wanted), path
        if not wanted:
            continue
        f = pq.ParquetFile(path)
        assert f.metadata.created_by == f"ubot {header['ubot']}"
        import json

        assert json.loads(f.schema_arrow.metadata[b"ubot.header"]) == header
        table = f.read()
        assert_same_rows(table.to_pylist(), expected, name)
        counts[name] = table.num_rows
        if name == "scans":
            for column, value_type in (("ranges", pa.float64()), ("valid", pa.bool_()),
                                       ("intensities", pa.float32())):
                field = table.schema.field(column)
                assert pa.types.is_list(field.type) and field.type.value_type == value_type
                assert field.nullable  # a Disabled sample's lists are null
    return counts


@needs_cli
@pytest.mark.parametrize("world", ["imu_world.yaml", "fov_world.yaml", "fmcw_lidar_world.yaml",
                                   "mixed"])
def test_parquet_frames_hold_the_jsonl_values(tmp_path, world):
    if world == "mixed":
        world = tmp_path / "mixed.yaml"
        world.write_text(MIXED_WORLD)
    else:
        world = example(world)
    out = tmp_path / "out"
    run_cli(str(world), 40, out, "--frames-format", "jsonl,parquet")
    counts = check_parquet_against_jsonl(out)
    assert counts["objects"] > 0
    if "imu" in counts:
        assert counts["imu"] > 0


@needs_cli
def test_parquet_frames_thinning_determinism_and_pandas(tmp_path):
    import pandas as pd
    import pyarrow.parquet as pq

    world = tmp_path / "mixed.yaml"
    world.write_text(MIXED_WORLD)
    a, b = tmp_path / "a", tmp_path / "b"
    run_cli(str(world), 23, a, "--frames", "5", "--frames-format", "parquet,jsonl")
    check_parquet_against_jsonl(a)
    steps = sorted(set(pq.read_table(a / "objects.parquet").column("step").to_pylist()))
    assert steps == [5, 10, 15, 20, 23]  # every 5th step and the last
    run_cli(str(world), 23, b, "--frames", "5", "--frames-format", "parquet")
    assert not (b / "frames.jsonl").exists()
    for name in ("objects", "scans", "imu"):  # same world and seed: the same bytes
        assert read(a / f"{name}.parquet") == read(b / f"{name}.parquet"), name
    frame = pd.read_parquet(a / "scans.parquet")
    assert list(frame["step"]) == pq.read_table(a / "scans.parquet").column("step").to_pylist()
    assert list(frame.loc[0, "ranges"]) == pq.read_table(a / "scans.parquet")["ranges"][0].as_py()
    run_cli(str(world), 3, b, "--frames", "none", "--frames-format", "parquet")
    assert not (b / "objects.parquet").exists()


@needs_cli
def test_parquet_frames_split_into_row_groups(tmp_path):
    # 700 robots x 100 steps = 70 000 object rows: a row group closes after the step that
    # reaches 65 536 rows (94 steps), the rest go into a second one at close.
    import pyarrow.parquet as pq

    world = tmp_path / "many.yaml"
    world.write_text("""
world: {width: 100, height: 100, step_time: 0.1, collision_mode: unobstructed}
robot:
  - number: 700
    distribution: {name: random, range_low: [0, 0, -3], range_high: [100, 100, 3]}
    kinematics: {name: diff}
    shape: {name: circle, radius: 0.2}
    behavior: {name: dash, wander: true, range_low: [0, 0, -3], range_high: [100, 100, 3]}
""")
    out = tmp_path / "out"
    run_cli(str(world), 100, out, "--frames-format", "jsonl,parquet")
    f = pq.ParquetFile(out / "objects.parquet")
    assert [f.metadata.row_group(i).num_rows for i in range(f.num_row_groups)] == [65800, 4200]
    step = f.metadata.row_group(1).column(0).statistics
    assert (step.min, step.max) == (95, 100)
    assert check_parquet_against_jsonl(out)["objects"] == 70000


@needs_cli
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_parquet_frames_are_whole_after_a_signal(tmp_path, sig):
    import signal
    import time

    out = tmp_path / "out"
    p = subprocess.Popen([UBOT_BIN, "run", os.path.join(os.path.dirname(__file__), "..", "data",
                                                        "mcap_world.yaml"),
                          "--steps", "100000000", "--realtime", "5", "--out", str(out), "--quiet",
                          "--frames-format", "jsonl,parquet"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    part = out / "frames.jsonl.part"
    deadline = time.monotonic() + 60
    while not (part.exists() and part.read_bytes().count(b"\n") >= 30):
        assert time.monotonic() < deadline and p.poll() is None, "the run did not get going"
        time.sleep(0.05)
    p.send_signal(getattr(signal, sig))
    _, stderr = p.communicate(timeout=60)
    assert p.returncode == 128 + getattr(signal, sig), stderr
    counts = check_parquet_against_jsonl(out)
    assert counts["objects"] >= 30 * 6 and counts["scans"] > 0 and counts["imu"] > 0
    assert not list(out.glob("*.part"))


def test_a_simulation_records_one_recording_at_a_time(tmp_path):
    sim = ubot.Simulation(example("lidar_world.yaml"))
    sim.record(tmp_path / "first", picture=False)
    with pytest.raises(ValueError, match="record: the simulation is already recording into "
                                         "'.*; one recording at a time"):
        sim.record(tmp_path / "second", picture=False)
    for _ in range(3):
        sim.step()
    sim.close()
    assert len(read(tmp_path / "first" / "frames.jsonl").splitlines()) == 4  # header + 3 steps
    assert not (tmp_path / "second").exists()  # refused before anything was made
    with pytest.raises(ubot.Error, match="closed"):
        sim.record(tmp_path / "third")


def frame_steps(path):
    lines = read(path).splitlines()[1:]
    return [(json.loads(l)["step"], json.loads(l)["time"]) for l in lines]


@pytest.mark.parametrize("jump", ["reset", "restore", "load_state"])
def test_a_jump_back_finishes_the_recording_and_record_starts_another(tmp_path, jump):
    """Issue 51: reset() / restore() while recording restarted the step count inside one
    frames.jsonl. A recording covers one continuous run: the jump finishes it (every file whole),
    and record() may start the next one."""
    sim = ubot.Simulation(example("lidar_world.yaml"))
    snap = sim.snapshot()
    state = tmp_path / "start.bin"
    sim.save_state(state)
    sim.record(tmp_path / "first", picture=True, gif=True)
    for _ in range(3):
        sim.step()
    if jump == "reset":
        sim.reset()
    elif jump == "restore":
        sim.restore(snap)
    else:
        sim.load_state(state)
    # The first recording is complete: its frames and its pictures, drawn before the jump.
    assert frame_steps(tmp_path / "first" / "frames.jsonl") == [(1, 0.1), (2, 0.2), (3, 0.3)]
    assert (tmp_path / "first" / "world.png").stat().st_size > 0
    assert (tmp_path / "first" / "run.gif").stat().st_size > 0
    sim.step()  # not recorded anywhere
    sim.record(tmp_path / "second", picture=False)
    sim.step()
    sim.close()
    assert frame_steps(tmp_path / "first" / "frames.jsonl") == [(1, 0.1), (2, 0.2), (3, 0.3)]
    assert frame_steps(tmp_path / "second" / "frames.jsonl") == [(2, 0.2)]


def test_a_refused_restore_keeps_the_recording(tmp_path):
    sim = ubot.Simulation(example("lidar_world.yaml"))
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"UBOTSTAT but not really")
    sim.record(tmp_path / "out", picture=False)
    sim.step()
    with pytest.raises(ubot.Error):
        sim.load_state(bad)
    sim.step()
    sim.close()
    assert frame_steps(tmp_path / "out" / "frames.jsonl") == [(1, 0.1), (2, 0.2)]


def test_a_provider_past_the_memory_limit_is_refused_before_its_cells_are_read(monkeypatch):
    """Issue 51: 10^7 cells took 1.8 GB a step, and a provider may return any count; the count is
    checked against the memory limit (200 B a cell) before anything is copied."""
    class Many:
        def snapshot(self, time):
            return np.zeros((1_000_000, 5), np.float32)  # 200 MB to read, converted to float64

    monkeypatch.setenv("UBOT_MEMORY_LIMIT", "100M")
    with ubot.Simulation.from_yaml(WALL_WORLD, seed=0, threads=1) as sim:
        sim.add_medium_provider(Many())
        with pytest.raises(ubot.Error, match=r"medium provider: 1000000 cells would need about "
                                             r"190\.7 MiB of memory \(200 B each\), more than "
                                             r"the limit of 100\.0 MiB \(UBOT_MEMORY_LIMIT\)"):
            sim.step()
    monkeypatch.setenv("UBOT_MEMORY_LIMIT", "1G")
    with ubot.Simulation.from_yaml(WALL_WORLD, seed=0, threads=1) as sim:
        sim.add_medium_provider(Many())
        sim.step()  # under the limit: read as before
