#!/usr/bin/env python3
"""IR-SIM, ir-sim[fast], irsim-x and ubot side by side: ms per step on five worlds (issue 48).

    python3 bench/irsim_side_by_side.py --runs 3 \
        --irsim-python /tmp/venv-irsim/bin/python \
        --irsim-fast-python /tmp/venv-irsim-fast/bin/python \
        --irsimx-python /tmp/venv-irsimx/bin/python

Each simulator runs in its own venv (irsim-x installs a package named `irsim` too):
    python3 -m venv /tmp/venv-irsim && /tmp/venv-irsim/bin/pip install ir-sim==2.12.0 pyrvo
    python3 -m venv /tmp/venv-irsim-fast \
        && /tmp/venv-irsim-fast/bin/pip install 'ir-sim[fast]' numba pyrvo
    python3 -m venv /tmp/venv-irsimx && /tmp/venv-irsimx/bin/pip install irsim-x==1.1.4 \
        && /tmp/venv-irsimx/bin/pip install --no-deps pyrvo   # pyrvo requires ir-sim: keep it out
A missing interpreter option leaves its column "not run". The ir-sim[fast] column runs only when
that venv's IR-SIM declares the `fast` extra and numba imports (IR-SIM 2.12.0 has no such extra).

For each world and configuration, over the same window of the run (from step 0: --warmup steps,
then --steps timed, rendering off, seed 0), the median of --runs of:
  - IR-SIM, ir-sim[fast], irsim-x, ubot's Python loop: a child interpreter runs
    ``irsim.make(world, display=False, seed=0)`` (``ubot.irsim.make`` for ubot) from the world's
    folder and steps it; JSON back on stdout: wall and CPU ms per timed step (CPU time counts
    every thread of the process);
  - the ubot CLI: ``ubot run WORLD --steps WARMUP+STEPS --frames none --no-picture --timings``:
    ms per step from its --timings line (all its steps; a run ends early when every robot is
    done, the cell says so), and the wall time of the whole process (loading included). Both
    ubot columns use ubot's default threads (all cores).
The runs are interleaved (run 1 of every column, then run 2, ...) so a change of load hits every
column alike. Then ratios (ubot vs IR-SIM's fastest configuration, goal >= 100x; vs irsim-x,
goal >= 10x), and, with --diff-steps N > 0, where irsim-x (and ubot's Python layer) depart from
IR-SIM: every object's (x, y, theta) and every lidar's ranges after each of N steps (from the
same seed), the max difference per world, the share of ranges more than 1 mm apart, and the
first step more than 1e-6 apart. os.getloadavg() is printed at the start and the end.
"""

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
USAGE = os.path.join(ROOT, "tests/data/irsim_usage")  # IR-SIM's usage/ worlds, unchanged
# (label, world file)
WORLDS = [
    ("`lidar_world.yaml`: 1 diff robot, 200-beam lidar, 4 obstacles",
     os.path.join(USAGE, "05lidar_world/lidar_world.yaml")),
    ("`bench/worlds/lidar_robots_10.yaml`: 10 robots (`rvo`), 360-beam lidars, 50 obstacles",
     os.path.join(ROOT, "bench/worlds/lidar_robots_10.yaml")),
    ("`bench/worlds/rvo_100.yaml`: 100 diff robots, `rvo`",
     os.path.join(ROOT, "bench/worlds/rvo_100.yaml")),
    ("`collision_avoidance.yaml`: 10 diff robots, `rvo`",
     os.path.join(USAGE, "11collision_avoidance/collision_avoidance.yaml")),
    ("`orca_behavior_world.yaml`: 200 omni robots, `orca` (pyrvo)",
     os.path.join(USAGE, "19orca_world/orca_behavior_world.yaml")),
]
# (key, column heading); the Python configurations run CHILD with their interpreter
PYTHON_COLUMNS = [("irsim", "IR-SIM 2.12.0"), ("fast", "ir-sim[fast]"),
                  ("irsimx", "irsim-x 1.1.4"), ("ubot_py", "ubot Python loop")]

