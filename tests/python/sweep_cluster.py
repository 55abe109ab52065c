#!/usr/bin/env python3
"""Helper of test_sweep.py (not a test itself): a real Dask cluster on 127.0.0.1.

usage: sweep_cluster.py SWEEP.yaml WORK_DIR

Starts `dask scheduler` and two `dask worker` processes (one thread each, no nanny, so killing
one kills that worker), then runs the sweep twice into WORK_DIR: `full/` with both workers, and
`killed/`, during which worker 0 is killed (SIGKILL) once 2 runs are in and it is running one.
Writes `killed_at`: the number of result files when the kill happened and the number of runs
the killed worker held (which Dask must run again elsewhere), or `none` when the sweep ended
before that moment came (the test then fails saying so, instead of waiting forever). The
processes' output goes to `scheduler.log`, `w0.log`, `w1.log` in WORK_DIR, which the test shows
when it fails. test_sweep.py runs this inside `unshare -n` (its own network namespace with only
`lo`) when it may.
"""

import os
import signal
import subprocess
import sys
import threading
import time

from distributed import Client

import ubot


# The `dask` command of this interpreter's environment (the test venv's), not the first on PATH
# (Debian's, whose scheduler speaks an older protocol than the venv's client).
DASK = os.path.join(os.path.dirname(sys.executable), "dask")
if not os.path.exists(DASK):
    DASK = "dask"


def start(cmd, log):
    with open(log, "w") as out:
        return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)


def main():
    sweep_file, work = sys.argv[1], sys.argv[2]
    scheduler_file = os.path.join(work, "scheduler.json")
    procs = [start([DASK, "scheduler", "--host", "127.0.0.1", "--port", "0",
                    "--no-dashboard", "--scheduler-file", scheduler_file],
                   os.path.join(work, "scheduler.log"))]
    try:
        for i in range(2):
            procs.append(start([DASK, "worker", "--scheduler-file", scheduler_file,
                                "--host", "127.0.0.1", "--nthreads", "1", "--no-nanny",
                                "--no-dashboard", "--name", f"w{i}"],
                              os.path.join(work, f"w{i}.log")))
        deadline = time.monotonic() + 60
        while not os.path.exists(scheduler_file) and time.monotonic() < deadline:
            time.sleep(0.05)
        with Client(scheduler_file=scheduler_file, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
            sweep = ubot.sweep.load(sweep_file)
            ubot.sweep.execute(sweep, client, os.path.join(work, "full"), progress=False)
            killed = os.path.join(work, "killed")
            sweep_ended = threading.Event()
            watcher = threading.Thread(target=kill_after,
                                       args=(client, procs[1], killed, 2, work, sweep_ended))
            watcher.start()
            try:
                ubot.sweep.execute(sweep, client, killed, progress=False)
            finally:
                sweep_ended.set()
                watcher.join()
    finally:
        for p in procs:
            p.kill()
            p.wait()


def kill_after(client, worker, out_dir, results, work, sweep_ended):
    runs = os.path.join(out_dir, "runs")
    address = next(a for a, w in client.scheduler_info()["workers"].items() if w["name"] == "w0")
    while not sweep_ended.is_set():
        done = len([f for f in os.listdir(runs) if f.endswith(".json")]) \
            if os.path.isdir(runs) else 0
        held = len(client.processing(workers=[address]).get(address, ()))
        if done >= results and held:
            os.kill(worker.pid, signal.SIGKILL)
            with open(os.path.join(work, "killed_at"), "w") as f:
                f.write(f"{done} {held}")
            return
        time.sleep(0.005)
    with open(os.path.join(work, "killed_at"), "w") as f:
        f.write("none")


if __name__ == "__main__":
    main()
