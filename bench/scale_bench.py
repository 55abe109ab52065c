#!/usr/bin/env python3
"""How a fleet's step cost grows with size (issue 45; docs/benchmarks.md, "How cost grows with
size"): generates fleet worlds like bench/worlds/fleet_10000.yaml at the same density for several
robot counts, times `ubot run --timings` on each, and measures the machine's limit for the same
rays with bench_fleet_rays.

usage: bench/scale_bench.py [--build build] [--robots 100,200,500,1000,2000,5000,10000,20000]
                            [--threads 1] [--repeat 3] [--seconds 3] [--min-seconds 0.5]
                            [--dir DIR] [--plot docs/images/scaling.png]

Each world (fleet_world below): one robot per 40 m² on a square site of side sqrt(40 * robots),
70 % pickers (270°, 10 m, 270-beam lidars), 20 % tuggers (360°, 20 m, 360 beams), 10 % RVO cell
robots (360°, 8 m, 180 beams) in a cell at the south-west corner whose side is the same fraction
of the site's as in fleet_10000.yaml (200 m of 632), and half as many obstacles as robots (half
0.4 m circles, half 6 m x 1.2 m shelving runs). For 10,000 robots it is fleet_10000.yaml itself.

For each count and thread count, medians of --repeat runs (interleaved):
  - `ubot run W --steps K --threads T --frames none --no-picture --timings`: the world step
    (less its behaviours), the behaviours, the scene refit, the scans (`sensors`); K is chosen
    so a run steps for about --seconds (at least 10 steps), from the previous count's time;
  - the same with Parquet records every step (`--frames every --frames-format parquet`), at
    most 100,000 robot-steps: the `outputs` figure (writing the records each step; finishing
    the files at the end is not in it).
The total is world + scene + scans + fog + outputs: a step that records everything. The scans'
rays/s = rays of one step (every lidar's beams; every lidar fires every 0.1 s step) / the
`sensors` time. bench_fleet_rays (bench/fleet_rays.cpp) then casts the same scans through
ubot's Scene::cast_fan and through raw Embree (16-wide packets, single rays) on one thread, for
at least --min-seconds each (Google Benchmark, CPU time).

Prints the table as markdown on stdout; --plot also draws it (log-log ms per step by part, and
rays/s) into a PNG, which needs matplotlib (the test venv: build/venv/bin/python).
"""

import argparse
import json
import math
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COUNTS = [100, 200, 500, 1000, 2000, 5000, 10000, 20000]
STEP_TIME = 0.1

# fleet_10000.yaml's robot groups: (share of the robots, name, shape, vel_max, behaviour,
# lidar (range_max, angle_range, beams)). `cell`: the group lives in the RVO cell.
GROUPS = [
    dict(share=0.7, what="Pickers: wander between pick faces across the whole site.",
         shape="{name: circle, radius: 0.3}", vel_max="[1.5, 1.0]", behavior="dash", cell=False,
         lidar=(10, "4.71238898038469", 270)),
    dict(share=0.2, what="Tuggers: heavier, slower, longer lidars, on the same aisles.",
         shape="{name: rectangle, length: 1.2, width: 0.8}", vel_max="[1.0, 0.6]",
         behavior="dash", cell=False, lidar=(20, "6.283185307179586", 360)),
    dict(share=0.1, what="Cell robots: avoid each other with RVO within their work cells, near "
         "the south dock.", shape="{name: circle, radius: 0.25}", vel_max="[1.0, 1.0]",
         behavior="rvo", cell=True, lidar=(8, "6.283185307179586", 180)),
]


