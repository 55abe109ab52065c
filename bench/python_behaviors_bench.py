#!/usr/bin/env python3
"""What a per-object behaviour written in Python costs (docs/behaviors.md, "Registering a
per-object behaviour"): a world of N diff robots stepped with the built-in ``dash`` and with a
Python function registered by ``ubot.register_behavior`` that returns the same kind of command,
in one run; the difference per robot and step is the price of one call from C++ into Python
(the GIL, the object wrapper, the keyword arguments, the returned pair).

usage: build/venv/bin/python bench/python_behaviors_bench.py [--robots N] [--seconds S]
"""

import argparse
import os
import time

import ubot

WORLD = """
world: {{width: 100, height: 100, step_time: 0.1, collision_mode: unobstructed}}
robot:
  - number: {n}
    distribution: {{name: random, range_low: [5, 5, 0], range_high: [95, 95, 0], min_distance: 0.5}}
    kinematics: {{name: diff}}
    shape: {{name: circle, radius: 0.2}}
    goal: [50, 50, 0]
    behavior: {{name: {behavior}{params}}}
"""


def lane(obj, speed=0.0, **params):
    """Straight ahead at `speed`: as cheap as a Python behaviour gets."""
    del obj, params
    return [speed, 0.0]


def steps_per_second(sim, seconds):
    for _ in range(5):
        sim.step()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        sim.step()
        steps += 1
    return steps / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--robots", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    ubot.register_behavior("diff", "bench_lane", lane)
    n = args.robots
    built_in = ubot.Simulation.from_yaml(WORLD.format(n=n, behavior="dash", params=""),
                                         seed=0, threads=1)
    python = ubot.Simulation.from_yaml(
        WORLD.format(n=n, behavior="bench_lane", params=", speed: 0.5"), seed=0, threads=1)
    rates = {"dash": [], "python": []}
    for _ in range(args.rounds):  # alternating, so a busy moment hits both
        rates["dash"].append(steps_per_second(built_in, args.seconds))
        rates["python"].append(steps_per_second(python, args.seconds))
    dash, py = (sorted(rates[k])[len(rates[k]) // 2] for k in ("dash", "python"))
    per_call = (1 / py - 1 / dash) / n * 1e6
    print(f"{n} diff robots, one thread, load average {os.getloadavg()[0]:.1f}, medians of "
          f"{args.rounds} rounds of {args.seconds:g} s:")
    print(f"  built-in dash       {dash:9.0f} steps/s ({1e6 / dash:8.1f} us a step)")
    print(f"  Python behaviour    {py:9.0f} steps/s ({1e6 / py:8.1f} us a step)")
    print(f"  one Python call:    {per_call:.2f} us more than dash, per robot and step")


if __name__ == "__main__":
    main()
