#!/usr/bin/env python3
"""IR-SIM's behaviour worlds (usage/13, 19, 23; copies in tests/data/irsim_usage/) run with
`ubot run` (docs/behaviors.md): sfm and orca robots move towards their goals, a world naming an
unregistered group behaviour loads with its warning and its robots stay still.
usage: test_behavior_worlds.py --ubot PATH/TO/ubot   (Python standard library only)"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
USAGE = os.path.join(ROOT, "tests", "data", "irsim_usage")
UBOT = None
STEPS = 30


def run(world):
    """Runs `world` for STEPS steps; returns (stderr, first frame, last frame). Not --quiet, which
    would silence the loader's warnings."""
    out = tempfile.mkdtemp(prefix=f"ubot_behaviors_{os.getpid()}_")
    try:
        p = subprocess.run([UBOT, "run", os.path.join(USAGE, world), "--steps", str(STEPS),
                            "--out", out], capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            raise AssertionError(f"{world}: exit {p.returncode}: {p.stderr}")
        with open(os.path.join(out, "frames.jsonl")) as f:
            lines = f.read().splitlines()
        return p.stderr, json.loads(lines[0]), json.loads(lines[-1])
    finally:
        shutil.rmtree(out, ignore_errors=True)


def robot_moves(first, last):
    """The distance each robot moved, by id."""
    start = {o["id"]: o["state"] for o in first["objects"] if o["role"] == "robot"}
    return {o["id"]: math.dist(o["state"][:2], start[o["id"]][:2])
            for o in last["objects"] if o["id"] in start}


class BehaviorWorlds(unittest.TestCase):
    def test_moving_worlds(self):
        # (world, robots, least distance every robot moves in STEPS steps of 0.1 s)
        cases = [("19orca_world/orca_behavior_world.yaml", 200, 0.2),
                 ("19orca_world/orca_behavior_world_random.yaml", 100, 0.2),
                 ("19orca_world/orca_diff_world.yaml", 20, 0.2),
                 ("23sfm_world/sfm_head_on.yaml", 2, 0.5),
                 ("23sfm_world/sfm_world.yaml", 24, 0.25)]
        for world, robots, least in cases:
            with self.subTest(world=world):
                _, first, last = run(world)
                moved = robot_moves(first, last)
                self.assertEqual(len(moved), robots)
                self.assertGreater(min(moved.values()), least)
                self.assertFalse(any(o["collision"] for o in last["objects"]))

    def test_orca_world_without_its_script_stands_still(self):
        # orca_world.yaml has no group_behavior: IR-SIM's orca_world.py drives pyrvo itself.
        _, first, last = run("19orca_world/orca_world.yaml")
        moved = robot_moves(first, last)
        self.assertEqual(len(moved), 200)
        self.assertEqual(max(moved.values()), 0.0)

    def test_custom_group_behaviours_without_their_script_are_refused_at_their_name(self):
        # Their group behaviours are written in Python (IR-SIM's scripts register them); the CLI
        # has no such behaviour, so the world is refused, naming it and the known ones.
        for world, name in [("13custom_behavior/custom_group_behavior.yaml", "formation"),
                            ("13custom_behavior/custom_swarm_behavior.yaml", "swarm")]:
            with self.subTest(world=world):
                r = subprocess.run([UBOT, "validate", os.path.join(USAGE, world)],
                                   capture_output=True, text=True, timeout=60)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn(f"robot[0].group_behavior.name: no group behaviour '{name}' for "
                              "omni kinematics (known: orca, sfm)", r.stderr)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--ubot", required=True)
    args, rest = ap.parse_known_args()
    UBOT = os.path.abspath(args.ubot)
    unittest.main(argv=[sys.argv[0]] + rest)
