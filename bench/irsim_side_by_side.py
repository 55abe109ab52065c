#!/usr/bin/env python3
"""IR-SIM's 200-robot ORCA world and its cave grid map with a lidar robot, ubot next to IR-SIM.

    /usr/bin/python3 bench/irsim_side_by_side.py [--build build] [--runs 3] \
        [--irsim-path /tmp/shapely2:/tmp/pyrvo_build:/work/shared/irsim/tools/shim:/tmp/irsim-src]

The figures in docs/irsim-worlds.md#benchmarks. For each world, over the same window of the run
(from step 0: 5 warm-up steps, then 100 timed, rendering off):
  - IR-SIM: ``irsim.make(world, display=False, seed=0)`` in a child interpreter whose
    PYTHONPATH is --irsim-path (IR-SIM's checkout, Shapely 2, pyrvo for `orca`, and the
    ``ir-sim`` metadata stub an uninstalled checkout needs; docs/irsim-parity.md says how to
    build them), run from the world's folder as IR-SIM's scripts are; its ms per step, and the
    wall time of make() plus the 105 steps;
  - ubot: bench_irsim_worlds (one full Simulation step, 1 thread: wall and CPU time), and the
    wall time of the whole process `ubot run WORLD --steps 105` (loading, outputs written).
Medians of --runs. Without --irsim-path (empty) only ubot is timed.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_IRSIM_PATH = "/tmp/shapely2:/tmp/pyrvo_build:/work/shared/irsim/tools/shim:/tmp/irsim-src"
WARMUP, STEPS = 5, 100
# (label, world relative to the source tree, benchmark in bench_irsim_worlds)
WORLDS = [
    ("orca_behavior_world.yaml (200 omni, orca)",
     "tests/data/irsim_usage/19orca_world/orca_behavior_world.yaml", "BM_OrcaBehaviorWorld"),
    ("grid_cave_world.yaml (cave grid, acker, 100-beam lidar)",
     "tests/data/grid_cave_world.yaml", "BM_GridCaveWorld"),
]

IRSIM_LOOP = r"""
import json, sys, time
import irsim
world, warmup, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
start = time.perf_counter()
env = irsim.make(world, display=False, seed=0, log_level="ERROR")
for _ in range(warmup):
    env.step()
timed = time.perf_counter()
for _ in range(steps):
    env.step()
end = time.perf_counter()
env.end(0)
print(json.dumps({"ms_per_step": (end - timed) / steps * 1e3, "run_s": end - start}))
"""


def irsim_run(world: str, pythonpath: str) -> dict:
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=pythonpath)
    env.pop("DISPLAY", None)
    done = subprocess.run(
        ["/usr/bin/python3", "-c", IRSIM_LOOP, os.path.basename(world), str(WARMUP), str(STEPS)],
        cwd=os.path.dirname(world), env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def ubot_benchmark(build: str, name: str, runs: int) -> dict:
    """Median wall and CPU µs per step of one bench_irsim_worlds benchmark."""
    done = subprocess.run(
        [os.path.join(build, "bench", "bench_irsim_worlds"), f"--benchmark_filter=^{name}(/|$)",
         f"--benchmark_repetitions={runs}", "--benchmark_format=json"],
        capture_output=True, text=True, check=True)
    rows = [b for b in json.loads(done.stdout)["benchmarks"] if b["run_type"] == "iteration"]
    scale = {"us": 1.0, "ms": 1e3, "ns": 1e-3}[rows[0]["time_unit"]]
    return {"wall_us": statistics.median(b["real_time"] for b in rows) * scale,
            "cpu_us": statistics.median(b["cpu_time"] for b in rows) * scale}


def ubot_run_seconds(build: str, world: str) -> float:
    with tempfile.TemporaryDirectory(prefix=f"ubot_side_{os.getpid()}_") as out:
        start = time.perf_counter()
        subprocess.run([os.path.join(build, "ubot"), "run", world, "--steps", str(WARMUP + STEPS),
                        "--out", out, "--quiet"], check=True, capture_output=True)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--irsim-path", default=DEFAULT_IRSIM_PATH)
    args = parser.parse_args()
    print(f"{WARMUP} warm-up steps, then {STEPS} timed; medians of {args.runs} runs")
    for label, relative, bench in WORLDS:
        world = os.path.join(ROOT, relative)
        ours = ubot_benchmark(args.build, bench, args.runs)
        run_s = statistics.median(ubot_run_seconds(args.build, world) for _ in range(args.runs))
        print(f"\n{label}")
        rate = 1e6 / ours["wall_us"]
        print(f"  ubot   step {ours['wall_us']:9.1f} us wall ({rate:8.0f} steps/s),"
              f" {ours['cpu_us']:.1f} us CPU; `ubot run --steps {WARMUP + STEPS}` {run_s:.3f} s")
        if not args.irsim_path:
            continue
        theirs = [irsim_run(world, args.irsim_path) for _ in range(args.runs)]
        ms = statistics.median(r["ms_per_step"] for r in theirs)
        irsim_s = statistics.median(r["run_s"] for r in theirs)
        print(f"  IR-SIM step {ms * 1e3:9.1f} us wall ({1e3 / ms:8.1f} steps/s);"
              f" make() + {WARMUP + STEPS} steps {irsim_s:.3f} s;"
              f" ubot is {ms * 1e3 / ours['wall_us']:.0f}x faster a step")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