CHILD = r"""
import importlib, importlib.util, json, os, sys, time, warnings
warnings.filterwarnings("ignore")
module, mode, world = sys.argv[1], sys.argv[2], sys.argv[3]
warmup, steps = int(sys.argv[4]), int(sys.argv[5])
irsim = importlib.import_module(module)


def fast_backend():
    from importlib import metadata
    try:
        extras = metadata.metadata("ir-sim").get_all("Provides-Extra") or []
    except metadata.PackageNotFoundError:
        return False
    return "fast" in extras and importlib.util.find_spec("numba") is not None


def sample(env):
    states = [[float(v) for v in obj.state[:3, 0]] for obj in env.objects]
    scans = [[float(r) for r in obj.get_lidar_scan()["ranges"]]
             for obj in env.objects if getattr(obj, "lidar", None) is not None]
    return {"states": states, "scans": scans}


if mode == "info":
    print(json.dumps({"version": irsim.__version__, "fast": fast_backend()}))
    sys.exit()
os.chdir(os.path.dirname(world))
env = irsim.make(os.path.basename(world), display=False, seed=0, log_level="ERROR")
if mode == "trace":  # not the state before step 1: IR-SIM's first scan misses later objects
    trace = []
    for _ in range(steps):
        env.step()
        trace.append(sample(env))
    print(json.dumps({"trace": trace}))
    sys.exit()
for _ in range(warmup):
    env.step()
start, cpu = time.perf_counter(), time.process_time()
for _ in range(steps):
    env.step()
print(json.dumps({"ms_per_step": (time.perf_counter() - start) / steps * 1e3,
                  "cpu_ms_per_step": (time.process_time() - cpu) / steps * 1e3}))
"""


def child(python: str, module: str, mode: str, world: str, warmup: int, steps: int) -> dict:
    """Run CHILD in `python`; its last stdout line as a dict, or {"error": the last stderr line}."""
    env = dict(os.environ, MPLBACKEND="Agg")
    for name in ("DISPLAY", "PYTHONPATH"):
        env.pop(name, None)
    done = subprocess.run([python, "-c", CHILD, module, mode, world, str(warmup), str(steps)],
                          env=env, capture_output=True, text=True)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        errors = done.stderr.strip().splitlines() or [f"exit {done.returncode}"]
        return {"error": errors[-1][:120]}
    return json.loads(lines[-1])


def ubot_cli(build: str, world: str, steps: int) -> dict:
    """ms per step from `ubot run --timings` and the whole process's wall time."""
    with tempfile.TemporaryDirectory(prefix=f"ubot_side_{os.getpid()}_") as out:
        start = time.perf_counter()
        try:
            done = subprocess.run(
                [os.path.join(build, "ubot"), "run", world, "--steps", str(steps), "--out", out,
                 "--frames", "none", "--no-picture", "--quiet", "--timings"],
                capture_output=True, text=True)
        except OSError as error:  # no ubot, or one being relinked
            return {"error": str(error)[:120]}
        wall = time.perf_counter() - start
    found = re.search(r"timings over (\d+) steps \(wall, ms per step\): world ([\d.]+) "
                      r"\(behaviours ([\d.]+)\), scene ([\d.]+), sensors ([\d.]+), "
                      r"fog ([\d.]+), outputs ([\d.]+)", done.stdout + done.stderr)
    if done.returncode != 0 or not found:
        return {"error": (done.stderr.strip().splitlines() or ["no --timings line"])[-1][:120]}
    world_ms, behaviours, scene, sensors, fog, outputs = map(float, found.groups()[1:])
    return {"ms_per_step": world_ms + scene + sensors + fog + outputs, "steps": int(found[1]),
            "process_s": wall, "world": world_ms, "behaviours": behaviours, "scene": scene,
            "sensors": sensors}


def median_of(samples: list) -> dict:
    """The median of each numeric field over runs; the first error if any run failed."""
    failed = [s for s in samples if "error" in s]
    if failed:
        return failed[0]
    return {key: statistics.median(s[key] for s in samples) for key in samples[0]}


