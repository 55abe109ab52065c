#!/usr/bin/env python3
"""End-to-end tests of the `ubot` command line: examples, outputs, errors, determinism.

usage: test_cli.py --ubot PATH/TO/ubot [unittest args]   (Python standard library only)
"""
import argparse
import json
import math
import os
import re
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import time
import unittest
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")
UBOT = None


def run(*args, check=True):
    result = subprocess.run([UBOT, *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"ubot {' '.join(args)} exited {result.returncode}: {result.stderr}")
    return result


def read_frames(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


class Examples(unittest.TestCase):
    def test_every_example_runs_and_writes_its_outputs(self):
        names = sorted(n for n in os.listdir(EXAMPLES) if n.endswith(".yaml"))
        self.assertIn("warehouse.yaml", names)
        self.assertGreaterEqual(len(names), 6)
        for name in names:
            with self.subTest(world=name), tempfile.TemporaryDirectory() as out:
                run("run", os.path.join(EXAMPLES, name), "--steps", "60", "--out", out, "--quiet")
                frames = read_frames(os.path.join(out, "frames.jsonl"))
                header, steps = frames[0], frames[1:]
                self.assertEqual(header["world"], os.path.join(EXAMPLES, name))
                self.assertTrue(1 <= len(steps) <= 60)
                self.assertEqual([s["step"] for s in steps], list(range(1, len(steps) + 1)))
                self.assertEqual(len(steps[-1]["objects"]), len(header["objects"]))
                with open(os.path.join(out, "world.png"), "rb") as f:
                    self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


class FramesFormat(unittest.TestCase):
    def test_timings_line_breaks_the_steps_down_by_phase(self):
        with tempfile.TemporaryDirectory() as out:
            r = run("run", os.path.join(EXAMPLES, "lidar_world.yaml"), "--out", out, "--quiet",
                    "--steps", "20", "--timings")
        self.assertEqual(len(r.stdout.splitlines()), 1, r.stdout)  # --quiet: only the timings
        m = re.fullmatch(
            r"timings over (\d+) steps \(wall, ms per step\): world ([0-9.]+) \(behaviours "
            r"([0-9.]+)\), scene ([0-9.]+), sensors ([0-9.]+), fog ([0-9.]+), outputs ([0-9.]+); "
            r"finishing the outputs ([0-9.]+) s\n", r.stdout)
        self.assertIsNotNone(m, r.stdout)
        steps, world, behaviours, scene, sensors, fog, outputs, _ = m.groups()
        self.assertEqual(int(steps), 20)
        self.assertLessEqual(float(behaviours), float(world))
        self.assertGreater(float(sensors), 0.0)
        self.assertGreater(float(outputs), 0.0)  # frames.jsonl every step
        self.assertEqual(float(fog), 0.0)

    def test_header_and_step_lines(self):
        with tempfile.TemporaryDirectory() as out:
            run("run", os.path.join(EXAMPLES, "lidar_world.yaml"), "--out", out, "--quiet",
                "--seed", "3")
            frames = read_frames(os.path.join(out, "frames.jsonl"))
        h = frames[0]
        for key in ("ubot", "world", "seed", "step_time", "objects", "sensors"):
            self.assertIn(key, h)
        self.assertEqual(h["seed"], 3)
        self.assertEqual(h["step_time"], 0.1)
        self.assertEqual([o["name"] for o in h["objects"]],
                         ["robot_0", "obstacle_1", "obstacle_2", "obstacle_3", "obstacle_4"])
        robot = h["objects"][0]
        self.assertEqual(robot["role"], "robot")
        self.assertEqual(robot["kinematics"], "diff")
        self.assertEqual(robot["shape"], {"name": "circle", "radius": 0.2, "center": [0, 0]})
        self.assertEqual(robot["state"], [1, 1, 0])
        self.assertTrue(h["objects"][1]["unobstructed"])
        self.assertTrue(h["objects"][2]["static"])
        sensor = h["sensors"][0]
        self.assertEqual((sensor["object_id"], sensor["index"], sensor["type"]), (0, 0, "lidar2d"))
        self.assertEqual(sensor["number"], 200)
        self.assertEqual(len(sensor["angles"]), 200)
        self.assertEqual(sensor["offset"], [0.1, 0.1, 0.5])
        first = frames[1]
        self.assertEqual(first["step"], 1)
        self.assertEqual(first["time"], 0.1)
        o = first["objects"][0]
        # The robot borrows its lidar's field of view (3.14 rad, 5 m), as in IR-SIM: it sees
        # the two linestrings' shared end (4, 0), 3.2 m away at bearing -18°, not the others.
        self.assertEqual(set(o), {"id", "state", "velocity", "collision", "arrive", "stop",
                                  "fov_detected"})
        self.assertEqual(o["fov_detected"], [3, 4])
        self.assertNotIn("fov_detected", first["objects"][1])  # obstacles have no fov here
        s = first["sensors"][0]
        self.assertEqual(len(s["origin"]), 3)
        self.assertEqual(len(s["ranges"]), 200)
        self.assertEqual(len(s["valid"]), 200)
        self.assertTrue(all(isinstance(v, bool) for v in s["valid"]))
        # The run stops when the robot is done (it collides with obstacle_2 at step 55).
        self.assertTrue(frames[-1]["objects"][0]["stop"])

    def test_fov_detected_ids_each_step(self):
        # tests/data/fov_known_world.yaml, worked out in tests/world/fov_test.cpp: the watcher
        # turns 11.25° a step; east (1) leaves its sector after step 4, north (2) enters at
        # step 4, the wall (3) leaves after step 5; north's own sector always holds the watcher.
        with tempfile.TemporaryDirectory() as out:
            run("run", os.path.join(ROOT, "tests", "data", "fov_known_world.yaml"), "--out", out,
                "--quiet")
            frames = read_frames(os.path.join(out, "frames.jsonl"))
        watcher = [[1, 3], [1, 3], [1, 3], [1, 2, 3], [2, 3], [2], [2], [2]]
        self.assertEqual([s["step"] for s in frames[1:]], list(range(1, 9)))
        for step, expected in zip(frames[1:], watcher):
            objects = step["objects"]
            self.assertEqual(objects[0]["fov_detected"], expected, step["step"])
            self.assertEqual(objects[2]["fov_detected"], [0])
            self.assertNotIn("fov_detected", objects[1])
            self.assertNotIn("fov_detected", objects[3])

    def test_fmcw_frames_carry_radial_velocity(self):
        with tempfile.TemporaryDirectory() as out:
            run("run", os.path.join(EXAMPLES, "fmcw_lidar_world.yaml"), "--steps", "5", "--out",
                out, "--quiet")
            frames = read_frames(os.path.join(out, "frames.jsonl"))
        s = frames[1]["sensors"][0]
        self.assertEqual(s["type"], "fmcw_lidar2d")
        self.assertEqual(len(s["radial_velocity"]), 121)
        # The centre beam hits obstacle_1, which drives at 0.8 m/s straight at the static sensor.
        self.assertAlmostEqual(s["radial_velocity"][60], -0.8, places=12)
        self.assertTrue(s["valid"][60])
        # Beams without a return report 0.
        self.assertTrue(all(v == 0 for v, ok in zip(s["radial_velocity"], s["valid"]) if not ok))

    def test_lidar_intensities_mark_surface_returns(self):
        with tempfile.TemporaryDirectory() as out:
            run("run", os.path.join(EXAMPLES, "lidar_world.yaml"), "--steps", "3", "--out", out,
                "--quiet")
            frames = read_frames(os.path.join(out, "frames.jsonl"))
        self.assertEqual(frames[0]["media"], [])
        self.assertEqual(frames[0]["sensors"][0]["smoke"]["smoke_volume_tag"],
                         "AgentSensor.SmokeVolume")
        s = frames[1]["sensors"][0]
        self.assertNotIn("media", frames[1])  # no media in this world
        self.assertEqual(s["intensities"], [1 if v else 0 for v in s["valid"]])

    def test_warehouse_smoke_cuts_beams_at_the_entry_point(self):
        # The demo's cloud drifts 18 m east in 30 s (keyframes); beams that return with
        # intensity 0 were cut by it, at the analytic entry distance into its cells.
        with tempfile.TemporaryDirectory() as out:
            run("run", os.path.join(EXAMPLES, "warehouse.yaml"), "--out", out, "--quiet")
            frames = read_frames(os.path.join(out, "frames.jsonl"))
        header, steps = frames[0], frames[1:]
        self.assertEqual(header["media"], [{"name": "smoke_cloud", "medium_type": "smoke",
                                            "attach": None, "cells": 5, "keyframes": 2}])
        self.assertTrue(all(o["arrive"] for o in steps[-1]["objects"][:3]))  # robots done
        cut = 0
        for step in steps:
            media = step["media"]
            self.assertEqual(len(media), 1)
            cells = media[0]["cells"]
            self.assertAlmostEqual(cells[0][0], 3.0 + 18.0 * min(step["time"], 30.0) / 30.0,
                                   places=9)
            for s in step["sensors"]:
                sensor = header["sensors"][[(h["object_id"], h["index"]) for h in
                                            header["sensors"]].index((s["object_id"], s["index"]))]
                # robot_0's lidar is noisy (std 0.01); the others are exact.
                tol = 0.08 if s["object_id"] == 0 else 1e-9
                if "ranges" not in s:
                    continue  # robot_1's cameras
                ox, oy, oyaw = s["origin"]
                for i, (r, ok, inten) in enumerate(zip(s["ranges"], s["valid"], s["intensities"])):
                    if not ok or inten != 0:
                        continue
                    cut += 1
                    a = oyaw + sensor["angles"][i]
                    dx, dy = math.cos(a), math.sin(a)
                    best = math.inf
                    for x, y, z, radius, density, edge in cells:
                        if density * edge < 0.05:
                            continue
                        mx, my = ox - x, oy - y
                        c = mx * mx + my * my - radius * radius
                        b = mx * dx + my * dy
                        if c <= 0:
                            best = 0.0
                        elif b < 0 and b * b - c >= 0:
                            best = min(best, -b - math.sqrt(b * b - c))
                    self.assertLess(abs(r - best), tol, (step["step"], s["object_id"], i))
        self.assertGreater(cut, 500)

    def test_frames_every_n_and_none(self):
        world = os.path.join(EXAMPLES, "collision_avoidance.yaml")
        with tempfile.TemporaryDirectory() as out:
            run("run", world, "--steps", "25", "--frames", "10", "--out", out, "--quiet")
            steps = [f["step"] for f in read_frames(os.path.join(out, "frames.jsonl"))[1:]]
            self.assertEqual(steps, [10, 20, 25])  # every 10th, and the last one
        with tempfile.TemporaryDirectory() as out:
            run("run", world, "--steps", "5", "--frames", "none", "--out", out, "--quiet")
            self.assertFalse(os.path.exists(os.path.join(out, "frames.jsonl")))
            self.assertTrue(os.path.exists(os.path.join(out, "world.png")))

    def test_render_writes_an_animation_and_a_summary(self):
        with tempfile.TemporaryDirectory() as out:
            result = run("run", os.path.join(EXAMPLES, "collision_world.yaml"), "--steps", "10",
                         "--out", out, "--render")
            with open(os.path.join(out, "run.gif"), "rb") as f:
                self.assertEqual(f.read(6), b"GIF89a")
        self.assertIn("10 steps", result.stdout)
        self.assertIn("steps/s", result.stdout)

    def test_every_output_gets_the_permissions_the_umask_gives(self):
        # giflib's own open creates its file 0600 whatever the umask; the animation must be owned
        # like every other output.
        with tempfile.TemporaryDirectory() as out:
            subprocess.run([UBOT, "run", os.path.join(EXAMPLES, "collision_world.yaml"), "--steps",
                            "5", "--out", out, "--render", "--quiet"], check=True,
                           preexec_fn=lambda: os.umask(0o027))
            modes = {name: stat.S_IMODE(os.stat(os.path.join(out, name)).st_mode)
                     for name in ("run.gif", "world.png", "frames.jsonl")}
        self.assertEqual(modes, {"run.gif": 0o640, "world.png": 0o640, "frames.jsonl": 0o640})


class ImuOutputs(unittest.TestCase):
    SAMPLE_KEYS = {"sequence", "stamp", "valid", "status", "orientation", "angular_velocity",
                   "linear_acceleration", "angular_velocity_variance",
                   "linear_acceleration_variance"}
    STEP_KEYS = SAMPLE_KEYS | {"object_id", "index", "type", "samples"}

    def test_frames_csv_and_plot(self):
        with tempfile.TemporaryDirectory() as out:
            run("run", os.path.join(EXAMPLES, "imu_world.yaml"), "--steps", "50", "--out", out,
                "--quiet")
            frames = read_frames(os.path.join(out, "frames.jsonl"))
            with open(os.path.join(out, "ball", "imu_0.csv")) as f:
                rows = [line.rstrip("\n").split(",") for line in f]
            with open(os.path.join(out, "drone", "imu_0.png"), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            for obj in ("rover", "drone", "ball"):
                self.assertTrue(os.path.exists(os.path.join(out, obj, "imu_0.csv")))
        header = frames[0]
        imus = [s for s in header["sensors"] if s["type"] == "imu"]
        self.assertEqual([(s["object_id"], s["name"]) for s in imus],
                         [(0, "imu_0"), (1, "imu_0"), (2, "imu_0")])
        rover = imus[0]
        self.assertEqual(rover["update_rate_hz"], 100)
        self.assertEqual(rover["seed"], 1337)
        self.assertEqual(rover["offset"], [0.1, 0, 0.15])
        # Kalibr density -> per-sample sigma at 100 Hz: 0.0028 * sqrt(100).
        self.assertAlmostEqual(rover["accelerometer_noise_std"], 0.028, places=15)
        self.assertEqual(rover["accelerometer_noise_density"], 0.0028)
        self.assertEqual(rover["accelerometer_bias_random_walk_std"], 0.00086)
        self.assertEqual(imus[1]["low_pass_cutoff_hz"], 15)
        for key in ("low_pass", "clamp", "max_linear_acceleration", "max_angular_velocity",
                    "teleport_distance", "teleport_angle_deg", "max_sample_dt", "rpy"):
            self.assertIn(key, rover)

        entries = [[s for s in f["sensors"] if s["type"] == "imu" and s["object_id"] == 2][0]
                   for f in frames[1:]]
        self.assertEqual(len(entries), 50)  # an entry per 10 ms step
        ball = []
        for entry in entries:
            self.assertEqual(set(entry), self.STEP_KEYS)
            # The entry's own fields are its last sample's.
            self.assertEqual({k: v for k, v in entry.items() if k in self.SAMPLE_KEYS},
                             entry["samples"][-1])
            ball += entry["samples"]
        # 100 Hz from t = 0: two samples in the first step (0 and 10 ms), then one per step.
        self.assertEqual([len(e["samples"]) for e in entries], [2] + [1] * 49)
        self.assertEqual(len(ball), 51)
        for k, s in enumerate(ball):
            self.assertEqual(set(s), self.SAMPLE_KEYS)
            self.assertEqual(s["sequence"], k)
            self.assertAlmostEqual(s["stamp"], 0.01 * k, places=12)
            self.assertEqual(s["status"], "WarmingUp" if k < 2 else "Valid")
            self.assertEqual(s["valid"], k >= 2)
            self.assertAlmostEqual(sum(q * q for q in s["orientation"]), 1.0, places=12)
        # Free fall: only the lever arm of the spinning ball (offset 0.1 m on x, spin (3, 0, 1)
        # rad/s): omega x (omega x r) = (-0.1, 0, 0.3) m/s^2 in the limit.
        f = ball[10]["linear_acceleration"]
        self.assertAlmostEqual(f[0], -0.1, places=3)
        self.assertAlmostEqual(f[1], 0.0, places=6)
        self.assertAlmostEqual(f[2], 0.3, places=3)
        for a, b in zip(ball[10]["angular_velocity"], [3, 0, 1]):
            self.assertAlmostEqual(a, b, places=9)

        # The CSV has the same samples, plot-ready.
        self.assertEqual(rows[0], ["stamp", "sequence", "status", "valid", "qx", "qy", "qz", "qw",
                                   "wx", "wy", "wz", "ax", "ay", "az"])
        self.assertEqual(len(rows), 52)
        for row, s in zip(rows[1:], ball):
            self.assertEqual(float(row[0]), s["stamp"])
            self.assertEqual(int(row[1]), s["sequence"])
            self.assertEqual(row[2], s["status"])
            self.assertEqual(row[3], "1" if s["valid"] else "0")
            self.assertEqual([float(v) for v in row[4:8]], s["orientation"])
            self.assertEqual([float(v) for v in row[8:11]], s["angular_velocity"])
            self.assertEqual([float(v) for v in row[11:14]], s["linear_acceleration"])

    def test_imu_faster_than_the_world(self):
        # 200 Hz in a 10 Hz world: every sample in frames.jsonl's `samples` and in the CSV.
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
            f.write("world: {step_time: 0.1}\nrobot:\n  - kinematics: {name: diff}\n"
                    "    sensors: [{name: imu, update_rate_hz: 200}]\n")
        try:
            with tempfile.TemporaryDirectory() as out:
                run("run", f.name, "--steps", "5", "--out", out, "--quiet")
                frames = read_frames(os.path.join(out, "frames.jsonl"))
                with open(os.path.join(out, "robot_0", "imu_0.csv")) as csv:
                    rows = [line.rstrip("\n").split(",") for line in csv][1:]
        finally:
            os.unlink(f.name)
        entries = [f["sensors"][0] for f in frames[1:]]
        self.assertEqual([len(e["samples"]) for e in entries], [21, 20, 20, 20, 20])
        samples = [s for e in entries for s in e["samples"]]
        self.assertEqual([s["stamp"] for s in samples], [k * 5_000_000 / 1e9 for k in range(101)])
        self.assertEqual([s["sequence"] for s in samples], list(range(101)))
        self.assertEqual(samples[2]["stamp"], 0.01)  # the first Valid: 2 / rate
        self.assertEqual([s["status"] for s in samples[:3]], ["WarmingUp", "WarmingUp", "Valid"])
        for e in entries:
            self.assertEqual(e["stamp"], e["samples"][-1]["stamp"])
        self.assertEqual([float(r[0]) for r in rows], [s["stamp"] for s in samples])
        self.assertEqual([[float(v) for v in r[11:14]] for r in rows],
                         [s["linear_acceleration"] for s in samples])

    def test_disabled_imu_entry(self):
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
            f.write("world: {step_time: 0.01}\nrobot:\n  - sensors: [{name: imu, enabled: false}]\n")
        try:
            with tempfile.TemporaryDirectory() as out:
                run("run", f.name, "--steps", "3", "--out", out, "--quiet")
                frames = read_frames(os.path.join(out, "frames.jsonl"))
        finally:
            os.unlink(f.name)
        s = frames[1]["sensors"][0]
        self.assertEqual(s["status"], "Disabled")
        self.assertFalse(s["valid"])
        self.assertNotIn("linear_acceleration", s)


LIDAR3D_WORLD = """
world: {width: 30, height: 30, offset: [-15, -15]}
ground: {z: 0}
robot:
  - name: rover
    kinematics: {name: diff}
    state: [0, 0, 0.4]
    static: true
    height: 0.3
    sensors:
      - {name: lidar3d, preset: VLP-16, number: 900, offset: [0.2, 0, 0.7], range_max: 40}
obstacle:
  - {shape: {name: box, size: [1, 8, 3]}, state: [6, 0, 0]}
  - {shape: {name: sphere, radius: 1}, state: [0, 6, 0]}
media:
  - cells: [{position: [-5, 0, 0.7], radius: 1, density: 1}]
"""


def read_points(out, entry):
    """The records of one lidar3d step entry, unpacked from points.bin (XYZIRT, 24 bytes)."""
    with open(os.path.join(out, "points.bin"), "rb") as f:
        f.seek(entry["points_offset"])
        data = f.read(24 * entry["point_count"])
    return [struct.unpack_from("<ffffHHf", data, 24 * i) for i in range(entry["point_count"])]


class Lidar3dPoints(unittest.TestCase):
    def run_world(self, out, yaml, *args):
        path = os.path.join(out, "w.yaml")
        with open(path, "w") as f:
            f.write(yaml)
        run("run", path, "--out", out, "--quiet", *args)
        frames = os.path.join(out, "frames.jsonl")
        return read_frames(frames) if os.path.exists(frames) else None

    def test_points_bin_layout_read_back_independently(self):
        with tempfile.TemporaryDirectory() as out:
            frames = self.run_world(out, LIDAR3D_WORLD, "--steps", "3")
            self.assertEqual(frames[0]["ground"], 0)
            objects = frames[0]["objects"]
            self.assertEqual((objects[0]["z"], objects[0]["height"]), (0, 0.3))
            self.assertEqual(objects[1]["shape"]["name"], "rectangle")  # the box's footprint
            self.assertEqual(objects[1]["shape"]["solid"], {"name": "box", "size": [1, 8, 3]})
            self.assertEqual(objects[1]["height"], 3)
            self.assertEqual(objects[2]["shape"]["solid"], {"name": "sphere", "radius": 1})
            header = frames[0]["sensors"][0]
            self.assertEqual(header["type"], "lidar3d")
            self.assertEqual(header["points_file"], "points.bin")
            self.assertEqual(header["preset"], "VLP-16")
            self.assertEqual(header["channels"], 16)
            self.assertEqual(header["columns"], 900)
            self.assertEqual(header["offset"], [0.2, 0, 0.7])
            angles = header["vertical_angles"]
            self.assertEqual(len(angles), 16)
            for k, a in enumerate(angles):
                self.assertAlmostEqual(a, math.radians(-15 + 2 * k), places=14)
            az0, inc = header["azimuth_min"], header["azimuth_increment"]
            self.assertAlmostEqual(inc, 2 * math.pi / 900, places=15)
            period = 1 / header["rotation_rate_hz"]
            with open(os.path.join(out, "points.bin"), "rb") as f:
                blob = f.read()
            self.assertEqual(blob[:8], b"UBOTPTS1")
            self.assertEqual(struct.unpack_from("<II", blob, 8), (1, 24))
            entries = [s for step in frames[1:] for s in step["sensors"]]
            self.assertEqual(len(entries), 3)
            offset = 16
            for e in entries:
                # Samples follow each other; the file holds exactly the listed records.
                self.assertEqual(e["points_offset"], offset)
                offset += 24 * e["point_count"]
                expected = [0.2 * math.cos(0.4), 0.2 * math.sin(0.4), 0.7]
                for got, want in zip(e["origin"][:3], expected):
                    self.assertAlmostEqual(got, want, places=15)
                # Whole nanoseconds: the sweep ends at the stamp.
                self.assertAlmostEqual(e["sweep_start"], e["stamp"] - period * 899 / 900, delta=1e-9)
            self.assertEqual(offset, len(blob))
            points = read_points(out, entries[-1])
            self.assertGreater(len(points), 5000)
            cut = 0
            for x, y, z, intensity, ring, pad, t in points:
                self.assertEqual(pad, 0)
                self.assertLess(ring, 16)
                # Each point lies along its ring's vertical angle and its column's azimuth, and
                # its time is its column's firing time.
                r = math.sqrt(x * x + y * y + z * z)
                self.assertAlmostEqual(math.asin(z / r), angles[ring], delta=1e-5)
                column = round(((math.atan2(y, x) - az0) % (2 * math.pi)) / inc) % 900
                self.assertAlmostEqual(t, period * column / 900, delta=1e-6)
                self.assertIn(intensity, (0.0, 1.0))
                if ring < 8 and intensity == 1.0 and abs(x) < 4 and abs(y) < 4:
                    self.assertAlmostEqual(z, -0.7, delta=1e-5)  # the ground, 0.7 m below
                if intensity == 0.0:
                    cut += 1
                    # Smoke: the entry point, on the cell's sphere (centre 5.2 m behind, radius 1
                    # in the sensor frame at yaw 0.4).
                    c = (-5 - 0.2 * math.cos(0.4), -0.2 * math.sin(0.4), 0.0)
                    cx = math.cos(0.4) * c[0] + math.sin(0.4) * c[1]
                    cy = -math.sin(0.4) * c[0] + math.cos(0.4) * c[1]
                    self.assertAlmostEqual(math.dist((x, y, z), (cx, cy, 0.0)), 1.0, delta=1e-5)
            self.assertGreater(cut, 10)

    def test_thinned_frames_keep_only_their_points_and_none_writes_no_file(self):
        with tempfile.TemporaryDirectory() as out:
            frames = self.run_world(out, LIDAR3D_WORLD, "--steps", "5", "--frames", "2")
            entries = [s for step in frames[1:] for s in step["sensors"]]
            self.assertEqual([s["sequence"] for s in entries], [1, 3, 4])
            size = os.path.getsize(os.path.join(out, "points.bin"))
            self.assertEqual(size, 16 + 24 * sum(e["point_count"] for e in entries))
        with tempfile.TemporaryDirectory() as out:
            self.run_world(out, LIDAR3D_WORLD, "--steps", "2", "--frames", "none")
            self.assertFalse(os.path.exists(os.path.join(out, "points.bin")))
        with tempfile.TemporaryDirectory() as out:  # no lidar3d: no points.bin
            run("run", os.path.join(EXAMPLES, "lidar_world.yaml"), "--steps", "2", "--out", out,
                "--quiet")
            self.assertFalse(os.path.exists(os.path.join(out, "points.bin")))

    def test_points_are_the_same_bytes_whatever_the_thread_count(self):
        blobs = []
        for threads in ("1", "2"):
            with tempfile.TemporaryDirectory() as out:
                run("run", os.path.join(EXAMPLES, "lidar3d_world.yaml"), "--steps", "8", "--out",
                    out, "--quiet", "--seed", "4", "--threads", threads)
                with open(os.path.join(out, "points.bin"), "rb") as f:
                    blobs.append(f.read())
        self.assertGreater(len(blobs[0]), 100000)
        self.assertEqual(blobs[0], blobs[1])

    def test_map_accumulates_3d_points(self):
        with tempfile.TemporaryDirectory() as out:
            path = os.path.join(out, "w.yaml")
            with open(path, "w") as f:
                f.write(LIDAR3D_WORLD)
            r = run("run", path, "--out", out, "--steps", "2", "--map", os.path.join(out, "m.ply"))
            self.assertIn("attached to rover/lidar3d_0 (lidar3d, range_max 40 m)", r.stderr)
            stats = json.loads(run("map", "stats", os.path.join(out, "m.ply"), "--json").stdout)
            self.assertGreater(stats["points"], 1000)


class Determinism(unittest.TestCase):
    def frames_bytes(self, *extra):
        with tempfile.TemporaryDirectory() as out:
            run("run", os.path.join(EXAMPLES, "warehouse.yaml"), "--steps", "40", "--out", out,
                "--quiet", *extra)
            with open(os.path.join(out, "frames.jsonl"), "rb") as f:
                return f.read()

    def test_same_seed_same_bytes_whatever_the_thread_count(self):
        a = self.frames_bytes("--seed", "11", "--threads", "1")
        b = self.frames_bytes("--seed", "11", "--threads", "2")
        c = self.frames_bytes("--seed", "11")
        self.assertEqual(a, b)
        self.assertEqual(a, c)

    def test_another_seed_changes_the_noise(self):
        self.assertNotEqual(self.frames_bytes("--seed", "1"), self.frames_bytes("--seed", "2"))


class Errors(unittest.TestCase):
    def test_bad_world_exits_2_with_location(self):
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
            f.write("robot:\n  - sensors:\n      - {name: lidar2d, range_max: far}\n")
        try:
            r = run("run", f.name, "--quiet", check=False)
        finally:
            os.unlink(f.name)
        self.assertEqual(r.returncode, 2)
        self.assertIn(f"{f.name}:3:36: robot[0].sensors[0].range_max: expected a number", r.stderr)

    def test_missing_world_and_bad_arguments_exit_2(self):
        r = run("run", "/nonexistent/world.yaml", check=False)
        self.assertEqual(r.returncode, 2)
        self.assertIn("/nonexistent/world.yaml: file not found", r.stderr)
        world = os.path.join(EXAMPLES, "lidar_world.yaml")
        for args in (["run", world, "--frames", "often"], ["run", world, "--bogus"],
                     ["run", world, "--steps", "ten"], ["run"], ["fly"]):
            with self.subTest(args=args):
                self.assertEqual(run(*args, check=False).returncode, 2)

    def test_bad_frames_format_exits_2_naming_the_flag(self):
        world = os.path.join(EXAMPLES, "lidar_world.yaml")
        cases = (("csv", ""), ("", ""), ("jsonl,", ""), ("parquet,parquet", " ('parquet' twice)"))
        for value, why in cases:
            with self.subTest(value=value), tempfile.TemporaryDirectory() as out:
                r = run("run", world, "--frames-format", value, "--out", out, check=False)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn("--frames-format: expected 'jsonl', 'parquet' or both as "
                              f"'jsonl,parquet', got '{value}'{why}", r.stderr)
                self.assertEqual(os.listdir(out), [])  # refused before anything is written

    def test_play_refuses_what_it_cannot_replay_before_serving(self):
        # Each of these exits 2 at once, naming what is wrong; none prints "live view at".
        readme = os.path.join(ROOT, "README.md")
        cases = [(["play", "/nonexistent/run.mcap"], "/nonexistent/run.mcap: cannot be read"),
                 (["play", readme], f"{readme}: byte 0: not an MCAP file"),
                 (["play", readme, "--speed", "2000"],
                  "--speed: expected a number from 0 to 1000, got '2000'"),
                 (["play", readme, "--start", "-1"],
                  "--start: expected a finite number ≥ 0, got '-1'"),
                 (["play", readme, "--live", "192.0.2.1:8765"], "give it a token"),
                 (["play"], "recording is required")]
        for args, message in cases:
            with self.subTest(args=args):
                r = run(*args, check=False)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn(message, r.stderr)
                self.assertNotIn("live view at", r.stdout)

    def test_unwritable_output_exits_nonzero(self):
        r = run("run", os.path.join(EXAMPLES, "lidar_world.yaml"), "--out", "/proc/ubot-out",
                check=False)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("/proc/ubot-out", r.stderr)

    def test_validate(self):
        r = run("validate", os.path.join(EXAMPLES, "warehouse.yaml"))
        self.assertIn("ok", r.stdout)


MAP_WORLD = """
world: {width: 40, height: 12, offset: [10000, 10000]}
robot:
  - name: scout
    kinematics: {name: omni}
    state: [10002, 10006, 0]
    goal: [10038, 10006, 0]
    vel_max: [2, 2]
    behavior: {name: dash}
    sensors:
      - {name: lidar2d, range_max: 6, number: 90, angle_range: 3.14159, z: 0.5}
      - {name: lidar2d, range_max: 4, number: 30}
obstacle:
  - {shape: {name: rectangle, length: 40, width: 0.2}, state: [10020, 10009, 0], static: true}
  - {shape: {name: rectangle, length: 40, width: 0.2}, state: [10020, 10003, 0], static: true}
"""


class Mapping(unittest.TestCase):
    def world(self, directory, extra=""):
        path = os.path.join(directory, "map_world.yaml")
        with open(path, "w") as f:
            f.write(MAP_WORLD + extra)
        return path

    def stats(self, path):
        return json.loads(run("map", "stats", path, "--json").stdout)

    def test_run_with_map_saves_a_las_at_the_world_position(self):
        with tempfile.TemporaryDirectory() as out:
            las = os.path.join(out, "maps", "site.las")
            r = run("run", self.world(out), "--out", out, "--map", las)
            self.assertIn("map 'map': attached to scout/lidar2d_0 (lidar2d, range_max 6 m)",
                          r.stderr)
            self.assertIn("map 'map': attached to scout/lidar2d_1", r.stderr)
            self.assertIn("map 'map': ", r.stdout)
            self.assertIn("saved " + las, r.stdout)
            self.assertIn("0 dropped", r.stdout)
            s = self.stats(las)
            self.assertEqual((s["format"], s["version"], s["point_format"]), ("las", "1.4", 6))
            self.assertEqual(s["scale"], [0.001, 0.001, 0.001])
            self.assertGreater(s["points"], 500)
            # The walls' inner faces are at y = 10008.9 and 10003.1, 10 km from the origin.
            self.assertAlmostEqual(s["bounds"]["min"][1], 10003.1, delta=0.001)
            self.assertAlmostEqual(s["bounds"]["max"][1], 10008.9, delta=0.001)
            self.assertLessEqual(s["offset"][0], s["bounds"]["min"][0])
            self.assertGreater(s["offset"][0], s["bounds"]["min"][0] - 1)
            self.assertEqual(s["map"]["voxels"], s["points"])
            self.assertEqual(s["map"]["origin"], [10000, 10000, 0])
            # Probe a cube holding the north wall only: every sample lies on it.
            p = json.loads(run("map", "probe", las, "10020", "10026.9", "0.5", "19",
                               "--samples", "1000", "--json").stdout)
            self.assertGreater(p["count"], 100)
            self.assertEqual(len(p["samples"]), min(1000, p["count"]))
            for sample in p["samples"]:
                self.assertAlmostEqual(sample["position"][1], 10008.9, delta=0.001)
            text = run("map", "probe", las, "10020", "10006", "0.5", "0.2").stdout
            self.assertIn(": 0 points", text)

    def test_mapping_section_formats_and_policy(self):
        with tempfile.TemporaryDirectory() as out:
            world = self.world(out, "mapping: {scanners: [scout], output: corridor, "
                                    "formats: [las, ply, pcd], policy: brighter}\n")
            r = run("run", world, "--out", out)
            self.assertIn("warning: map 'map': 'scout' matches 2 lidars; took scout/lidar2d_0, "
                          "not lidar2d_1", r.stderr)
            counts = {ext: self.stats(os.path.join(out, "corridor." + ext))["points"]
                      for ext in ("las", "ply", "pcd")}
            self.assertEqual(len(set(counts.values())), 1, counts)
            self.assertEqual(self.stats(os.path.join(out, "corridor.ply"))["map"]["policy"],
                             "brighter")

    def test_same_seed_same_map_bytes_whatever_the_thread_count(self):
        outputs = []
        with tempfile.TemporaryDirectory() as out:
            world = self.world(out)
            for threads in ("1", "2"):
                las = os.path.join(out, f"m{threads}.las")
                run("run", world, "--out", out, "--quiet", "--threads", threads, "--map", las)
                with open(las, "rb") as f:
                    outputs.append(f.read())
        self.assertEqual(outputs[0], outputs[1])

    def test_convert_keeps_points_and_positions(self):
        with tempfile.TemporaryDirectory() as out:
            las = os.path.join(out, "m.las")
            run("run", self.world(out), "--out", out, "--quiet", "--map", las)
            for ext in ("ply", "pcd"):
                target = os.path.join(out, "c." + ext)
                r = run("map", "convert", las, target)
                self.assertIn("points", r.stdout)
                a, b = self.stats(las), self.stats(target)
                self.assertEqual(a["points"], b["points"])
                self.assertEqual(a["map"]["voxels"], b["map"]["voxels"])
                for k in range(3):
                    self.assertAlmostEqual(a["bounds"]["min"][k], b["bounds"]["min"][k], places=9)

    def test_bad_files_and_arguments_exit_2_naming_the_file(self):
        with tempfile.TemporaryDirectory() as out:
            bad = os.path.join(out, "bad.las")
            with open(bad, "wb") as f:
                f.write(b"NOPE" + bytes(400))
            r = run("map", "stats", bad, check=False)
            self.assertEqual(r.returncode, 2)
            self.assertIn(f"{bad}: not a LAS file: the signature at offset 0 is 'NOPE'", r.stderr)
            las = os.path.join(out, "m.las")
            run("run", self.world(out), "--out", out, "--quiet", "--map", las)
            with open(las, "rb") as f:
                data = f.read()
            with open(bad, "wb") as f:
                f.write(data[:-10])
            r = run("map", "probe", bad, "0", "0", "0", "1", check=False)
            self.assertEqual(r.returncode, 2)
            self.assertIn("(offset 247)", r.stderr)
            for args in (["map", "stats", os.path.join(out, "missing.las")],
                         ["map", "convert", las, os.path.join(out, "x.e57")],
                         ["map", "probe", las, "0", "0", "0"],
                         ["map"],
                         ["run", self.world(out), "--map", os.path.join(out, "m.txt")]):
                with self.subTest(args=args):
                    self.assertEqual(run(*args, check=False).returncode, 2)
            world = self.world(out, "mapping: {scanners: [scuot]}\n")
            r = run("run", world, check=False)
            self.assertEqual(r.returncode, 2)
            self.assertIn("mapping.scanners[0]: no object named 'scuot' (did you mean 'scout'?)",
                          r.stderr)


class Ros2AndPacing(unittest.TestCase):
    """--ros2 (DDS kept on 127.0.0.1 by the loopback configuration) and --realtime."""

    ENV = dict(os.environ, CYCLONEDDS_URI="file://" + os.path.join(
        ROOT, "config", "cyclonedds-loopback.xml"), ROS_DOMAIN_ID=str(100 + os.getpid() % 100))
    WORLD = os.path.join(EXAMPLES, "lidar_world.yaml")

    def ubot(self, *args, env=None):
        return subprocess.run([UBOT, *args], capture_output=True, text=True,
                              env=env or self.ENV, timeout=300)

    def frames(self, out):
        with open(os.path.join(out, "frames.jsonl"), "rb") as f:
            return f.read()

    def test_cyclonedds_is_loaded_by_the_bridge_only(self):
        # Start-up (docs/benchmarks.md): CycloneDDS and its dependencies load when --ros2 starts
        # the bridge, not with every run; no libcrypto at all (ubot hashes types itself).
        def loaded(*args):
            env = dict(self.ENV, LD_DEBUG="files")
            with tempfile.TemporaryDirectory() as out:
                r = self.ubot("run", self.WORLD, "--steps", "3", "--out", out, "--quiet", *args,
                              env=env)
            self.assertEqual(r.returncode, 0, r.stderr[-2000:])
            return set(re.findall(r"file=(lib[\w+-]+)\.so", r.stderr))

        plain = loaded()
        self.assertIn("libyaml-0", plain)  # LD_DEBUG lists what loads
        self.assertFalse({"libddsc", "libcrypto", "libssl"} & plain, plain)
        self.assertIn("libddsc", loaded("--ros2"))

    def test_bridge_and_pacing_do_not_change_the_outputs(self):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            self.assertEqual(self.ubot("run", self.WORLD, "--steps", "30", "--out", a,
                                       "--quiet").returncode, 0)
            start = time.monotonic()
            r = self.ubot("run", self.WORLD, "--steps", "30", "--out", b, "--quiet", "--ros2",
                          "--realtime", "10")
            wall = time.monotonic() - start
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(self.frames(a), self.frames(b))
        self.assertGreaterEqual(wall, 30 * 0.1 / 10)  # paced: 3 s of simulation at 10x

    def test_ros2_runs_until_interrupted_and_ends_cleanly(self):
        with tempfile.TemporaryDirectory() as out:
            p = subprocess.Popen([UBOT, "run", self.WORLD, "--ros2", "--realtime", "--out", out,
                                  "--quiet"], env=self.ENV, stderr=subprocess.PIPE, text=True)
            time.sleep(2.0)  # well past the world's own end (robot_0 arrives within 150 steps)
            self.assertIsNone(p.poll(), "a --ros2 run goes on after the robots are done")
            p.send_signal(signal.SIGINT)
            self.assertEqual(p.wait(timeout=60), 130, p.stderr.read())  # 128 + SIGINT
            lines = self.frames(out).decode().splitlines()
            steps = [json.loads(line)["step"] for line in lines[1:]]
            self.assertEqual(steps, list(range(1, len(steps) + 1)))
            self.assertGreater(len(steps), 5)
            self.assertTrue(os.path.exists(os.path.join(out, "world.png")))

    def test_bad_ros_arguments_exit_2(self):
        for args in (["--ros-domain-id", "3"], ["--ros2", "--ros-domain-id", "300"],
                     ["--realtime", "0"], ["--realtime", "fast"]):
            with self.subTest(args=args):
                self.assertEqual(self.ubot("run", self.WORLD, "--steps", "1", *args).returncode, 2)
        r = self.ubot("run", self.WORLD, "--steps", "1", "--ros2",
                      env=dict(self.ENV, ROS_DOMAIN_ID="seven"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("ROS_DOMAIN_ID='seven'", r.stderr)

    def test_unknown_command_target_exits_2(self):
        with tempfile.TemporaryDirectory() as tmp:
            world = os.path.join(tmp, "w.yaml")
            with open(world, "w") as f:
                f.write("robot:\n  - kinematics: {name: diff}\n    ros2: {target: ghost}\n")
            r = self.ubot("run", world, "--steps", "1", "--ros2", "--out", tmp)
        self.assertEqual(r.returncode, 2)
        self.assertIn("robot_0: ros2.target: no object named 'ghost'", r.stderr)


class McapRecording(unittest.TestCase):
    """--mcap / --mcap-compression (the files' contents: tests/record, with Foxglove's readers)."""

    MAGIC = b"\x89MCAP0\r\n"

    def record(self, out, *extra, world="warehouse.yaml", steps="40"):
        path = os.path.join(out, "rec", "run.mcap")  # rec/ does not exist yet
        r = run("run", os.path.join(EXAMPLES, world), "--steps", steps, "--out", out,
                "--mcap", path, *extra)
        with open(path, "rb") as f:
            return f.read(), r

    def chunk_compressions(self, data):
        """The compression field of every Chunk record (MCAP: opcode, uint64 length, content)."""
        found, at = [], 8
        while at < len(data) - 8:
            op, n = data[at], int.from_bytes(data[at + 1:at + 9], "little")
            if op == 0x06:
                k = int.from_bytes(data[at + 9 + 28:at + 9 + 32], "little")
                found.append(data[at + 9 + 32:at + 9 + 32 + k].decode())
            if op == 0x0F:  # Data End: the summary follows
                break
            at += 9 + n
        return found

    def test_records_a_valid_file_and_reports_it(self):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            data, r = self.record(a)
            self.assertTrue(data.startswith(self.MAGIC) and data.endswith(self.MAGIC))
            self.assertRegex(r.stdout, r"mcap: \d+ messages, [0-9.]+ MiB \(zstd\) in .*run\.mcap")
            # The warehouse's camera images fill several 1 MiB chunks, each compressed.
            compressions = self.chunk_compressions(data)
            self.assertGreaterEqual(len(compressions), 2)
            self.assertEqual(set(compressions), {"zstd"})
            # Recording changes no other output.
            run("run", os.path.join(EXAMPLES, "warehouse.yaml"), "--steps", "40", "--out", b,
                "--quiet")
            with open(os.path.join(a, "frames.jsonl"), "rb") as fa, \
                    open(os.path.join(b, "frames.jsonl"), "rb") as fb:
                self.assertEqual(fa.read(), fb.read())

    def test_compression_option(self):
        sizes = {}
        for codec, field in (("zstd", "zstd"), ("lz4", "lz4"), ("none", "")):
            with self.subTest(codec=codec), tempfile.TemporaryDirectory() as out:
                data, _ = self.record(out, "--mcap-compression", codec, "--quiet")
                self.assertEqual(set(self.chunk_compressions(data)), {field})
                sizes[codec] = len(data)
        self.assertLess(sizes["zstd"], sizes["none"] * 0.6)
        self.assertLess(sizes["lz4"], sizes["none"])

    def test_same_seed_same_bytes_whatever_the_thread_count(self):
        files = []
        for threads in ("1", "2"):
            with tempfile.TemporaryDirectory() as out:
                files.append(self.record(out, "--seed", "11", "--threads", threads, "--quiet",
                                         world="imu_world.yaml", steps="150")[0])
        self.assertEqual(files[0], files[1])
        with tempfile.TemporaryDirectory() as out:
            other, _ = self.record(out, "--seed", "12", "--quiet", world="imu_world.yaml",
                                   steps="150")
        self.assertNotEqual(files[0], other)

    def test_bad_mcap_arguments_exit_2(self):
        world = os.path.join(EXAMPLES, "lidar_world.yaml")
        with tempfile.TemporaryDirectory() as out:
            for args in (["--mcap", os.path.join(out, "r.mcap"), "--mcap-compression", "gzip"],
                         ["--mcap-compression", "zstd"], ["--mcap"]):
                with self.subTest(args=args):
                    r = run("run", world, "--steps", "1", "--out", out, *args, check=False)
                    self.assertEqual(r.returncode, 2, r.stderr)

    def test_unwritable_mcap_exits_nonzero_naming_it(self):
        with tempfile.TemporaryDirectory() as out:
            r = run("run", os.path.join(EXAMPLES, "lidar_world.yaml"), "--steps", "1", "--out",
                    out, "--mcap", "/proc/ubot-run.mcap", check=False)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("/proc/ubot-run.mcap", r.stderr)


def read_png(path):
    """Decodes a non-interlaced PNG with zlib (stdlib only): (width, height, bit depth, colour
    type, rows of samples as ints)."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack_from(">I4s", data, pos)
        body = data[pos + 8:pos + 8 + length]
        assert zlib.crc32(kind + body) == struct.unpack_from(">I", data, pos + 8 + length)[0]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, ctype, _, _, interlace = ihdr
    assert interlace == 0
    channels = {0: 1, 2: 3, 6: 4}[ctype]
    bpp = channels * depth // 8
    stride = width * bpp
    raw = zlib.decompress(idat)
    rows, prev = [], bytearray(stride)
    for y in range(height):
        ftype, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 0xFF
            elif ftype == 2:
                line[i] = (line[i] + b) & 0xFF
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        prev = line
        if depth == 16:
            rows.append([line[2 * i] << 8 | line[2 * i + 1] for i in range(width * channels)])
        else:
            rows.append(list(line))
    return width, height, depth, ctype, rows


def run_warehouse(out, *args):
    run("run", os.path.join(EXAMPLES, "warehouse.yaml"), "--out", out, "--quiet", *args)
    return read_frames(os.path.join(out, "frames.jsonl"))


CAMERA_WORLD = """
world: {width: 20, height: 20, offset: [-10, -10], step_time: 0.1}
ground: {z: 0}
robot:
  - name: cam bot
    kinematics: {name: diff}
    shape: {name: circle, radius: 0.2}
    state: [0, 0, 0]
    static: true
    sensors:
      - {name: depth_camera, width: 9, height: 7, horizontal_fov: 1.2, offset: [0.2, 0, 1]}
      - {name: rgb_camera, width: 9, height: 7, horizontal_fov: 1.2, offset: [0.2, 0, 1],
         update_rate_hz: 5}
obstacle:
  - {shape: {name: linestring, vertices: [[4, -10], [4, 10]]}, state: [0, 0, 0], height: 2,
     color: '#ff0000'}
"""


class Cameras(unittest.TestCase):
    def run_world(self, out, *args):
        path = os.path.join(out, "w.yaml")
        with open(path, "w") as f:
            f.write(CAMERA_WORLD)
        run("run", path, "--out", out, "--quiet", "--steps", "3", *args)
        return read_frames(os.path.join(out, "frames.jsonl"))

    def test_pngs_named_in_frames_read_back(self):
        with tempfile.TemporaryDirectory() as out:
            frames = self.run_world(out)
            header = frames[0]["sensors"]
            depth_h, rgb_h = header
            self.assertEqual(depth_h["type"], "depth_camera")
            self.assertEqual(depth_h["optical_frame_id"], "cam bot/depth_camera_0_optical")
            self.assertEqual((depth_h["width"], depth_h["height"]), (9, 7))
            self.assertAlmostEqual(depth_h["fx"], 9 / (2 * math.tan(0.6)), places=12)
            self.assertEqual((depth_h["cx"], depth_h["cy"]), (4.0, 3.0))
            self.assertEqual(depth_h["image_format"], "png16_mm")
            self.assertEqual(rgb_h["image_format"], "png_rgba8")
            self.assertEqual(rgb_h["image_dir"], "cam_bot/rgb_camera_0")
            images = {}
            for step in frames[1:]:
                for e in step["sensors"]:
                    self.assertEqual(e["image"], "cam_bot/%s_0/%06d.png" % (
                        e["type"], e["sequence"]))
                    self.assertTrue(os.path.exists(os.path.join(out, e["image"])))
                    images.setdefault(e["type"], []).append(e["image"])
            self.assertEqual(len(images["depth_camera"]), 3)
            self.assertEqual(len(images["rgb_camera"]), 2)  # 5 Hz: 0.1 s, then 0.2 s
            self.assertEqual(sorted(os.listdir(os.path.join(out, "cam_bot", "depth_camera_0"))),
                             ["000000.png", "000001.png", "000002.png"])
            # Depth: 16-bit grey millimetres along the optical axis. The wall at x = 4 seen from
            # x = 0.2 reads 3800 at the centre pixel and along its row (not the longer rays'
            # lengths); the top row looks over the 2 m wall at the sky: 0 = no data.
            w, h, bits, ctype, rows = read_png(os.path.join(out, images["depth_camera"][-1]))
            self.assertEqual((w, h, bits, ctype), (9, 7, 16, 0))
            self.assertEqual(rows[3], [3800] * 9)
            self.assertEqual(rows[0], [0] * 9)
            # The bottom row sees the ground at 1 m / tan(3 / fy) ahead.
            fy = depth_h["fy"]
            self.assertEqual(rows[6][4], round(1000 * fy / 3))
            # RGB: 8-bit RGBA; the red wall shaded by the fixed light, the sky transparent.
            w, h, bits, ctype, rows = read_png(os.path.join(out, images["rgb_camera"][-1]))
            self.assertEqual((w, h, bits, ctype), (9, 7, 8, 6))
            light = (-0.5, 0.3, 0.8)
            norm = math.sqrt(sum(x * x for x in light))
            red = round(255 * (0.45 + 0.55 * max(0.0, 0.5 / norm)))
            self.assertEqual(rows[3][16:20], [red, 0, 0, 255])
            self.assertEqual(rows[0][19], 0)

    def test_warehouse_cameras_see_the_floor(self):
        # The demo's ground plane (z = 0) under robot_1's level cameras 0.5 m up, heading west
        # down the open upper aisle: a floor pixel in row v below the principal point is at
        # depth h / tan(angle below the horizon) = h * fy / (v - cy) along the optical axis,
        # the same across the row. The bottom 33 rows see nothing but floor (its nearest point
        # 0.67 m ahead; row 86 meets the wall 1.5 m to the right); the centre column sees it
        # out to row 64 (8.9 m), and beyond max_depth (10 m, rows 60-63) reads 0. The RGB floor
        # is the ground colour under the fixed light (without the plane: sky, alpha 0).
        with tempfile.TemporaryDirectory() as out:
            frames = run_warehouse(out, "--steps", "1")
            header = {h["type"]: h for h in frames[0]["sensors"] if h["object_id"] == 1}
            entries = {e["type"]: e for e in frames[1]["sensors"] if e["object_id"] == 1}
            depth_h = header["depth_camera"]
            self.assertEqual(frames[0]["ground"], 0)  # the plane's height
            self.assertEqual((depth_h["width"], depth_h["height"], depth_h["cy"]), (160, 120, 59.5))
            self.assertAlmostEqual(depth_h["fy"], 80.0, places=12)  # 90° fov: 80 / tan(45°)
            fy, cy = depth_h["fy"], depth_h["cy"]
            h = entries["depth_camera"]["origin"][2]
            self.assertEqual(h, 0.5)
            self.assertEqual(entries["depth_camera"]["origin"][3:5], [0, 0])  # level: no roll/pitch
            _, _, _, _, rows = read_png(os.path.join(out, entries["depth_camera"]["image"]))
            floor = {v: round(1000 * h * fy / (v - cy)) for v in range(60, 120)}
            self.assertEqual(floor[119], 672)
            for v in range(87, 120):
                self.assertEqual(rows[v], [floor[v]] * 160, v)
            for v in range(64, 120):
                self.assertEqual(rows[v][80], floor[v], v)
            for v in range(60, 64):
                self.assertEqual(rows[v][80], 0, v)
            _, _, _, _, rgb = read_png(os.path.join(out, entries["rgb_camera"]["image"]))
            light = (-0.5, 0.3, 0.8)
            shade = 0.45 + 0.55 * light[2] / math.sqrt(sum(x * x for x in light))
            ground = [round(255 * c * shade) for c in (0.50, 0.47, 0.42)] + [255]
            self.assertEqual(ground, [114, 107, 96, 255])
            for v in range(87, 120):
                self.assertEqual(rgb[v], ground * 160, v)
            self.assertEqual(rgb[0][3::4], [0] * 160)  # the top row is still sky

    def test_images_are_the_same_bytes_whatever_the_thread_count(self):
        def image_bytes(*args):
            with tempfile.TemporaryDirectory() as out:
                self.run_world(out, *args)
                found = {}
                for root, _, files in os.walk(out):
                    for name in files:
                        if name.endswith(".png") and name != "world.png":
                            with open(os.path.join(root, name), "rb") as f:
                                found[os.path.relpath(os.path.join(root, name), out)] = f.read()
                return found
        one = image_bytes("--threads", "1")
        self.assertEqual(len(one), 5)
        self.assertEqual(one, image_bytes("--threads", "2"))


class HostileArguments(unittest.TestCase):
    """Issue 16: out-of-range arguments and hostile files get a message and exit 2, no crash."""

    WORLD = os.path.join(EXAMPLES, "lidar_world.yaml")

    def refused(self, *args, needle, timeout=60):
        r = subprocess.run([UBOT, *args], capture_output=True, text=True, timeout=timeout)
        self.assertEqual(r.returncode, 2, r.stderr)  # not a signal (negative), not accepted
        self.assertIn(needle, r.stderr)

    def test_out_of_range_run_arguments_exit_2_naming_the_option(self):
        cases = [
            (["--threads", "65537"],  # was SIGSEGV
             "--threads: expected a whole number from 0 to 256, got '65537'"),
            (["--threads", "-1"], "--threads: expected a whole number from 0 to 256, got '-1'"),
            (["--realtime", "nan"], "--realtime: expected a finite number greater than 0, got 'nan'"),
            (["--realtime", "inf"], "--realtime: expected a finite number greater than 0, got 'inf'"),
            (["--realtime", "-2"], "--realtime: expected a finite number greater than 0, got '-2'"),
            (["--seed", "-1"], "--seed: expected a whole number from 0 to 18446744073709551615, "
                               "got '-1'"),
            (["--seed", "18446744073709551616"], "--seed: expected a whole number"),
            (["--steps", "-5"], "--steps: expected a whole number from 0 to 9223372036854775807, "
                                "got '-5'"),
            (["--frames", "0"], "--frames: expected 'every', 'none' or a step count"),
            (["--frames", "99999999999999999999"], "--frames: expected 'every', 'none'"),  # SIGSEGV
            (["--frames", "-3"], "--frames: expected 'every', 'none' or a step count"),
            (["--ros2", "--ros-domain-id", "233"],
             "--ros-domain-id: expected a whole number from 0 to 232, got '233'"),
            (["--ros2", "--ros-domain-id", "-1"],
             "--ros-domain-id: expected a whole number from 0 to 232, got '-1'"),
        ]
        with tempfile.TemporaryDirectory() as out:
            for args, needle in cases:
                with self.subTest(args=args):
                    self.refused("run", self.WORLD, "--quiet", "--out", out, *args, needle=needle)

    def test_largest_accepted_values_run(self):
        with tempfile.TemporaryDirectory() as out:
            run("run", self.WORLD, "--quiet", "--out", out, "--steps", "2", "--threads", "256",
                "--seed", "18446744073709551615", "--frames", "9223372036854775807")
            self.assertEqual(len(read_frames(os.path.join(out, "frames.jsonl"))), 2)  # header, last

    def test_probe_numbers_must_be_finite(self):
        with tempfile.TemporaryDirectory() as out:
            las = os.path.join(out, "m.las")
            with open(las, "wb") as f:
                f.write(b"LASF")
            self.refused("map", "probe", las, "nan", "0", "0", "1", needle="x: expected a finite number")
            self.refused("map", "probe", las, "0", "0", "0", "inf",
                         needle="half: expected a finite number greater than 0")
            self.refused("map", "probe", las, "0", "0", "0", "1", "--samples", "-1",
                         needle="--samples: expected a whole number")

    def test_pcd_whose_count_times_size_overflows_exits_2(self):
        # Was SIGSEGV in read_pcd (the record size wrapped around; the field offsets were trusted).
        header = (b"VERSION 0.7\nFIELDS pad x y z\nSIZE 8 8 8 8\nTYPE F F F F\n"
                  b"COUNT 1152921504606846976 1152921504606846976 1 1\nWIDTH 1\nHEIGHT 1\n"
                  b"POINTS 1\nDATA binary\n")
        with tempfile.TemporaryDirectory() as out:
            pcd = os.path.join(out, "evil.pcd")
            with open(pcd, "wb") as f:
                f.write(header + bytes(16))
            for command in (["stats", pcd], ["probe", pcd, "0", "0", "0", "1"],
                            ["convert", pcd, os.path.join(out, "x.las")]):
                with self.subTest(command=command[0]):
                    self.refused("map", *command, needle=f"{pcd}: field 'pad': COUNT")

    def test_world_that_is_a_device_or_a_fifo_exits_2_at_once(self):
        # /dev/zero was read until memory ran out; a FIFO blocked for ever.
        self.refused("validate", "/dev/zero", needle="/dev/zero: not a regular file", timeout=20)
        self.refused("run", "/dev/zero", needle="/dev/zero: not a regular file", timeout=20)
        with tempfile.TemporaryDirectory() as out:
            fifo = os.path.join(out, "w.yaml")
            os.mkfifo(fifo)
            self.refused("validate", fifo, needle=f"{fifo}: not a regular file", timeout=20)
            cloud = os.path.join(out, "m.las")
            os.mkfifo(cloud)
            self.refused("map", "stats", cloud, needle=f"{cloud}: not a regular file", timeout=20)

    def test_duplicate_keys_exit_2_naming_both_lines(self):
        with tempfile.TemporaryDirectory() as out:
            world = os.path.join(out, "w.yaml")
            with open(world, "w") as f:
                f.write("obstacle:\n  - shape: {name: circle, radius: 1}\n"
                        "    state: [1, 1, 0]\n    state: [2, 2, 0]\n")
            self.refused("validate", world, needle=f"{world}:4:5: duplicate key 'state' "
                                                   "(first at line 3, column 5;")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--ubot", required=True)
    args, rest = parser.parse_known_args()
    UBOT = os.path.abspath(args.ubot)
    unittest.main(argv=[sys.argv[0], *rest])