def fleet_world(robots):
    """The fleet world of `robots` robots: (YAML text, rays per step)."""
    side = round(math.sqrt(40.0 * robots))
    cell = round(side * 200 / 632, 1)  # fleet_10000.yaml: a 200 m cell on a 632 m site
    counts = [round(g["share"] * robots) for g in GROUPS]
    counts[0] += robots - sum(counts)
    lines = [
        f"# bench/scale_bench.py: {robots} robots at fleet_10000.yaml's density "
        f"(one per 40 m²), {robots // 2} obstacles.",
        "world:",
        f"  width: {side}",
        f"  height: {side}",
        "  step_time: 0.1",
        "  sample_time: 0.1",
        "  collision_mode: unobstructed",
        "  seed: 45",
        "",
        "robot:",
    ]
    rays = 0
    for g, n in zip(GROUPS, counts):
        high = cell if g["cell"] else side - 2
        area = f"range_low: [2, 2, -3.14], range_high: [{high:g}, {high:g}, 3.14]"
        behavior = f"{{name: {g['behavior']}, wander: true, "
        if g["behavior"] == "rvo":
            behavior += "neighbor_threshold: 3.0, "
        range_max, angle_range, beams = g["lidar"]
        lines += [
            f"  # {g['what']}",
            f"  - number: {n}",
            f"    distribution: {{name: random, {area}}}",
            "    kinematics: {name: diff}",
            f"    shape: {g['shape']}",
            f"    vel_max: {g['vel_max']}",
            f"    behavior: {behavior}{area}}}",
            "    sensors:",
            f"      - {{name: lidar2d, range_max: {range_max}, angle_range: {angle_range}, "
            f"number: {beams}}}",
        ]
        rays += n * beams
    obstacles = robots // 2
    lines += [
        "",
        "obstacle:",
        "  # Racking uprights and pallets.",
        f"  - number: {obstacles // 2}",
        f"    distribution: {{name: random, range_low: [3, 3, 0], "
        f"range_high: [{side - 3}, {side - 3}, 0]}}",
        "    shape: {name: circle, radius: 0.4}",
        "  # Shelving runs.",
        f"  - number: {obstacles - obstacles // 2}",
        f"    distribution: {{name: random, range_low: [3, 3, -3.14], "
        f"range_high: [{side - 3}, {side - 3}, 3.14]}}",
        "    shape: {name: rectangle, length: 6.0, width: 1.2}",
    ]
    return "\n".join(lines) + "\n", rays


def check_against_fleet_10000():
    """Warns when fleet_world(10000) no longer says what bench/worlds/fleet_10000.yaml says."""
    try:
        import yaml
    except ImportError:
        return
    with open(os.path.join(ROOT, "bench", "worlds", "fleet_10000.yaml")) as f:
        reference = yaml.safe_load(f)
    if yaml.safe_load(fleet_world(10000)[0]) != reference:
        print("warning: the generated 10,000-robot world differs from "
              "bench/worlds/fleet_10000.yaml", file=sys.stderr)


TIMING_KEYS = ["world", "behaviours", "scene", "sensors", "fog", "outputs"]


def ubot_run(ubot, world, steps, threads, out, records):
    """One `ubot run --timings`: {part: ms per step, finishing_s}."""
    outputs = (["--frames", "every", "--frames-format", "parquet"] if records
               else ["--frames", "none"])
    cmd = [ubot, "run", world, "--steps", str(steps), "--threads", str(threads), "--no-picture",
           "--quiet", "--timings", "--out", out] + outputs
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=1200)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{p.stdout}{p.stderr}")
    line = next((l for l in p.stdout.splitlines() if l.startswith("timings over")), None)
    if line is None:
        raise SystemExit(f"no timings line in: {p.stdout}")
    # "...: world W (behaviours B), scene S, sensors X, fog F, outputs O; finishing the outputs Z s"
    per_step, finishing = line.split(":", 1)[1].split(";", 1)
    figures = {k: float(v) for k, v in re.findall(r"(\w+) ([0-9.]+)", per_step)}
    figures["finishing_s"] = float(re.search(r"([0-9.]+) s", finishing).group(1))
    missing = [k for k in TIMING_KEYS if k not in figures]
    if missing:
        raise SystemExit(f"timings line without {missing}: {line}")
    shutil.rmtree(out, ignore_errors=True)  # Parquet records of large runs are hundreds of MB
    return figures


def fleet_rays(bench, world, min_seconds):
    """bench_fleet_rays' rays/s for one world (bench/fleet_rays.cpp): {method: rays/s, CPU}."""
    p = subprocess.run([bench, "--world", world, "--benchmark_format=json",
                        f"--benchmark_min_time={min_seconds}"],
                       capture_output=True, text=True, timeout=1200)
    if p.returncode != 0:
        raise SystemExit(f"{bench} --world {world} failed:\n{p.stdout}{p.stderr}")
    rates = {}
    for b in json.loads(p.stdout)["benchmarks"]:
        rates[b["name"].split("/")[-1]] = b["items_per_second"]
    return rates


