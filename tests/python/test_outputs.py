"""Simulation.record writes `ubot run`'s files byte for byte; write_picture / picture; Python
medium providers (docs/python.md, "Outputs" and "Media")."""

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
