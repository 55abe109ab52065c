#!/usr/bin/env python3
"""Runs `ubot run` and the IR-SIM oracle on one world and compares them step by step.

usage: compare_with_ubot.py UBOT_BINARY WORLD.yaml STEPS [--tolerance 1e-9]

Positions, headings, velocities and lidar ranges must agree within the tolerance; flags and
valid masks exactly; both runs must end at the same step. Exit 0 when they agree, 1 when not,
77 when the oracle cannot model the world (random numbers).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run_ubot(binary, world, steps, out):
    subprocess.run([binary, "run", world, "--steps", str(steps), "--out", out, "--quiet"],
                   check=True)
    with open(os.path.join(out, "frames.jsonl")) as f:
        lines = [json.loads(line) for line in f]
    return lines[0], lines[1:]


def run_oracle(world, steps):
    result = subprocess.run(
        [sys.executable, os.path.join(HERE, "irsim_oracle.py"), world, "--steps", str(steps),
         "--until-done", "--skip-random"], capture_output=True, text=True)
    if result.returncode == 77:
        return None
    if result.returncode != 0:
        raise SystemExit(f"oracle failed ({result.returncode}): {result.stderr}")
    return [json.loads(line) for line in result.stdout.splitlines()]


def close(a, b, tol):
    return len(a) == len(b) and all(math.isclose(x, y, rel_tol=0, abs_tol=tol) for x, y in zip(a, b))


def compare(ubot, oracle, tol):
    problems = []
    if len(ubot) != len(oracle):
        problems.append(f"ubot ran {len(ubot)} steps, the oracle {len(oracle)}")
    worst = 0.0
    for u, o in zip(ubot, oracle):
        k = o["step"]
        if u["step"] != k:
            problems.append(f"step numbers differ: {u['step']} vs {k}")
            break
        for uo, oo in zip(u["objects"], o["objects"]):
            for key in ("state", "velocity"):
                d = max((abs(x - y) for x, y in zip(uo[key], oo[key])), default=0.0)
                worst = max(worst, d)
                if not close(uo[key], oo[key], tol):
                    problems.append(f"step {k} object {oo['id']} {key}: ubot {uo[key]} oracle {oo[key]}")
            for key in ("collision", "arrive", "stop"):
                if uo[key] != oo[key]:
                    problems.append(f"step {k} object {oo['id']} {key}: ubot {uo[key]} oracle {oo[key]}")
        for us, os_ in zip(u["sensors"], o["sensors"]):
            if not close(us["ranges"], os_["ranges"], tol):
                bad = [i for i, (x, y) in enumerate(zip(us["ranges"], os_["ranges"])) if abs(x - y) > tol]
                problems.append(f"step {k} sensor {os_['object_id']}/{os_['index']} ranges differ at beams {bad[:5]}")
            if us["valid"] != os_["valid"]:
                problems.append(f"step {k} sensor {os_['object_id']}/{os_['index']} valid masks differ")
            if "radial_velocity" in os_ and not close(us["radial_velocity"], os_["radial_velocity"], tol):
                problems.append(f"step {k} sensor {os_['object_id']}/{os_['index']} radial velocities differ")
        if len(problems) > 20:
            break
    return problems, worst


def main():
    p = argparse.ArgumentParser()
    p.add_argument("ubot")
    p.add_argument("world")
    p.add_argument("steps", type=int)
    p.add_argument("--tolerance", type=float, default=1e-9)
    a = p.parse_args()
    oracle = run_oracle(a.world, a.steps)
    if oracle is None:
        print(f"{a.world}: needs random numbers; not comparable with the oracle")
        return 77
    with tempfile.TemporaryDirectory() as out:
        _, ubot = run_ubot(a.ubot, a.world, a.steps, out)
    problems, worst = compare(ubot, oracle, a.tolerance)
    if problems:
        print(f"{a.world}: ubot and the IR-SIM oracle disagree:")
        for line in problems[:20]:
            print("  " + line)
        return 1
    print(f"{a.world}: {len(ubot)} steps agree (largest state difference {worst:.3g} m)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
