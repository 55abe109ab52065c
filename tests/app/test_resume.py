#!/usr/bin/env python3
"""`ubot run --save-state` then `ubot run --resume` (issue 47): the resumed run writes the steps,
scans, 3D points and camera images an uninterrupted run writes from that step on, byte for byte;
bad state files are clear errors that leave the previous outputs alone.

usage: test_resume.py --ubot PATH/TO/ubot [unittest args]   (Python standard library only)
"""
import argparse
import json
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


def steps_with_points(out):
    """frames.jsonl's step lines, each lidar3d entry's points_offset replaced by its records'
    bytes from points.bin (a resumed run's points.bin starts at its own first sweep)."""
    points = b""
    if os.path.exists(os.path.join(out, "points.bin")):
        with open(os.path.join(out, "points.bin"), "rb") as f:
            points = f.read()
    lines = []
    with open(os.path.join(out, "frames.jsonl")) as f:
        header, *steps = [json.loads(line) for line in f]
    for step in steps:
        for s in step["sensors"]:
            if "points_offset" in s:
                at = s.pop("points_offset")
                s["points"] = points[at:at + 24 * s["point_count"]].hex()
        lines.append(step)
    return header, lines


def files_under(out):
    """Every output file but the run's own bookkeeping, relative path -> bytes."""
    found = {}
    for folder, _, names in os.walk(out):
        for name in names:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, out)
            if rel in ("frames.jsonl", "points.bin", ".ubot-outputs") or rel.endswith(".lock"):
                continue
            with open(path, "rb") as f:
                found[rel] = f.read()
    return found


class Resume(unittest.TestCase):
    def check_world(self, world, first, total):
        with tempfile.TemporaryDirectory() as tmp:
            full, part, rest = (os.path.join(tmp, n) for n in ("full", "part", "rest"))
            state = os.path.join(tmp, "s.bin")
            run("run", world, "--steps", str(total), "--out", full, "--quiet", "--no-picture")
            saved = run("run", world, "--steps", str(first), "--out", part, "--no-picture",
                        "--save-state", state)
            self.assertIn(f"state after step {first} saved to {state}", saved.stdout)
            run("run", world, "--steps", str(total - first), "--resume", state, "--out", rest,
                "--quiet", "--no-picture")
            full_header, full_steps = steps_with_points(full)
            rest_header, rest_steps = steps_with_points(rest)
            self.assertEqual(rest_header, full_header)
            self.assertEqual([s["step"] for s in rest_steps], list(range(first + 1, total + 1)))
            self.assertEqual(rest_steps, full_steps[first:])
            # Camera images and IMU files: the resumed run's are the uninterrupted run's later
            # ones (images, named by sample) or its tail (CSV rows). (Plots of a whole run, such
            # as the IMU's, show the resumed part only.)
            full_files, rest_files = files_under(full), files_under(rest)
            for rel, data in rest_files.items():
                if rel.endswith(".png") and os.path.basename(rel)[:-4].isdigit():
                    self.assertEqual(data, full_files.get(rel), rel)
                elif rel.endswith(".csv"):
                    rows = data.decode().splitlines()
                    self.assertTrue(full_files[rel].decode().splitlines()[-(len(rows) - 1):] ==
                                    rows[1:], rel)
            return rest_files

    def test_resumed_runs_continue_byte_for_byte(self):
        for name, first, total in (("warehouse.yaml", 23, 60), ("lidar3d_world.yaml", 20, 45),
                                   ("imu_world.yaml", 17, 40), ("push_box.yaml", 25, 50),
                                   ("collision_avoidance.yaml", 30, 70)):
            with self.subTest(world=name):
                files = self.check_world(os.path.join(EXAMPLES, name), first, total)
                if name == "warehouse.yaml":
                    self.assertTrue(any(r.endswith(".png") for r in files), files.keys())

    def test_bad_state_files_are_errors_and_keep_the_previous_outputs(self):
        with tempfile.TemporaryDirectory() as tmp:
            world = os.path.join(EXAMPLES, "lidar_world.yaml")
            out = os.path.join(tmp, "out")
            state = os.path.join(tmp, "s.bin")
            run("run", world, "--steps", "5", "--out", out, "--quiet", "--save-state", state)
            with open(os.path.join(out, "frames.jsonl"), "rb") as f:
                before = f.read()
            with open(state, "rb") as f:
                good = f.read()
            damaged = os.path.join(tmp, "damaged.bin")
            with open(damaged, "wb") as f:
                f.write(good[:100] + bytes([good[100] ^ 1]) + good[101:])
            other = os.path.join(tmp, "other.bin")
            run("run", os.path.join(EXAMPLES, "fov_world.yaml"), "--steps", "2", "--out",
                os.path.join(tmp, "o"), "--quiet", "--save-state", other)
            cases = [(damaged, "the state file is damaged"),
                     (other, "the state is of another world"),
                     (world, "not a ubot state file"),
                     (os.path.join(tmp, "missing.bin"), "cannot open the state file")]
            for path, needle in cases:
                with self.subTest(path=os.path.basename(path)):
                    r = run("run", world, "--resume", path, "--out", out, "--quiet", check=False)
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertIn(path, r.stderr)
                    self.assertIn(needle, r.stderr)
                    with open(os.path.join(out, "frames.jsonl"), "rb") as f:
                        self.assertEqual(f.read(), before)

    def test_an_unwritable_state_path_fails_before_the_first_step(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = run("run", os.path.join(EXAMPLES, "lidar_world.yaml"), "--out",
                    os.path.join(tmp, "out"), "--quiet", "--save-state",
                    os.path.join(tmp, "no", "such", "dir", "s.bin"), check=False)
            # The folder is created when it can be; a path under a file cannot.
            self.assertEqual(r.returncode, 0, r.stderr)
            blocker = os.path.join(tmp, "file")
            open(blocker, "w").close()
            r = run("run", os.path.join(EXAMPLES, "lidar_world.yaml"), "--out",
                    os.path.join(tmp, "out2"), "--quiet", "--steps", "3", "--save-state",
                    os.path.join(blocker, "s.bin"), check=False)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(os.path.join(blocker, "s.bin"), r.stderr)
            self.assertFalse(os.path.exists(os.path.join(tmp, "out2", "frames.jsonl")))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--ubot", required=True)
    args, rest = ap.parse_known_args()
    UBOT = os.path.abspath(args.ubot)
    unittest.main(argv=[sys.argv[0], *rest])
