"""Grid maps end to end (docs/grid-maps.md): IR-SIM's grid-map worlds load and run with `ubot run`,
lidar returns end on the boundary of an occupied cell of the map (read here independently from the
PNG with Pillow and IR-SIM's threshold), and world.png shows the map.

Run: test_grid_maps.py --ubot path/to/ubot
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "data")
IRSIM_WORLDS = os.path.join(DATA, "irsim_worlds")
UBOT = None


def run(*args, check=True):
    return subprocess.run([UBOT, *args], capture_output=True, text=True, check=check)


def read_frames(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def cave_grid():
    """IR-SIM's image rule, written out independently: grey = sample / 255 (float32), occupied
    when 100 (1 - grey) > 50; cell (i, j) is image column i, row H - 1 - j; mdownsample 2 keeps
    every other cell from (0, 0)."""
    img = np.asarray(Image.open(os.path.join(IRSIM_WORLDS, "cave.png")).convert("L"))
    grey = (img / np.float32(255)).astype(np.float32).astype(np.float64)
    grid = np.fliplr((100 * (1 - grey)).T)[::2, ::2]
    return grid > 50


class IrsimGridWorlds(unittest.TestCase):
    def test_each_grid_world_runs(self):
        for name in ["grid_map_perlin.yaml", "grid_map_hm3d.yaml", "path_planning.yaml"]:
            with self.subTest(world=name), tempfile.TemporaryDirectory() as out:
                run("run", os.path.join(IRSIM_WORLDS, name), "--steps", "40", "--out", out,
                    "--quiet")
                frames = read_frames(os.path.join(out, "frames.jsonl"))
                self.assertGreaterEqual(len(frames), 2)
                with open(os.path.join(out, "world.png"), "rb") as f:
                    self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_hm3d_robot_drives_its_corridor_and_sees_walls(self):
        with tempfile.TemporaryDirectory() as out:
            run("run", os.path.join(IRSIM_WORLDS, "grid_map_hm3d.yaml"), "--steps", "60", "--out",
                out, "--quiet")
            frames = read_frames(os.path.join(out, "frames.jsonl"))
        last = frames[-1]["objects"][0]
        # (63, 10) to (63, 40) along a free corridor: no collision, arrived.
        self.assertFalse(any(s["objects"][0]["collision"] for s in frames[1:]))
        self.assertTrue(last["arrive"])
        scans = [s["sensors"][0] for s in frames[1:] if s.get("sensors")]
        self.assertTrue(all(any(v and r < 15 for r, v in zip(s["ranges"], s["valid"]))
                            for s in scans))

    def test_grid_map_yaml_is_not_refused_for_its_grid(self):
        # usage/10grid_map/grid_map.yaml also has random-shape obstacles (issue 13 item 3): until
        # those load it may stop there, never on its grid map.
        result = run("validate", os.path.join(IRSIM_WORLDS, "grid_map.yaml"), check=False)
        if result.returncode != 0:
            self.assertIn("random_shape", result.stderr)
            self.assertNotIn("obstacle_map", result.stderr)


class CaveWorld(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(prefix=f"ubot_grid_{os.getpid()}_")
        run("run", os.path.join(DATA, "grid_cave_world.yaml"), "--steps", "80", "--out", cls.out,
            "--quiet")
        cls.frames = read_frames(os.path.join(cls.out, "frames.jsonl"))
        cls.grid = cave_grid()

    def occupied(self, i, j):
        return 0 <= i < 250 and 0 <= j < 250 and bool(self.grid[i, j])

    def in_occupied_cell(self, x, y):
        return self.occupied(math.floor(x / 0.2), math.floor(y / 0.2))

    def test_lidar_returns_end_on_occupied_cell_boundaries(self):
        angles = self.frames[0]["sensors"][0]["angles"]
        checked = 0
        for step in self.frames[1:]:
            scan = step["sensors"][0]
            ox, oy, oyaw = scan["origin"]
            for angle, r, valid in zip(angles, scan["ranges"], scan["valid"]):
                if not valid:
                    continue
                c, s = math.cos(oyaw + angle), math.sin(oyaw + angle)
                x, y = ox + r * c, oy + r * s
                # On a grid line (x or y a multiple of 0.2 m) ...
                gx, gy = x / 0.2, y / 0.2
                self.assertLess(min(abs(gx - round(gx)), abs(gy - round(gy))), 1e-9)
                # ... with an occupied cell just beyond it and none on the way.
                self.assertTrue(self.in_occupied_cell(x + 1e-7 * c, y + 1e-7 * s), (x, y))
                steps = max(2, int(r / 0.05))
                for k in range(steps):
                    t = r * k / steps
                    self.assertFalse(self.in_occupied_cell(ox + t * c, oy + t * s), (ox, oy, t))
                checked += 1
        self.assertGreater(checked, 2000)

    def test_world_png_shows_the_map(self):
        img = np.asarray(Image.open(os.path.join(self.out, "world.png")).convert("L"))
        self.assertEqual(img.shape, (800, 800))
        # 16 px per metre; skip cells near the robot's path (beams and trajectory drawn there)
        # , the goal marker at (40, 40) and the top 40 px (the caption).
        path = [s["objects"][0]["state"][:2] for s in self.frames[1:]]
        far = 0
        for i in range(0, 250, 3):
            for j in range(0, 250, 3):
                x, y = (i + 0.5) * 0.2, (j + 0.5) * 0.2
                if y > 47.5 or math.hypot(x - 40, y - 40) < 3 or min(math.hypot(x - px, y - py) for px, py in path) < 23:
                    continue
                pixel = img[int((50 - y) * 16), int(x * 16)]
                if self.grid[i, j]:
                    self.assertLess(pixel, 30, (i, j))
                else:
                    self.assertGreater(pixel, 225, (i, j))
                far += 1
        self.assertGreater(far, 1000)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--ubot", required=True)
    args, rest = parser.parse_known_args()
    UBOT = args.ubot
    unittest.main(argv=[sys.argv[0], *rest])