def median_figures(runs):
    """Each figure's median over the runs."""
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def measure(args, workdir):
    """Runs every count: a list of rows (one per count) with the medians per thread count."""
    ubot = os.path.join(args.build, "ubot")
    bench = os.path.join(args.build, "bench", "bench_fleet_rays")
    for exe in (ubot, bench):
        if not os.access(exe, os.X_OK):
            raise SystemExit(f"{exe} not found: cmake --build {args.build} --target ubot "
                             "bench_fleet_rays")
    rows = []
    ms_per_robot = None  # per-step time of the previous count, per robot: sizes the next runs
    for robots in args.robots:
        text, rays = fleet_world(robots)
        world = os.path.join(workdir, f"fleet_{robots}.yaml")
        with open(world, "w") as f:
            f.write(text)
        out = os.path.join(workdir, "out")
        if ms_per_robot is None:  # a short probe sizes the first count's runs
            probe = ubot_run(ubot, world, 10, args.threads[0], out, False)
            ms_per_robot = sum(probe[k] for k in ("world", "scene", "sensors")) / robots
        estimate = ms_per_robot * robots
        steps = max(10, round(args.seconds * 1000.0 / estimate))
        record_steps = max(10, min(steps, 100000 // robots))
        runs = {t: [] for t in args.threads}
        records = {t: [] for t in args.threads}
        started = time.monotonic()
        for _ in range(args.repeat):
            for t in args.threads:
                runs[t].append(ubot_run(ubot, world, steps, t, out, False))
                records[t].append(ubot_run(ubot, world, record_steps, t, out, True))
        rays_bench = fleet_rays(bench, world, args.min_seconds)
        row = {"robots": robots, "steps": steps, "record_steps": record_steps, "rays": rays,
               "rays_bench": rays_bench, "threads": {}}
        for t in args.threads:
            m = median_figures(runs[t])
            m["outputs"] = statistics.median(r["outputs"] for r in records[t])
            m["total"] = m["world"] + m["scene"] + m["sensors"] + m["fog"] + m["outputs"]
            m["scan_rays_per_s"] = rays / (m["sensors"] / 1000.0) if m["sensors"] > 0 else 0.0
            row["threads"][t] = m
        first = row["threads"][args.threads[0]]
        ms_per_robot = (first["world"] + first["scene"] + first["sensors"]) / robots
        rows.append(row)
        print(f"  {robots} robots: {steps} steps ({record_steps} with records), "
              f"{time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    return rows


def three_digits(v):
    """A time with three significant digits, never in exponent form."""
    return f"{v:.3g}" if v < 1000 else f"{v:.0f}"


def markdown(rows, threads):
    """The table, one line per count and thread count: ms per step by part, rays/s."""
    lines = [
        "| robots | threads | rays / step | world (no behaviours) | behaviours | scene refit | "
        "scans | outputs (Parquet) | total | µs / robot | scans, M rays/s | cast_fan | "
        "Embree ×16 | Embree ×1 |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        b = row["rays_bench"]
        for t in threads:
            m = row["threads"][t]
            ms = [m["world"] - m["behaviours"], m["behaviours"], m["scene"], m["sensors"],
                  m["outputs"], m["total"]]
            rates = [m["scan_rays_per_s"], b["cast_fan"], b["embree16"], b["embree1"]]
            cells = ([f"{row['robots']:,}", str(t), f"{row['rays']:,}"]
                     + [three_digits(v) for v in ms]
                     + [f"{1000 * m['total'] / row['robots']:.1f}"]
                     + [f"{v / 1e6:.1f}" for v in rates])
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def plot(rows, threads, path, machine):
    """Log-log ms per step by part (left), rays/s of the scans beside raw Embree (right)."""
    try:
        import matplotlib
    except ImportError:
        raise SystemExit("--plot needs matplotlib: run this script with build/venv/bin/python")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, NullLocator

    x = [r["robots"] for r in rows]
    t0 = threads[0]
    m = [r["threads"][t0] for r in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2), gridspec_kw={"width_ratios": [3, 2]})
    parts = [
        ("total (with Parquet records)", [v["total"] for v in m], "black", "-", 2.2),
        ("scans (lidar2d)", [v["sensors"] for v in m], "tab:red", "-", 1.5),
        ("outputs (Parquet every step)", [v["outputs"] for v in m], "tab:purple", "-", 1.5),
        ("world step (no behaviours)", [v["world"] - v["behaviours"] for v in m], "tab:blue",
         "-", 1.5),
        ("behaviours", [v["behaviours"] for v in m], "tab:cyan", "-", 1.5),
        ("scene refit", [v["scene"] for v in m], "tab:green", "-", 1.5),
    ]
    for t in threads[1:]:
        parts.insert(1, (f"total, {t} threads", [r["threads"][t]["total"] for r in rows],
                         "black", "--", 1.5))
    for label, y, color, style, width in parts:
        left.plot(x, [max(v, 1e-3) for v in y], style, color=color, lw=width, marker="o", ms=3,
                  label=label)
    left.axhline(1000 * STEP_TIME, ls=":", color="grey", lw=1, label="real time (0.1 s steps)")
    left.set_yscale("log")
    left.set_xlabel("robots (one per 40 m², half as many obstacles)")
    left.set_ylabel(f"wall ms per step, {t0} thread" + ("s" if t0 > 1 else ""))
    left.set_title("Step time by part", fontsize=10)
    left.grid(True, which="both", alpha=0.25)
    left.set_ylim(top=max(v["total"] for v in m) * 20)  # room for the legend above the lines
    left.legend(fontsize=7, loc="upper left", ncol=2)

    millions = FuncFormatter(lambda v, _: f"{v / 1e6:g}")
    rates = [
        ("raw Embree, rtcIntersect16", [r["rays_bench"]["embree16"] for r in rows],
         "tab:orange", "-"),
        ("raw Embree, rtcIntersect1", [r["rays_bench"]["embree1"] for r in rows],
         "tab:orange", ":"),
        ("ubot Scene::cast_fan", [r["rays_bench"]["cast_fan"] for r in rows],
         "tab:red", "--"),
        ("ubot scans (whole lidar2d sample)", [v["scan_rays_per_s"] for v in m], "tab:red", "-"),
    ]
    for label, y, color, style in rates:
        right.plot(x, y, style, color=color, marker="o", ms=3, label=label)
    right.set_ylim(bottom=0)
    right.yaxis.set_major_formatter(millions)
    right.set_xlabel("robots")
    right.set_ylabel("M rays/s, one core")
    right.set_title("Scans vs. raw Embree, same rays", fontsize=10)
    right.grid(True, which="both", alpha=0.25)
    right.legend(fontsize=7, loc="lower left")
    for axis in (left, right):
        axis.set_xscale("log")
        axis.set_xticks(x, [f"{n // 1000}k" if n >= 1000 else str(n) for n in x], fontsize=8)
        axis.xaxis.set_minor_locator(NullLocator())
    fig.suptitle(f"ubot fleet scaling: {machine}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def machine_name():
    """CPU model and cores: what the figures were measured on."""
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="the build tree with ubot and bench/bench_fleet_rays")
    parser.add_argument("--robots", default=",".join(map(str, COUNTS)))
    parser.add_argument("--threads", default="1", help="thread counts, e.g. 1,2")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="about how long each run steps (at least 10 steps)")
    parser.add_argument("--min-seconds", type=float, default=0.5,
                        help="bench_fleet_rays' --benchmark_min_time (seconds per method)")
    parser.add_argument("--dir", help="write the worlds here (default: a temporary directory)")
    parser.add_argument("--plot", help="draw the figures into this PNG")
    args = parser.parse_args()
    args.robots = [int(n) for n in args.robots.split(",")]
    args.threads = [int(t) for t in args.threads.split(",")]
    if args.plot:
        try:
            import matplotlib  # noqa: F401  (checked before the runs, drawn after them)
        except ImportError:
            raise SystemExit("--plot needs matplotlib: run this script with build/venv/bin/python")
    check_against_fleet_10000()
    # A terminated run (a timeout) still removes its temporary worlds and records.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("terminated"))

    started = time.monotonic()
    if args.dir:
        os.makedirs(args.dir, exist_ok=True)
        rows = measure(args, args.dir)
    else:
        with tempfile.TemporaryDirectory(prefix="ubot-scale-") as workdir:
            rows = measure(args, workdir)
    machine = machine_name()
    print(f"Fleet worlds at fleet_10000.yaml's density, {machine}; wall ms per step, medians of "
          f"{args.repeat}; rays/s: scans = rays / scans time, the others from bench_fleet_rays "
          "(one thread, CPU time)\n")
    print(markdown(rows, args.threads))
    if args.plot:
        plot(rows, args.threads, args.plot, machine)
        print(f"\nplot: {args.plot} ({os.path.getsize(args.plot) // 1024} KiB)")
    print(f"\n{time.monotonic() - started:.0f} s in all", file=sys.stderr)


if __name__ == "__main__":
    main()
