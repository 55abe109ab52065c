#!/usr/bin/env python3
"""collision_mode: contact through the command line (issue 14): frames.jsonl's contact entries,
the contact2d sensor's parameters and samples, byte-identical reruns, and stop mode unchanged.

usage: test_contact_cli.py --ubot PATH/TO/ubot [unittest args]   (Python standard library only)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PUSH_BOX = os.path.join(ROOT, "examples", "push_box.yaml")
UBOT = None
READING_KEYS = ["in_contact", "partners", "reports", "force", "contact_time", "air_time",
                "started", "ended"]


def frames_bytes(world, *extra):
    with tempfile.TemporaryDirectory() as out:
        result = subprocess.run([UBOT, "run", world, "--steps", "150", "--out", out, "--quiet",
                                 *extra], capture_output=True, text=True)
        if result.returncode != 0:
            raise AssertionError(result.stderr)
        with open(os.path.join(out, "frames.jsonl"), "rb") as f:
            return f.read()


def lines(data):
    return [json.loads(line) for line in data.decode().splitlines()]


class ContactFrames(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.data = frames_bytes(PUSH_BOX)
        cls.frames = lines(cls.data)

    def test_same_world_same_bytes(self):
        self.assertEqual(self.data, frames_bytes(PUSH_BOX, "--threads", "1"))

    def test_every_object_has_its_reading_every_step(self):
        steps = self.frames[1:]
        self.assertGreater(len(steps), 50)
        for step in steps:
            for obj in step["objects"]:
                self.assertEqual(list(obj["contact"].keys()), READING_KEYS)
                for report in obj["contact"]["reports"]:
                    self.assertEqual(list(report.keys()),
                                     ["other", "point", "normal", "depth", "force"])

    def test_one_pushing_episode_and_timers_in_seconds(self):
        robot = [step["objects"][0]["contact"] for step in self.frames[1:]]
        self.assertEqual(sum(r["started"] for r in robot), 1)
        # The run ends when the robot arrives, still touching the box (the world test follows
        # the box sliding off: tests/physics/contact_world_test.cpp).
        self.assertEqual(sum(r["ended"] for r in robot), 0)
        self.assertTrue(self.frames[-1]["objects"][0]["arrive"])
        first = next(i for i, r in enumerate(robot) if r["in_contact"])
        self.assertAlmostEqual(robot[first]["contact_time"], 0.1, places=9)
        self.assertAlmostEqual(robot[first - 1]["air_time"], 0.1 * first, places=9)
        self.assertEqual(robot[first]["partners"], [1])
        box = self.frames[1 + first]["objects"][1]
        self.assertEqual(box["contact"]["partners"], [0])
        # The box moves forward: its reported velocity is its body's, along +x.
        later = self.frames[1 + first + 20]["objects"][1]
        self.assertGreater(later["state"][0], box["state"][0] + 1.5)
        self.assertGreater(later["velocity"][0], 0.9)

    def test_contact2d_parameters_and_samples(self):
        (sensor,) = self.frames[0]["sensors"]
        self.assertEqual({k: sensor[k] for k in ["type", "force_scale", "marker_size", "linewidth",
                                                  "alpha", "color"]},
                         {"type": "contact2d", "force_scale": 0.05, "marker_size": 6,
                          "linewidth": 1.5, "alpha": 0.9, "color": "#CC79A7"})
        entries = [s for step in self.frames[1:] for s in step["sensors"]]
        self.assertTrue(entries)
        self.assertTrue(all(s["type"] == "contact2d" and s["status"] == "Valid" for s in entries))
        for step in self.frames[1:]:
            (s,) = step["sensors"]
            self.assertEqual(s["contact"], step["objects"][0]["contact"])

    def test_stop_mode_writes_no_contact_entries(self):
        with open(PUSH_BOX) as f:
            yaml = f.read().replace("collision_mode: 'contact'", "collision_mode: 'stop'")
        path = os.path.join(tempfile.gettempdir(), f"push_box_stop_{os.getpid()}.yaml")
        with open(path, "w") as f:
            f.write(yaml)
        try:
            frames = lines(frames_bytes(path))
        finally:
            os.remove(path)
        for step in frames[1:]:
            for obj in step["objects"]:
                self.assertNotIn("contact", obj)
        self.assertTrue(frames[-1]["objects"][0]["stop"])

    def test_ended_fires_once_when_the_robot_leaves_the_box(self):
        # In the example the run ends when the robot arrives, still pushing, so `ended` never
        # fires there. Here the box sits 0.5 m off the robot's line (y = 5.5): the robot (up to
        # y = 5.3) meets its lower edge, shoves it aside and drives on to arrive, free of it.
        with open(PUSH_BOX) as f:
            yaml = f.read().replace("state: [3, 5, 0]", "state: [3, 5.5, 0]")
        path = os.path.join(tempfile.gettempdir(), f"push_box_aside_{os.getpid()}.yaml")
        with open(path, "w") as f:
            f.write(yaml)
        try:
            frames = lines(frames_bytes(path))
        finally:
            os.remove(path)
        robot = [step["objects"][0]["contact"] for step in frames[1:]]
        self.assertEqual(sum(r["started"] for r in robot), 1)
        self.assertEqual(sum(r["ended"] for r in robot), 1)
        start = next(i for i, r in enumerate(robot) if r["started"])
        end = next(i for i, r in enumerate(robot) if r["ended"])
        self.assertGreater(end, start)
        # The episode is the steps between the edges; after it the robot is free and counts
        # air time from the step that ended it.
        self.assertTrue(all(r["in_contact"] for r in robot[start:end]))
        self.assertFalse(any(r["in_contact"] for r in robot[end:]))
        self.assertAlmostEqual(robot[end - 1]["contact_time"], 0.1 * (end - start), places=9)
        self.assertAlmostEqual(robot[end]["air_time"], 0.1, places=9)
        self.assertEqual(robot[end]["partners"], [])
        self.assertTrue(frames[-1]["objects"][0]["arrive"])
        # The box was pushed up, out of the robot's way, and forward.
        box = frames[-1]["objects"][1]["state"]
        self.assertGreater(box[1], 5.5)
        self.assertGreater(box[0], 3.0)

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--ubot", required=True)
    args, rest = parser.parse_known_args()
    UBOT = os.path.abspath(args.ubot)
    unittest.main(argv=[sys.argv[0], *rest])
