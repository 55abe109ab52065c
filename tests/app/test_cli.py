#!/usr/bin/env python3
"""End-to-end tests of the `ubot` command line: examples, outputs, errors, determinism.

usage: test_cli.py --ubot PATH/TO/ubot [unittest args]   (Python standard library only)
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

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
        self.assertEqual(set(o), {"id", "state", "velocity", "collision", "arrive", "stop"})
        s = first["sensors"][0]
        self.assertEqual(len(s["origin"]), 3)
        self.assertEqual(len(s["ranges"]), 200)
        self.assertEqual(len(s["valid"]), 200)
        self.assertTrue(all(isinstance(v, bool) for v in s["valid"]))
        # The run stops when the robot is done (it collides with obstacle_2 at step 55).
        self.assertTrue(frames[-1]["objects"][0]["stop"])

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

    def test_unwritable_output_exits_nonzero(self):
        r = run("run", os.path.join(EXAMPLES, "lidar_world.yaml"), "--out", "/proc/ubot-out",
                check=False)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("/proc/ubot-out", r.stderr)

    def test_validate(self):
        r = run("validate", os.path.join(EXAMPLES, "warehouse.yaml"))
        self.assertIn("ok", r.stdout)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--ubot", required=True)
    args, rest = parser.parse_known_args()
    UBOT = os.path.abspath(args.ubot)
    unittest.main(argv=[sys.argv[0], *rest])
