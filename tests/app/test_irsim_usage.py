#!/usr/bin/env python3
"""IR-SIM's usage/ worlds (issue 13, item 1): every one validates and runs a few steps, except the
worlds listed in NOT_YET, which must still be refused for the reason given there.

The worlds are IR-SIM's own files, copied unchanged into tests/data/irsim_usage/ (see its
README.md). A world that starts loading while listed in NOT_YET fails the test as much as one that
stops loading: move it out of the list (and update docs/irsim-worlds.md) when its feature lands.

usage: test_irsim_usage.py --ubot PATH/TO/ubot
"""
import argparse
import glob
import json
import math
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
USAGE = os.path.join(ROOT, "tests", "data", "irsim_usage")
STEPS = 5

# World (relative to tests/data/irsim_usage) -> (text the refusal must contain, why, whose work).
NOT_YET = {
    "13custom_behavior/custom_behavior.yaml": ("'dash_custom'", "custom Python behaviour",
                                               "python"),
    "13custom_behavior/custom_smooth_dash.yaml": ("'smooth_dash'", "custom Python behaviour",
                                                  "python"),
    "13custom_behavior/custom_group_behavior.yaml": ("group behaviour 'formation'",
                                                     "custom Python group behaviour", "python"),
    "13custom_behavior/custom_swarm_behavior.yaml": ("group behaviour 'swarm'",
                                                     "custom Python group behaviour", "python"),
}


def run(ubot, args, cwd):
    return subprocess.run([ubot] + args, cwd=cwd, capture_output=True, text=True, timeout=120)


def check_world(ubot, rel, out):
    """Returns a list of problems with one world (empty when it behaves as expected)."""
    folder, name = os.path.split(os.path.join(USAGE, rel))
    validated = run(ubot, ["validate", name], folder)
    if rel in NOT_YET:
        needle, why, _ = NOT_YET[rel]
        if validated.returncode == 0:
            return [f"{rel} now loads, but NOT_YET still lists it ({why}): move it out"]
        if needle not in validated.stderr:
            return [f"{rel} is refused for another reason than {why} ({needle!r} not in the "
                    f"message): {validated.stderr.strip()}"]
        return []
    if validated.returncode != 0:
        return [f"{rel}: ubot validate exited {validated.returncode}: {validated.stderr.strip()}"]
    ran = run(ubot, ["run", name, "--steps", str(STEPS), "--quiet", "--out", out], folder)
    if ran.returncode != 0:
        return [f"{rel}: ubot run exited {ran.returncode}: {ran.stderr.strip()}"]
    with open(os.path.join(out, "frames.jsonl")) as f:
        lines = [json.loads(line) for line in f]
    steps = [line["step"] for line in lines[1:]]
    # A run stops early once every robot is done (IR-SIM's env.done()); none of these worlds is.
    if steps != list(range(1, STEPS + 1)):
        return [f"{rel}: frames.jsonl has steps {steps}, expected 1..{STEPS}"]
    with open(os.path.join(USAGE, rel)) as f:
        fogged = "fog_map: true" in f.read()
    if fogged:
        # The robot's lidar or field of view reveals the fog, more of it as it moves.
        ratios = [line["fog"]["explored_ratio"] for line in lines[1:]]
        if not (0 < ratios[0] <= ratios[-1] < 1) or ratios != sorted(ratios):
            return [f"{rel}: fog explored ratios {ratios} do not grow from above 0"]
    elif any("fog" in line for line in lines[1:]):
        return [f"{rel}: a world without fog_map reports a fog"]
    return []


def check_has_velocity(ubot, out):
    """No usage world has a lidar with has_velocity; tests/data/compound_lidar_world.yaml does:
    frames.jsonl gives each beam the world velocity of what it hit (the obstacle moving at
    0.5 m/s towards -y, or [0, 0] for the static one and misses)."""
    world = os.path.join(ROOT, "tests", "data", "compound_lidar_world.yaml")
    ran = run(ubot, ["run", world, "--steps", "20", "--quiet", "--out", out], ROOT)
    if ran.returncode != 0:
        return [f"compound_lidar_world: ubot run exited {ran.returncode}: {ran.stderr.strip()}"]
    with open(os.path.join(out, "frames.jsonl")) as f:
        scans = [s for line in list(f)[1:] for s in json.loads(line)["sensors"]]
    velocities = [v for s in scans for v in s.get("velocity", [])]
    if len(scans) != 20 or len(velocities) != 20 * 90:
        return [f"compound_lidar_world: {len(scans)} scans, {len(velocities)} beam velocities"]
    # Its heading stays -1.5708 (within dash's angle tolerance of the goal's bearing -pi/2), its
    # speed 0.5 cos(error): world velocity speed * (cos, sin) of the heading.
    heading = -1.5708
    speed = 0.5 * math.cos(-math.pi / 2 - heading)
    expected = [speed * math.cos(heading), speed * math.sin(heading)]
    moving = [v for v in velocities if v != [0, 0]]
    if not moving or any(math.dist(v, expected) > 1e-12 for v in moving):
        return [f"compound_lidar_world: beam velocities {moving[:3]} are not {expected}"]
    return []


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ubot", required=True)
    args = parser.parse_args()
    args.ubot = os.path.abspath(args.ubot)  # the worlds run from their own folders
    worlds = sorted(os.path.relpath(p, USAGE) for p in glob.glob(os.path.join(USAGE, "*", "*.yaml")))
    problems = []
    # 2.10.2's 55, and 2.12.0's sfm_group_world.yaml (the `sfm` group behaviour).
    if len(worlds) != 56:
        problems.append(f"expected IR-SIM's 56 usage worlds in {USAGE}, found {len(worlds)}")
    for rel in NOT_YET:
        if rel not in worlds:
            problems.append(f"NOT_YET lists {rel}, which is not in {USAGE}")
    out = os.path.join("/tmp", f"ubot_irsim_usage_{os.getpid()}")
    try:
        for rel in worlds:
            shutil.rmtree(out, ignore_errors=True)
            problems += check_world(args.ubot, rel, out)
        shutil.rmtree(out, ignore_errors=True)
        problems += check_has_velocity(args.ubot, out)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    loaded = len(worlds) - len(NOT_YET)
    if problems:
        print("\n".join(problems))
        return 1
    print(f"{loaded} of {len(worlds)} IR-SIM usage worlds validate and run {STEPS} steps; "
          f"{len(NOT_YET)} are refused as expected (NOT_YET)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
