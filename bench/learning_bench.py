#!/usr/bin/env python3
"""What the Python of ubot.gym costs over the C++ core (docs/learning.md, "Cost"): 256 copies
of examples/lidar_world.yaml stepped by ``ubot.VectorEnv`` alone and by
``ubot.gym.UbotVectorEnv`` (observation assembly, reward terms, action checks, autoreset), with
the same actions, in one run. Figures by CPU time of the whole process (all its threads), which
a machine shared with other jobs changes little, and by the wall clock; ``--threads 1`` makes
the split plain.
Then what a randomised reset costs in the core: every env of the swap task
(tests/data/learning/swap4.yaml) reset with the world's own places, and with random starts and
goals (``randomize``, docs/learning.md).

usage: build/venv/bin/python bench/learning_bench.py [--envs N] [--steps K] [--threads T]
"""

import argparse
import os
import time

import numpy as np

import ubot
from ubot.gym import UbotVectorEnv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIDAR_WORLD = os.path.join(ROOT, "examples", "lidar_world.yaml")
SWAP = os.path.join(ROOT, "tests", "data", "learning", "swap4.yaml")
RANDOMIZE = {"robots": True, "goals": True, "margin": 0.3, "min_goal_distance": 3.0}


def cpu_time_per_step(step, steps):
    return times_per_step(step, steps)[0]


def times_per_step(step, steps):
    """(CPU time, wall time) of one call, averaged over ``steps`` after a warm-up."""
    for _ in range(20):  # warm-up
        step()
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(steps):
        step()
    return (time.process_time() - cpu) / steps, (time.perf_counter() - wall) / steps


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    n = args.envs
    core = ubot.VectorEnv(LIDAR_WORLD, n, seed=0, threads=args.threads,
                          observations=("lidar", "state", "goal", "flags", "velocity"))
    core.reset()
    raw = np.zeros((n, 1, 2))
    raw[..., 0] = 0.3
    t_core, w_core = times_per_step(lambda: core.step(raw), args.steps)
    env = UbotVectorEnv(n, LIDAR_WORLD, threads=args.threads)
    env.reset(seed=0)
    action = np.full((n, 2), [0.3, 0.0], np.float32)  # lidar_world: [-1, 1] maps onto itself
    t_gym, w_gym = times_per_step(lambda: env.step(action), args.steps)
    for label, core_t, gym_t in (("CPU time", t_core, t_gym), ("wall clock", w_core, w_gym)):
        print(f"{n} x lidar_world.yaml, {args.threads} thread(s), by {label}:")
        print(f"  ubot.VectorEnv         {n / core_t:9.0f} env-steps/s "
              f"({core_t * 1e3:.3f} ms a step)")
        print(f"  ubot.gym.UbotVectorEnv {n / gym_t:9.0f} env-steps/s ({gym_t * 1e3:.3f} ms a step)")
        print(f"  Python's share of a step: {(gym_t - core_t) / gym_t:.0%} "
              f"({(gym_t - core_t) * 1e3:.3f} ms)")
    seeds = iter(range(10**6))
    for label, spec in (("the world's places", None), ("randomize", RANDOMIZE)):
        envs = ubot.VectorEnv(SWAP, n, threads=args.threads, randomize=spec)
        t = cpu_time_per_step(lambda envs=envs: envs.reset(seed=next(seeds)), args.steps // 10)
        print(f"  reset of {n} x swap4.yaml, {label:18} {t * 1e6 / n:7.1f} us an env")


if __name__ == "__main__":
    main()
