#!/usr/bin/env python3
"""Draws docs/images/warehouse-rgb.png and warehouse-depth.png: what the warehouse demo's orange
robot sees through its RGB and depth cameras at 640 x 480 as it drives towards the smoke.

The world is examples/warehouse.yaml with the two cameras at 640 x 480 instead of 160 x 120;
ubot run writes their PNGs, the RGB one is drawn without its alpha mask, the depth one (16-bit millimetres, which
viewers show nearly black) is drawn with matplotlib's "turbo" colour map, 0 (no reading) black.

usage: scripts/camera-pictures.py [--ubot build/ubot] [--step 120] [--out docs/images]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
from matplotlib import colormaps
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def big_cameras(world_text):
    """The warehouse with its cameras at 640 x 480 (both are 160 x 120 there)."""
    text, n = re.subn(r"width: 160\n(\s+)height: 120", r"width: 640\n\1height: 480", world_text)
    if n != 2:
        sys.exit(f"expected two 160 x 120 cameras in examples/warehouse.yaml, found {n}")
    return text


def depth_picture(png16, max_depth):
    mm = np.asarray(Image.open(png16), dtype=np.float64)
    rgb = colormaps["turbo"](np.clip(mm / (max_depth * 1000.0), 0.0, 1.0))[..., :3]
    rgb[mm == 0] = 0.0
    return Image.fromarray((rgb * 255.0 + 0.5).astype(np.uint8))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ubot", default=os.path.join(ROOT, "build", "ubot"))
    ap.add_argument("--step", type=int, default=120, help="the step whose images are drawn")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "images"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        world = os.path.join(tmp, "warehouse.yaml")
        with open(os.path.join(ROOT, "examples", "warehouse.yaml")) as f:
            text = big_cameras(f.read())
        with open(world, "w") as f:
            f.write(text)
        out = os.path.join(tmp, "out")
        subprocess.run([a.ubot, "run", world, "--steps", str(a.step), "--out", out,
                        "--no-picture", "--quiet"], check=True)
        # The last image of each camera (5 Hz: every other step).
        for camera, name in (("rgb_camera_0", "warehouse-rgb.png"),
                             ("depth_camera_0", "warehouse-depth.png")):
            folder = os.path.join(out, "robot_1", camera)
            last = os.path.join(folder, sorted(os.listdir(folder))[-1])
            target = os.path.join(a.out, name)
            if camera.startswith("rgb"):
                # Its colours without the alpha mask (0 on the sky), which viewers show as white.
                Image.open(last).convert("RGB").save(target, optimize=True)
            else:
                depth_picture(last, 10.0).save(target, optimize=True)
            print(f"{target}: {os.path.relpath(last, out)}")


if __name__ == "__main__":
    main()
