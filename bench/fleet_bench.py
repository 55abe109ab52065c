#!/usr/bin/env python3
"""The fleet at scale (issue 45): `ubot run bench/worlds/fleet_10000.yaml` with no outputs but the
summary, on 1 and on 2 threads, interleaved; prints each run's real-time factor (simulated time
over wall time, from ubot's own summary line), wall time and peak memory (max RSS).

usage: bench/fleet_bench.py [--ubot build/ubot] [--world bench/worlds/fleet_10000.yaml]
                            [--steps 50] [--repeat 3] [--threads 1,2]
"""

import argparse
import os
import re
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(ubot, world, steps, threads, out):
    """One run: (real-time factor, wall s, peak RSS MiB). The RSS is this child's alone: each run
    is a fresh process and RUSAGE_CHILDREN keeps the largest child's."""
    start = time.monotonic()
    p = subprocess.run([ubot, "run", world, "--steps", str(steps), "--threads", str(threads),
                        "--frames", "none", "--no-picture", "--out", out],
                       capture_output=True, text=True, check=True)
    wall = time.monotonic() - start
    m = re.search(r"\(\d+ steps/s, ([0-9.]+)x real time\)", p.stdout)
    if not m:
        raise SystemExit(f"no summary line in: {p.stdout}")
    return float(m.group(1)), wall


def peak_rss_mib(ubot, world, steps, threads, out):
    """Peak RSS of one run, from a process of its own (RUSAGE_CHILDREN's maximum is per parent)."""
    code = ("import resource, subprocess, sys;"
            "subprocess.run(sys.argv[1:], check=True, capture_output=True);"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    r = subprocess.run(["python3", "-c", code, ubot, "run", world, "--steps", str(steps),
                        "--threads", str(threads), "--frames", "none", "--no-picture", "--out",
                        out, "--quiet"], capture_output=True, text=True, check=True)
    return int(r.stdout) / 1024.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ubot", default=os.path.join(ROOT, "build", "ubot"))
    parser.add_argument("--world", default=os.path.join(ROOT, "bench", "worlds", "fleet_10000.yaml"))
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", default="1,2")
    args = parser.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    factors = {t: [] for t in threads}
    walls = {t: [] for t in threads}
    with tempfile.TemporaryDirectory(prefix="ubot-fleet-") as out:
        for _ in range(args.repeat):
            for t in threads:
                factor, wall = run(args.ubot, args.world, args.steps, t, out)
                factors[t].append(factor)
                walls[t].append(wall)
        rss = peak_rss_mib(args.ubot, args.world, args.steps, max(threads), out)
    print(f"{os.path.relpath(args.world, ROOT)}, {args.steps} steps, no outputs; medians of "
          f"{args.repeat}, interleaved")
    for t in threads:
        print(f"  --threads {t}: {statistics.median(factors[t]):.2f}x real time, "
              f"{statistics.median(walls[t]):.2f} s wall (load and build included)")
    print(f"  peak memory (--threads {max(threads)}): {rss:.0f} MiB")


if __name__ == "__main__":
    main()