def time_world(world: str, pythons: dict, args) -> dict:
    """{column key: median result} for one world, the runs interleaved across the columns."""
    samples = {key: [] for key in list(pythons) + ["ubot_cli"]}
    for _ in range(args.runs):
        for key, (python, module) in pythons.items():
            samples[key].append(child(python, module, "time", world, args.warmup, args.steps))
        samples["ubot_cli"].append(ubot_cli(args.build, world, args.warmup + args.steps))
    return {key: median_of(runs) for key, runs in samples.items()}


def usable_pythons(args) -> tuple:
    """({column key: (interpreter, module)}, {column key: why it is not run})."""
    given = {"irsim": args.irsim_python, "fast": args.irsim_fast_python,
             "irsimx": args.irsimx_python, "ubot_py": args.ubot_python}
    pythons, skipped = {}, {}
    for key, python in given.items():
        module = "ubot.irsim" if key == "ubot_py" else "irsim"
        if not python or not os.access(python, os.X_OK):
            skipped[key] = f"not run{': no ' + python if python else ''}"
            continue
        info = child(python, module, "info", ROOT, 0, 0)
        if "error" in info:
            skipped[key] = f"not run: {info['error']}"
        elif key == "fast" and not info["fast"]:
            skipped[key] = f"n/a: ir-sim {info['version']} has no [fast] extra (numba backend)"
        else:
            pythons[key] = (python, module)
    return pythons, skipped


def cell(result: dict) -> str:
    if "error" in result:
        return f"fails: {result['error']}"
    return f"{result['ms_per_step']:.3f} ({result['cpu_ms_per_step']:.3f})"


def cli_cell(result: dict, steps: int) -> str:
    if "error" in result:
        return f"fails: {result['error']}"
    text = f"{result['ms_per_step']:.3f} ({result['process_s']:.2f} s)"
    if result["steps"] < steps:
        text += f", {result['steps']:.0f} steps: all robots done"
    return text


def ratio(ours: dict, theirs: dict, goal: float) -> str:
    if not ours or not theirs or "error" in ours or "error" in theirs:
        return "–"
    times = theirs["ms_per_step"] / ours["ms_per_step"]
    return f"{times:.0f}×" + ("" if times >= goal else " ✗")


def fastest_irsim(results: dict) -> dict:
    timed = [results[k] for k in ("irsim", "fast") if k in results and "error" not in results[k]]
    return min(timed, key=lambda r: r["ms_per_step"]) if timed else {}


def print_times(rows: list, skipped: dict, args) -> None:
    heads = [head for _, head in PYTHON_COLUMNS[:3]]
    print("| world | " + " | ".join(heads) + " | ubot CLI (whole process) | ubot Python loop |")
    print("|---" * 6 + "|")
    for label, results in rows:
        cells = [skipped.get(key) or cell(results[key]) for key, _ in PYTHON_COLUMNS]
        cli = cli_cell(results["ubot_cli"], args.warmup + args.steps)
        print(f"| {label} | " + " | ".join(cells[:3] + [cli, cells[3]]) + " |")


def print_ratios(rows: list) -> None:
    print("Wall time ratios; ✗: below the goal (100× IR-SIM's fastest, 10× irsim-x)\n")
    print("| world | CLI vs IR-SIM's fastest | CLI vs irsim-x | Python vs IR-SIM's fastest "
          "| Python vs irsim-x | ubot CLI step (ms): world (behaviours), scene, sensors |")
    print("|---" * 6 + "|")
    for label, results in rows:
        best, theirs_x = fastest_irsim(results), results.get("irsimx")
        cli, py = results["ubot_cli"], results.get("ubot_py")
        split = "–" if "error" in cli else (
            f"{cli['world']:.3f} ({cli['behaviours']:.3f}), {cli['scene']:.3f}, "
            f"{cli['sensors']:.3f}")
        print(f"| {label} | {ratio(cli, best, 100)} | {ratio(cli, theirs_x, 10)} | "
              f"{ratio(py, best, 100)} | {ratio(py, theirs_x, 10)} | {split} |")


