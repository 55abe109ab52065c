#!/usr/bin/env python3
"""Sweep throughput (docs/sweeps.md): 1000 short runs of examples/lidar_world.yaml.

usage: PYTHONPATH=build/python /usr/bin/python3 bench/sweep_bench.py [--runs N] [--steps S] [--slow]

(--slow: the robot's top speed is 0.05 m/s, so a run lasts all its steps instead of ending when
the robot stops on the rectangle at step 55: runs long enough for Dask's cost to vanish.)

Prints runs/s of a plain Python loop over ubot.sweep.run_task (no Dask), of the sweep on local
Dask clusters of 1 and 2 worker processes and of 1 and 2 in-process worker threads, and the per-task
overhead: (cluster wall time x workers - loop time) / runs, i.e. what Dask adds to each run.
Cluster start-up is left out (timed separately); results are not written to disk. On a
shared machine wall times swing with the load; the CPU-time figures do not: the loop's and the
in-process cluster's process CPU time per run (client, scheduler and workers are all threads of
this process there), whose difference is Dask's CPU cost per task.
"""

import argparse
import os
import time

import ubot
from ubot.sweep import spec
from ubot.sweep.run import run_task

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def make_sweep(runs, steps, slow):
    world = os.path.join(ROOT, "examples", "lidar_world.yaml")
    grid = {"robot[0].vel_max": [[0.05, 1.0]]} if slow else {}
    return spec.from_dict({"worlds": [world], "seeds": runs, "steps": steps,
                           "parameters": grid})


def loop(sweep):
    start, cpu = time.perf_counter(), time.process_time()
    rows = [run_task(r) for r in sweep.runs]
    assert all(r["status"] == "ok" for r in rows)
    return time.perf_counter() - start, time.process_time() - cpu


def on_cluster(sweep, workers, processes):
    from distributed import Client, LocalCluster

    start = time.perf_counter()
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                           dashboard_address=None)
    client = Client(cluster)
    client.run(lambda: __import__("ubot.sweep.run"))  # imports on every worker: start-up too
    started = time.perf_counter() - start
    start, cpu = time.perf_counter(), time.process_time()
    table = ubot.sweep(sweep, client=client, progress=False)
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert (table["status"] == "ok").all()
    client.close()
    cluster.close()
    return started, took, cpu


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=1000)
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--slow", action="store_true")
    args = p.parse_args()
    sweep = make_sweep(args.runs, args.steps, args.slow)
    base, base_cpu = loop(sweep)
    n = args.runs
    print(f"{n} runs of lidar_world.yaml, {args.steps} steps each{' (slow)' if args.slow else ''}; "
          f"{os.cpu_count()} cores; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"plain Python loop:            {n / base:8.1f} runs/s  ({1e3 * base / n:.2f} ms/run, "
          f"CPU {1e3 * base_cpu / n:.2f} ms/run)")
    for workers, processes in ((1, True), (2, True), (1, False), (2, False)):
        started, took, cpu = on_cluster(sweep, workers, processes)
        overhead = (took * workers - base) / n
        kind = "processes" if processes else "threads  "
        cpu_note = "" if processes else \
            f", CPU {1e3 * cpu / n:.2f} ms/run: {1e3 * (cpu - base_cpu) / n:+.2f} ms/task"
        print(f"local cluster, {workers} {kind}:  {n / took:8.1f} runs/s  "
              f"(start-up {started:.1f} s, wall overhead {1e3 * overhead:+.2f} ms/task{cpu_note})")
    again, _ = loop(sweep)
    print(f"plain Python loop again:      {n / again:8.1f} runs/s  (load average "
          f"{os.getloadavg()[0]:.1f}: the spread of the two loops is the machine's noise)")


if __name__ == "__main__":
    main()
