#!/usr/bin/env python3
"""Checks that moving text out of README.md lost nothing: every non-trivial line of README.md at
git revision REV appears in today's README.md or docs/*.md, modulo indentation, heading levels,
link targets and line wrapping. Prints the lines that do not and exits 1 if there are any.

usage: scripts/check-docs-moved.py REV      (e.g. the commit before the move)
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# Old lines reworded on purpose when the README became a landing page, each with where it went.
REWORDED = {
    "out/demo/map.las --mcap out/demo/run.mcap`):": "README: the sentence now goes on to the picture",
    "(format below) |": "README's outputs table: '(format)' links docs/outputs.md",
    "over time ([IMU](#imu)) |": "README's outputs table: links docs/imu.md and the CSV format",
    "Any IR-SIM world runs the same way:": "README: names examples/lidar_world.yaml as IR-SIM's",
    "build/ubot run ../shared/irsim/worlds/lidar_world.yaml --out out/ --render":
        "README: examples/lidar_world.yaml (the shared path is outside the repository; it runs)",
    "Other make targets: `make bench` (benchmarks, below), `make format` / `make format-check`":
        "README: 'benchmarks' links docs/benchmarks.md",
    "(see Perception media); shared by the group": "docs/worlds.md: '(see media.md)'",
    "see \"3D lidar\" below": "docs/worlds.md: 'see sensors.md, \"3D lidar\"'",
    "see \"IMU\" below": "docs/worlds.md: 'see imu.md'",
    "every key and its default: see \"Cameras\"": "docs/worlds.md: 'see sensors.md, \"Cameras\"'",
    "media:                 # perception media, see below": "docs/worlds.md: 'see media.md'",
    "# or Kalibr's names, in place of their counterparts above:":
        "docs/imu.md: a second block (giving both names of one quantity is an error)",
    "the benchmark below has the figures.": "docs/mcap.md: links the benchmark",
    "- Media (section below)": "docs/outputs.md: links docs/media.md",
    "the ROS PointCloud2 below lay it out": "docs/outputs.md: links docs/ros2.md",
    "is in its optical frame, below)": "docs/outputs.md: links the camera frames in docs/sensors.md",
    "# perception media (below); on every lidar": "docs/sensors.md: '(media.md)'",
    "`CameraInfo` (below).": "docs/sensors.md: links docs/ros2.md",
}


def reworded(line):
    return any(key in line for key in REWORDED)


def normalise(text):
    text = re.sub(r"\]\([^)]*\)", "]()", text)           # link targets
    text = re.sub(r"^\s*#+\s+", "", text, flags=re.M)   # heading levels
    return re.sub(r"\s+", " ", text).strip()


def main():
    old = subprocess.run(["git", "-C", ROOT, "show", f"{sys.argv[1]}:README.md"],
                         capture_output=True, text=True, check=True).stdout
    pages = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    corpus = " ".join(normalise(open(p).read()) for p in pages)
    missing = []
    for n, line in enumerate(old.split("\n"), 1):
        text = normalise(line)
        if len(text) < 8 or re.fullmatch(r"[|\-: `]*", text):
            continue                                      # blank, fences, table rules, "```json"
        if text not in corpus and not reworded(line):
            missing.append(f"README.md@{sys.argv[1]}:{n}: {line.strip()}")
    print("\n".join(missing) if missing else "every line of the old README is in the docs")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
