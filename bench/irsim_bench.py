#!/usr/bin/env python3
"""IR-SIM's lidar_world.py loop under ubot.irsim and under IR-SIM itself, side by side.

    PYTHONPATH=build/python /usr/bin/python3 bench/irsim_bench.py [--steps 300] \
        [--irsim-path /tmp/shapely2:/work/shared/irsim/tools/shim:/tmp/irsim-src]

Each side runs ``env.step(); env.render(0.05)`` (display off, no animation saved: IR-SIM
still draws its matplotlib figure each render, ubot draws nothing) and, separately,
``env.step()`` alone, for --steps steps of lidar_world.yaml, and prints steps/s. IR-SIM runs
in a child interpreter with --irsim-path as its PYTHONPATH; without it only ubot is timed.
"""

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORLD = os.path.join(ROOT, "tests", "data", "irsim_usage", "05lidar_world", "lidar_world.yaml")

LOOP = r"""
import json, sys, time
import irsim
steps, world = int(sys.argv[1]), sys.argv[2]
out = {}
for mode in ("step", "step+render"):
    env = irsim.make(world, display=False, save_ani=False)
    start = time.perf_counter()
    for _ in range(steps):
        env.step()
        if mode == "step+render":
            env.render(0.05)
    out[mode] = steps / (time.perf_counter() - start)
    env.end(0)
print(json.dumps(out))
"""


def run_side(pythonpath: str, use_ubot: bool, steps: int) -> dict:
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=pythonpath)
    env.pop("DISPLAY", None)
    if use_ubot:
        cmd = [sys.executable, "-c", "import sys; from ubot.irsim.__main__ import install;"
               " install(); exec(sys.argv.pop(1))", LOOP, str(steps), WORLD]
    else:
        cmd = [sys.executable, "-c", LOOP, str(steps), WORLD]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--irsim-path", default="")
    args = parser.parse_args()
    ours = run_side(os.environ.get("PYTHONPATH", ""), True, args.steps)
    theirs = run_side(args.irsim_path, False, args.steps) if args.irsim_path else None
    print(f"lidar_world.yaml, {args.steps} steps, one run each")
    print(f"{'loop':<14}{'ubot.irsim steps/s':>20}{'IR-SIM steps/s':>18}{'ratio':>10}")
    for mode, rate in ours.items():
        if theirs:
            print(f"{mode:<14}{rate:>20.0f}{theirs[mode]:>18.1f}{rate / theirs[mode]:>9.0f}x")
        else:
            print(f"{mode:<14}{rate:>20.0f}{'-':>18}{'-':>10}")


if __name__ == "__main__":
    main()
