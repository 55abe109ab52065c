#!/usr/bin/env python3
"""Reads the camera topics of an MCAP recording with the readers Foxglove uses (mcap_check.mjs:
@mcap/core, @foxglove/rosmsg, @foxglove/rosmsg2-serialization) and checks every camera_info
against its image and the world file (tests/camera_info_check.py): same header (stamp, optical
frame) and size as the image, plumb_bob with zero distortion, K, R = I and P = [K | 0] from the
world's intrinsics, no binning or ROI; and every image's encoding, step and data length.

usage: check_camera_info_with_foxglove.py --ubot PATH/ubot --npm-dir DIR
The npm packages are installed into DIR (npm registry) when missing, as
check_mcap_with_foxglove.py does (the same packages and folder).
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import camera_info_check  # noqa: E402  (tests/camera_info_check.py)
import npm_readers  # noqa: E402  (tests/npm_readers.py)
from check_mcap_with_foxglove import PACKAGES, check  # noqa: E402
from npm_readers import fail  # noqa: E402
ROOT = os.path.dirname(os.path.dirname(HERE))
WORLD = os.path.join(ROOT, "tests", "data", "camera_info_world.yaml")
STEPS = 6
MS = 1_000_000
# When the cameras sample (docs/sampling.md): the depth camera every 0.1 s step, the 5 Hz rgb
# camera when a 0.2 s grid time has fallen due by the step's end (grid time 0 in the first step).
SAMPLES = {"/viewer/depth_camera_0": [k * 100 * MS for k in range(1, STEPS + 1)],
           "/viewer/rgb_camera_0": [100 * MS, 200 * MS, 400 * MS, 600 * MS]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ubot", required=True)
    parser.add_argument("--npm-dir", required=True)
    args = parser.parse_args()
    node, script = npm_readers.install(args.npm_dir, PACKAGES, os.path.join(HERE, "mcap_check.mjs"),
                                       "check MCAP files with @mcap/core")
    cameras = camera_info_check.world_cameras(WORLD)
    check(set(cameras) == set(SAMPLES), f"the world's cameras: {sorted(cameras)}")
    with tempfile.TemporaryDirectory() as out:
        path = os.path.join(out, "cameras.mcap")
        subprocess.run([args.ubot, "run", WORLD, "--steps", str(STEPS), "--out", out, "--quiet",
                        "--mcap", path], check=True)
        got = npm_readers.run_reader(node, script, [path], "Foxglove's readers")
    schemas = {s["id"]: s["name"] for s in got["schemas"]}
    types = {c["topic"]: schemas[c["schema_id"]] for c in got["channels"]}
    errors, pairs = [], 0
    for prefix, want in cameras.items():
        check(types.get(f"{prefix}/image_raw") == "sensor_msgs/msg/Image" and
              types.get(f"{prefix}/camera_info") == "sensor_msgs/msg/CameraInfo",
              f"{prefix}: channels {types.get(prefix + '/image_raw')}, "
              f"{types.get(prefix + '/camera_info')}")
        images = got["messages"][f"{prefix}/image_raw"]
        infos = got["messages"][f"{prefix}/camera_info"]
        # One camera_info with each image, logged at the same time.
        times = [m["log_time"] for m in images]
        check(times == [m["log_time"] for m in infos],
              f"{prefix}: image and camera_info log times differ")
        check(times == SAMPLES[prefix], f"{prefix}: image log times {times}")
        for n, (image, info) in enumerate(zip(images, infos)):
            where = f"{prefix} message {n}"
            errors += camera_info_check.check_image(image["msg"], want, where,
                                                    len(image["msg"]["data"]))
            errors += camera_info_check.check_info(info["msg"], image["msg"], want, where)
            pairs += 1
    if errors:
        fail("\n".join(errors))
    print(f"cameras.mcap: {pairs} image + camera_info pairs of {len(cameras)} cameras, decoded by "
          "Foxglove's readers, match the world's intrinsics (plumb_bob, zero distortion)")
    print("camera_info_foxglove: passed")


if __name__ == "__main__":
    main()
