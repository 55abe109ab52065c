#!/usr/bin/env python3
"""What the outputs of a large run cost (docs/large-runs.md, issue 44): `ubot run` on the scale
world of the benchmarks (1000 wandering diff robots with 360-beam lidars among 500 obstacles,
200 m x 200 m; bench/bench_worlds.h's lidar_robots_yaml(1000, 500, 200, "unobstructed"),
generated here with Python's own seeded generator) for 100 steps, once with no outputs and once
with each set of outputs, interleaved, so that every case sees the same machine load.

usage: bench/output_cost.py [--ubot build/ubot] [--steps 100] [--robots 1000] [--repeat 3]
                            [--threads 2] [--dir /tmp/ubot-output-cost]

Prints each case's median wall time (and the min), its cost over the no-output run in %, and
its CPU time (user + system: what the outputs cost when other work shares the cores).
"""

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CASES = [
    ("no outputs", ["--frames", "none", "--no-picture"]),
    ("world.png", ["--frames", "none"]),
    ("frames.jsonl every step", ["--no-picture"]),
    ("frames.parquet every step", ["--frames-format", "parquet", "--no-picture"]),
    ("--render (run.gif)", ["--frames", "none", "--render"]),
    ("frames.jsonl + world.png + --render", ["--render"]),
    ("frames.parquet + world.png + --render", ["--frames-format", "parquet", "--render"]),
]


def world_yaml(robots, obstacles, size, seed=42):
    rng = random.Random(seed)
    lines = [
        f"world: {{width: {size}, height: {size}, step_time: 0.1, collision_mode: unobstructed}}",
        "robot:",
        f"  - number: {robots}",
        f"    distribution: {{name: random, range_low: [1, 1, -3.14], "
        f"range_high: [{size - 1}, {size - 1}, 3.14]}}",
        "    kinematics: {name: diff}",
        "    shape: {name: circle, radius: 0.2}",
        f"    behavior: {{name: dash, wander: true, range_low: [1, 1, -3.14], "
        f"range_high: [{size - 1}, {size - 1}, 3.14]}}",
        "    sensors:",
        "      - {name: lidar2d, range_max: 10, angle_range: 6.283185307179586, number: 360}",
        "obstacle:",
    ]
    for i in range(obstacles):
        x, y = rng.uniform(1, size - 1), rng.uniform(1, size - 1)
        if i % 2 == 0:
            lines.append(f"  - {{shape: {{name: circle, radius: {rng.uniform(0.2, 0.8)}}}, "
                         f"state: [{x}, {y}, 0]}}")
        else:
            lines.append(f"  - {{shape: {{name: rectangle, length: {rng.uniform(0.4, 1.6)}, "
                         f"width: {rng.uniform(0.4, 1.6)}}}, state: [{x}, {y}, "
                         f"{rng.uniform(-3, 3)}]}}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ubot", default=os.path.join(ROOT, "build", "ubot"))
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--robots", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--dir", default="/tmp/ubot-output-cost")
    parser.add_argument("--cases", default="", help="comma-separated case numbers (default all)")
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    world = os.path.join(args.dir, "world.yaml")
    with open(world, "w") as f:
        f.write(world_yaml(args.robots, 500, 200))
    cases = CASES
    if args.cases:
        cases = [CASES[int(i)] for i in args.cases.split(",")]
    times = {name: [] for name, _ in cases}
    cpu = {name: [] for name, _ in cases}
    for _ in range(args.repeat):
        for name, flags in cases:
            out = os.path.join(args.dir, "out")
            shutil.rmtree(out, ignore_errors=True)
            start = time.monotonic()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([args.ubot, "run", world, "--steps", str(args.steps), "--out", out,
                            "--threads", str(args.threads), "--quiet", "--seed", "1", *flags],
                           check=True)
            times[name].append(time.monotonic() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    base = statistics.median(times[cases[0][0]])
    print(f"{args.robots} robots, {args.steps} steps, --threads {args.threads}; wall s, median "
          f"(min) of {args.repeat}, interleaved; then CPU s (user + sys), median")
    for name, _ in cases:
        t = times[name]
        print(f"  {name:40s} {statistics.median(t):7.2f} ({min(t):.2f})  "
              f"{100 * (statistics.median(t) / base - 1):+6.0f} %   "
              f"CPU {statistics.median(cpu[name]):6.2f}")


if __name__ == "__main__":
    main()
