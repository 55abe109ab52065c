#!/usr/bin/env python3
"""Helper of test_sweep.py (not a test itself): a real Dask cluster on 127.0.0.1.

usage: sweep_cluster.py SWEEP.yaml WORK_DIR

Starts `dask scheduler` and two `dask worker` processes (one thread each, no nanny, so killing
one kills that worker), then runs the sweep twice into WORK_DIR: `full/` with both workers, and
`killed/`, during which worker 0 is killed (SIGKILL) once 4 runs are in and it is running one.
Writes `killed_at`: the number of result files when the kill happened and the number of runs
the killed worker held (which Dask must run again elsewhere). test_sweep.py runs this inside
`unshare -n` (its own network namespace with only `lo`) when it may.
"""

import os
import signal
import subprocess
import sys
import threading
import time

from distributed import Client

import ubot


def start(cmd):
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    sweep_file, work = sys.argv[1], sys.argv[2]
    scheduler_file = os.path.join(work, "scheduler.json")
    procs = [start(["dask", "scheduler", "--host", "127.0.0.1", "--port", "0",
                    "--no-dashboard", "--scheduler-file", scheduler_file])]
    try:
        for i in range(2):
            procs.append(start(["dask", "worker", "--scheduler-file", scheduler_file,
                                "--host", "127.0.0.1", "--nthreads", "1", "--no-nanny",
                                "--no-dashboard", "--name", f"w{i}"]))
        deadline = time.monotonic() + 60
        while not os.path.exists(scheduler_file) and time.monotonic() < deadline:
            time.sleep(0.05)
        with Client(scheduler_file=scheduler_file, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
            sweep = ubot.sweep.load(sweep_file)
            ubot.sweep.execute(sweep, client, os.path.join(work, "full"), progress=False)
            killed = os.path.join(work, "killed")
            watcher = threading.Thread(target=kill_after,
                                       args=(client, procs[1], killed, 4, work))
            watcher.start()
            ubot.sweep.execute(sweep, client, killed, progress=False)
            watcher.join()
    finally:
        for p in procs:
            p.kill()
            p.wait()


def kill_after(client, worker, out_dir, results, work):
    runs = os.path.join(out_dir, "runs")
    address = next(a for a, w in client.scheduler_info()["workers"].items() if w["name"] == "w0")
    while True:
        done = len([f for f in os.listdir(runs) if f.endswith(".json")]) \
            if os.path.isdir(runs) else 0
        held = len(client.processing(workers=[address]).get(address, ()))
        if done >= results and held:
            os.kill(worker.pid, signal.SIGKILL)
            with open(os.path.join(work, "killed_at"), "w") as f:
                f.write(f"{done} {held}")
            return
        time.sleep(0.005)


if __name__ == "__main__":
    main()