def angle_gap(a: float, b: float) -> float:
    return abs(math.remainder(a - b, 2 * math.pi))


def trace_gap(ours: dict, theirs: dict) -> str:
    """The largest pose and range differences between two traces, or why they do not compare."""
    if "error" in ours or "error" in theirs:
        return "fails: " + (ours.get("error") or theirs.get("error"))
    pos = ang = rng = 0.0
    first, beams, off = None, 0, 0
    for step, (a, b) in enumerate(zip(ours["trace"], theirs["trace"]), start=1):
        if len(a["states"]) != len(b["states"]) or len(a["scans"]) != len(b["scans"]):
            return f"{len(a['states'])} vs {len(b['states'])} objects"
        for s, t in zip(a["states"], b["states"]):
            pos = max(pos, abs(s[0] - t[0]), abs(s[1] - t[1]))
            ang = max(ang, angle_gap(s[2], t[2]))
        for s, t in zip(a["scans"], b["scans"]):
            if len(s) != len(t):
                return f"{len(s)} vs {len(t)} beams"
            gaps = [abs(x - y) for x, y in zip(s, t)]
            rng = max([rng] + gaps)
            beams, off = beams + len(gaps), off + sum(g > 1e-3 for g in gaps)
        if first is None and max(pos, ang, rng) > 1e-6:
            first = step
    if max(pos, ang, rng) == 0:
        return "identical"
    text = f"x/y {pos:.2g} m, θ {ang:.2g} rad"
    if beams:
        text += f", ranges {rng:.2g} m ({100 * off / beams:.2g} % of them > 1 mm)"
    return text + (f"; over 1e-6 from step {first}" if first else "")


def print_diffs(pythons: dict, args) -> None:
    if "irsim" not in pythons:
        print("(no --irsim-python: no trace comparison)")
        return
    others = [k for k in ("fast", "irsimx", "ubot_py") if k in pythons]
    heads = {"fast": "ir-sim[fast] vs IR-SIM", "irsimx": "irsim-x 1.1.4 vs IR-SIM 2.12.0",
             "ubot_py": "ubot.irsim vs IR-SIM 2.12.0"}
    print("| world | " + " | ".join(heads[k] for k in others) + " |")
    print("|---" * (1 + len(others)) + "|")
    for label, world in WORLDS:
        traces = {k: child(*pythons[k], "trace", world, 0, args.diff_steps)
                  for k in ["irsim"] + others}
        gaps = [trace_gap(traces[k], traces["irsim"]) for k in others]
        print(f"| {label} | " + " | ".join(gaps) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--diff-steps", type=int, default=50)
    parser.add_argument("--irsim-python", default="")
    parser.add_argument("--irsim-fast-python", default="")
    parser.add_argument("--irsimx-python", default="")
    parser.add_argument("--ubot-python", default=os.path.join(ROOT, "build/venv/bin/python"))
    args = parser.parse_args()
    began, load = time.perf_counter(), os.getloadavg()
    pythons, skipped = usable_pythons(args)
    rows = []
    for label, world in WORLDS:
        rows.append((label, time_world(world, pythons, args)))
        print(f"timed {os.path.basename(world)}", file=sys.stderr, flush=True)
    print(f"ms per step, wall (CPU), {args.warmup} warm-up steps then {args.steps} timed, "
          f"rendering off, seed 0; medians of {args.runs} runs. The CLI: wall ms per step from "
          "--timings (the whole process's wall time)\n")
    print_times(rows, skipped, args)
    print()
    print_ratios(rows)
    if args.diff_steps > 0:
        print(f"\nLargest difference from IR-SIM over {args.diff_steps} steps, seed 0 "
              "(every object's x, y, θ; every lidar's ranges):\n")
        print_diffs(pythons, args)
    end = os.getloadavg()
    print(f"\nload average (1, 5, 15 min): {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start, "
          f"{end[0]:.2f} {end[1]:.2f} {end[2]:.2f} at the end; "
          f"{time.perf_counter() - began:.0f} s in all")


if __name__ == "__main__":
    main()
