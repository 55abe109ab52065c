#!/usr/bin/env python3
"""Python-side benchmarks of the module `ubot` (docs/python.md, "Performance"), each measured
beside its C++ counterpart in the same run:

1. the overhead of one `Simulation.step()` call from Python over the C++ step, on
   examples/lidar_world.yaml (`sim._bench_step(n)` runs the same steps in a C++ loop);
2. `VectorEnv` of 256 copies of examples/lidar_world.yaml: env-steps per second;
3. a 10-robot world with 360-beam lidars stepped from Python: steps per second.

usage: PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py [--seconds S] [--json FILE]
(`scripts/run-benchmarks.sh` runs it after the C++ suites.)
"""

import argparse
import json
import os
import time

import numpy as np

import ubot

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIDAR_WORLD = os.path.join(ROOT, "examples", "lidar_world.yaml")


def ten_robot_world():
    """10 diff robots (dash to goals across a 20 x 20 m room), each with a 360-beam lidar2d, and
    12 obstacles."""
    robots = "\n".join(
        f"  - kinematics: {{name: diff}}\n"
        f"    shape: {{name: circle, radius: 0.2}}\n"
        f"    state: [1, {1.5 + 1.8 * i}, 0]\n"
        f"    goal: [19, {18.5 - 1.8 * i}, 0]\n"
        f"    behavior: {{name: dash}}\n"
        f"    sensors:\n"
        f"      - {{type: lidar2d, range_max: 10, angle_range: 6.283185307179586, number: 360}}"
        for i in range(10))
    obstacles = "\n".join(
        f"  - shape: {{name: rectangle, length: 0.8, width: 0.8}}\n"
        f"    state: [{4 + 3 * (k % 4)}, {4 + 4 * (k // 4)}, {0.3 * k}]"
        for k in range(12))
    return (f"world: {{width: 20, height: 20, step_time: 0.1, collision_mode: unobstructed}}\n"
            f"robot:\n{robots}\nobstacle:\n{obstacles}\n")


def step_overhead(steps, rounds):
    """Best-of-rounds per-step times (µs): C++ loop, Python step(), Python step(array)."""
    sim = ubot.Simulation(LIDAR_WORLD, threads=1)
    commands = np.array([[0.5, 0.1]])
    best = {"cpp": float("inf"), "python": float("inf"), "python_array": float("inf")}
    for _ in range(rounds):
        sim.reset()
        best["cpp"] = min(best["cpp"], sim._bench_step(steps) / steps)
        sim.reset()
        start = time.perf_counter()
        for _ in range(steps):
            sim.step()
        best["python"] = min(best["python"], (time.perf_counter() - start) / steps)
        sim.reset()
        start = time.perf_counter()
        for _ in range(steps):
            sim.step(commands)
        best["python_array"] = min(best["python_array"], (time.perf_counter() - start) / steps)
    us = {k: v * 1e6 for k, v in best.items()}
    us["overhead"] = us["python"] - us["cpp"]
    return us


def vector_env_rate(seconds, num_envs=256):
    """Env-steps/s of random actions (episodes end by collision or max_steps and auto-reset):
    (by wall clock, by CPU time: env-steps per CPU-second of the whole process times the cores
    used, what the cores deliver when nothing else runs on them)."""
    envs = ubot.VectorEnv(LIDAR_WORLD, num_envs=num_envs, seed=0)
    envs.reset()
    actions = np.random.default_rng(0).uniform(-1, 1, size=(64, num_envs, 1, 2))
    for k in range(5):
        envs.step(actions[k])
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        envs.step(actions[steps % 64])
        steps += 1
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return steps * num_envs / wall, steps * num_envs / cpu * min(num_envs, os.cpu_count())


def ten_robot_rate(seconds, steps=200):
    """Steps/s over the same first `steps` steps of the episode: Python step() and the C++ loop
    (best of the rounds that fit in `seconds`, alternating), by wall clock with the default
    threads; and Python step() with threads=1 by CPU time (steps per CPU-second)."""
    sim = ubot.Simulation.from_yaml(ten_robot_world(), base_dir=ROOT)
    best_py = best_cpp = float("inf")
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or best_py == float("inf"):
        sim.reset()
        best_cpp = min(best_cpp, sim._bench_step(steps))
        sim.reset()
        t = time.perf_counter()
        for _ in range(steps):
            sim.step()
        best_py = min(best_py, time.perf_counter() - t)
    one = ubot.Simulation.from_yaml(ten_robot_world(), base_dir=ROOT, threads=1)
    best_cpu = float("inf")
    start = time.perf_counter()
    while time.perf_counter() - start < seconds / 2 or best_cpu == float("inf"):
        one.reset()
        t = time.process_time()
        for _ in range(steps):
            one.step()
        best_cpu = min(best_cpu, time.process_time() - t)
    return steps / best_py, steps / best_cpp, steps / best_cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per throughput figure")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
    overhead = step_overhead(steps=100, rounds=max(20, int(20 * args.seconds)))
    print(f"lidar_world.yaml step: C++ {overhead['cpp']:.2f} us, Python step() "
          f"{overhead['python']:.2f} us, step(array) {overhead['python_array']:.2f} us; "
          f"overhead {overhead['overhead']:.2f} us per call (target < 3)")
    rate, rate_cpu = vector_env_rate(args.seconds)
    small, small_cpu = vector_env_rate(args.seconds / 3, num_envs=16)
    print(f"VectorEnv 256 x lidar_world.yaml: {rate:,.0f} env-steps/s wall, {rate_cpu:,.0f} by "
          f"CPU time (target >= 200,000); 16 copies: {small:,.0f} wall, {small_cpu:,.0f} by CPU time")
    py_rate, cpp_rate, cpu_rate = ten_robot_rate(args.seconds)
    print(f"10 robots x 360 beams: {py_rate:,.0f} steps/s from Python, {cpp_rate:,.0f} in a C++ "
          f"loop (wall); one thread from Python: {cpu_rate:,.0f} steps per CPU-second "
          f"(target >= 5,000)")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"step_us": overhead, "vector_env_steps_per_s": rate,
                       "vector_env_steps_per_cpu_s_x_cores": rate_cpu,
                       "vector_env_16_steps_per_s": small,
                       "vector_env_16_steps_per_cpu_s_x_cores": small_cpu,
                       "ten_robot_steps_per_s": py_rate, "ten_robot_cpp_steps_per_s": cpp_rate,
                       "ten_robot_one_thread_steps_per_cpu_s": cpu_rate},
                      f, indent=2)


if __name__ == "__main__":
    main()
