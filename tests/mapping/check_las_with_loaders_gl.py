#!/usr/bin/env python3
"""Reads ubot's LAS files with an independent reader, npm @loaders.gl/las, and compares counts,
coordinates (within the LAS scale) and intensities / colours with what was written.

usage: check_las_with_loaders_gl.py --fixture PATH/las_fixture --npm-dir DIR
The npm packages are installed into DIR (npm registry) when missing. Without node or npm the
test fails: CI has them (scripts/install-deps.sh test).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

PACKAGES = ["@loaders.gl/las@4.5.1", "@loaders.gl/core@4.4.5"]  # las 4.5 wants core ~4.4
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import npm_readers  # noqa: E402  (tests/npm_readers.py)
from npm_readers import fail  # noqa: E402
SCALE = 0.001


def install(npm_dir):
    return npm_readers.install(npm_dir, PACKAGES, os.path.join(HERE, "las_check.mjs"),
                               "check LAS files with @loaders.gl/las")


def read_with_loaders_gl(node, script, las, *flags):
    return npm_readers.run_reader(node, script, [las, *flags], "@loaders.gl/las")


def max_error(positions, points):
    return max(abs(positions[3 * i + k] - p[k]) for i, p in enumerate(points) for k in range(3))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fixture", required=True)
    parser.add_argument("--npm-dir", required=True)
    args = parser.parse_args()
    node, script = install(args.npm_dir)
    checks = 0
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([args.fixture, out], check=True)
        expected = json.load(open(os.path.join(out, "expected.json")))
        for f in expected["files"]:
            name = os.path.basename(f["las"])
            got = read_with_loaders_gl(node, script, f["las"])
            n = len(f["expected"])
            if got["version"] != "1.4" or got["point_format"] != f["point_format"]:
                fail(f"{name}: read as LAS {got['version']} format {got['point_format']}")
            if got["count"] != n or len(got["positions"]) != 3 * n:
                fail(f"{name}: {got['count']} points, expected {n}")
            if got["position_type"] != "Float64Array":
                fail(f"{name}: fp64 positions came back as {got['position_type']}")
            # Same decoding as ours, and within one LAS unit of the positions written.
            e_ours = max_error(got["positions"], f["ours"])
            e_written = max_error(got["positions"], f["expected"])
            if e_ours > 1e-9:
                fail(f"{name}: loaders.gl and ubot decode positions {e_ours} m apart")
            if e_written > SCALE + 1e-9:
                fail(f"{name}: positions {e_written} m from those written (LAS scale {SCALE})")
            if got["intensities"] != f["intensities"]:
                fail(f"{name}: intensities differ")
            if f["rgb"] is not None:
                # loaders.gl scales 16-bit colours to 8 bits (RGBA).
                for i, rgb in enumerate(f["rgb"]):
                    if got["colors"][4 * i:4 * i + 3] != [int(c) // 256 for c in rgb]:
                        fail(f"{name}: colour of point {i} differs: {got['colors'][4*i:4*i+3]} "
                             f"vs {rgb}")
            # Its float32 default loses precision 10 km out (the reason for fp64: true).
            fp32 = read_with_loaders_gl(node, script, f["las"], "--fp32")
            e32 = max_error(fp32["positions"], f["ours"])
            if not (1e-4 < e32 < 1e-3):
                fail(f"{name}: float32 positions are {e32} m off; expected 0.1-1 mm at 10 km")
            print(f"{name}: {n} points; fp64 within {e_written * 1000:.3f} mm of the written "
                  f"positions; float32 default off by up to {e32 * 1000:.3f} mm")
            checks += 1
    print(f"{checks} passed, 0 failed")


if __name__ == "__main__":
    main()
