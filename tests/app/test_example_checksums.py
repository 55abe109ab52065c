#!/usr/bin/env python3
"""Byte-for-byte fixture of the examples' outputs (issue 11, item 9).

Runs every world in examples/ with the CLI for STEPS steps with all outputs on
(--out DIR --render --map DIR/map.las --mcap DIR/run.mcap --mcap-compression none) and compares the SHA-256 of each
output file with tests/data/example_checksums.json. A refactor that must not change what users
see (the sensor registry, the sink interface, the model/state split) keeps this test green; a
change that is meant to alter outputs re-records the file and says so in its commit.

usage: test_example_checksums.py --ubot PATH/TO/ubot [--update]
       (or UBOT_UPDATE_CHECKSUMS=1): --update re-records tests/data/example_checksums.json.

Left out, on purpose: world.png, run.gif and the IMU plots (<object>/imu_N.png). They are
rasterised by Cairo, whose pixman back end picks SIMD paths by CPU and may round anti-aliased
edges differently on another machine; their content is covered by the render and CLI tests.
run.mcap is written uncompressed: its records are ubot's, but zstd's bytes are libzstd's (1.5.4
on Debian 12 and 1.5.7 on Debian 13 compress the same chunks differently).
Everything else (frames.jsonl, run.mcap, map.las, IMU CSVs, points.bin, camera PNGs) is computed
by ubot itself and must be identical on every machine.

No example needs the network: the ROS 2 bridge starts only with --ros2, which this test never
passes (a world's ros2: section then only names the MCAP topics).
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECKSUMS = os.path.join(ROOT, "tests", "data", "example_checksums.json")
STEPS = 50  # small enough for ~5 s in all, enough for every sensor's noise, media and behaviour


def rasterised_by_cairo(relpath):
    parts = relpath.split("/")
    if parts[-1] in ("world.png", "run.gif"):
        return True
    # <object>/<plot>.png are the IMU plots; camera frames sit one level deeper
    # (<object>/<camera>/NNNNNN.png).
    return len(parts) == 2 and parts[1].endswith(".png")


def output_checksums(ubot, world):
    """SHA-256 of every output file of one example, keyed by its path in the output folder."""
    with tempfile.TemporaryDirectory() as out:
        # The world is passed relative to the repository (frames.jsonl records the path as given),
        # so the checksums do not depend on where the checkout lives.
        args = [ubot, "run", f"examples/{world}", "--steps", str(STEPS), "--quiet", "--out", out,
                "--render", "--map", os.path.join(out, "map.las"),
                "--mcap", os.path.join(out, "run.mcap"), "--mcap-compression", "none"]
        result = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
        if result.returncode != 0:
            raise AssertionError(f"{' '.join(args)} exited {result.returncode}: {result.stderr}")
        sums = {}
        for folder, _, files in os.walk(out):
            for name in files:
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, out).replace(os.sep, "/")
                # The manifest is the list of the other files, which are compared by name here.
                if rasterised_by_cairo(rel) or rel == ".ubot-outputs":
                    continue
                with open(path, "rb") as f:
                    sums[rel] = hashlib.sha256(f.read()).hexdigest()
        return dict(sorted(sums.items()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ubot", required=True)
    parser.add_argument("--update", action="store_true",
                        default=os.environ.get("UBOT_UPDATE_CHECKSUMS") == "1")
    args = parser.parse_args()
    worlds = sorted(n for n in os.listdir(os.path.join(ROOT, "examples")) if n.endswith(".yaml"))
    actual = {"steps": STEPS, "worlds": {w: output_checksums(args.ubot, w) for w in worlds}}
    if args.update:
        with open(CHECKSUMS, "w") as f:
            json.dump(actual, f, indent=1)
            f.write("\n")
        print(f"recorded {sum(len(s) for s in actual['worlds'].values())} checksums of "
              f"{len(worlds)} worlds in {CHECKSUMS}")
        return 0
    with open(CHECKSUMS) as f:
        expected = json.load(f)
    failures = []
    if expected["steps"] != STEPS:
        failures.append(f"recorded with {expected['steps']} steps, the test runs {STEPS}")
    for world in sorted(set(expected["worlds"]) | set(actual["worlds"])):
        want, got = expected["worlds"].get(world), actual["worlds"].get(world)
        if want is None or got is None:
            failures.append(f"{world}: {'not recorded' if want is None else 'no longer exists'}")
            continue
        for rel in sorted(set(want) | set(got)):
            if rel not in got:
                failures.append(f"{world}: {rel} is no longer written")
            elif rel not in want:
                failures.append(f"{world}: {rel} is new (not recorded)")
            elif want[rel] != got[rel]:
                failures.append(f"{world}: {rel} differs (sha256 {got[rel]}, recorded {want[rel]})")
    if failures:
        print("outputs differ from tests/data/example_checksums.json:", *failures, sep="\n  ")
        print("If the change is meant, re-record: UBOT_UPDATE_CHECKSUMS=1 (docs/testing.md).")
        return 1
    print(f"{sum(len(s) for s in actual['worlds'].values())} output files of {len(worlds)} "
          "worlds are byte-identical to the recorded ones")
    return 0


if __name__ == "__main__":
    sys.exit(main())
