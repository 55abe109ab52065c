"""``python3 -m ubot.sweep SWEEP.yaml`` (and ``ubot sweep``, which runs this): docs/sweeps.md.

Exit codes: 0 every run succeeded, 1 some runs failed (their rows hold the error; the table is
written) or the scheduler cannot be reached, 2 a bad sweep file or bad arguments.
"""

import argparse
import os
import sys

from ubot.sweep import runner, spec as spec_module
from ubot.sweep.run import run_task


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="ubot sweep", description="Run a scenario sweep (worlds x seeds x parameter grids) "
        "on Dask: one table row per run (docs/sweeps.md).")
    p.add_argument("sweep", help="the sweep file (YAML)")
    p.add_argument("--out", help="output folder (default out/<sweep file name>): results.csv, "
                   "summary.png, runs/; runs already done there are skipped")
    p.add_argument("--scheduler", help="address of a running Dask scheduler, e.g. "
                   "tcp://head:8786 (default: a local cluster on this machine)")
    p.add_argument("--workers", type=int, help="local cluster: worker processes (default: one "
                   "per core)")
    p.add_argument("--in-process", action="store_true", help="local cluster: workers are "
                   "threads of this process, not processes")
    p.add_argument("--serial", action="store_true", help="no Dask: a plain loop in this process")
    p.add_argument("--only", type=int, metavar="INDEX", help="run the run INDEX alone (no Dask, "
                   "no files) and print its row as CSV")
    p.add_argument("--check", action="store_true",
                   help="check the sweep file and print how many runs it has")
    p.add_argument("--quiet", action="store_true", help="no progress bar and no summary")
    args = p.parse_args(argv)
    if args.workers is not None and args.workers < 1:
        p.error("--workers must be at least 1")
    if args.scheduler and (args.workers or args.in_process or args.serial):
        p.error("--scheduler runs on that cluster: --workers, --in-process, --serial do not apply")
    return args


def print_check(sweep):
    print(f"{sweep.file}: ok ({len(sweep.runs)} runs, parameters: "
          f"{', '.join(sweep.parameter_names) or 'none'})")


def run_only(sweep, index):
    if not 0 <= index < len(sweep.runs):
        print(f"ubot sweep: error: --only {index}: the sweep has runs 0 to {len(sweep.runs) - 1}",
              file=sys.stderr)
        return 2
    from ubot.sweep import report

    row = run_task(sweep.runs[index])
    sys.stdout.write(report.table([row], sweep.parameter_names).to_csv(index=False))
    return 0 if row["status"] == "ok" else 1


def connect(args):
    """None (--serial), a client of the scheduler at --scheduler, or of a new local cluster."""
    if args.serial:
        return None
    if args.scheduler:
        from distributed import Client

        return Client(args.scheduler)
    return runner.local_client(args.workers, processes=not args.in_process)


def close(client, args):
    if client is None:
        return
    cluster = client.cluster  # None for a scheduler of its own: that one keeps running
    client.close()
    if cluster is not None and not args.scheduler:
        cluster.close()


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    log = (lambda message: None) if args.quiet else (
        lambda message: print(f"ubot sweep: {message}", file=sys.stderr))
    try:
        sweep = spec_module.load(args.sweep)
    except spec_module.SweepError as e:
        print(f"ubot sweep: error: {e}", file=sys.stderr)
        return 2
    if args.check:
        print_check(sweep)
        return 0
    if args.only is not None:
        return run_only(sweep, args.only)
    out = args.out or os.path.join("out", os.path.splitext(os.path.basename(args.sweep))[0])
    try:
        client = connect(args)
    except OSError as e:  # includes the connection's TimeoutError
        print(f"ubot sweep: error: cannot reach the Dask scheduler {args.scheduler}: {e}",
              file=sys.stderr)
        return 1
    try:
        if client is not None and not args.scheduler and not runner.bokeh_available():
            log("no dashboard: the local cluster runs without one, bokeh is not installed "
                "(not in Debian 12; pip install 'bokeh>=2.4.2,<3')")
        elif client is not None:
            log(runner.dashboard_line(client))
        table = runner.execute(sweep, client, out, progress=None if not args.quiet else False,
                               log=log)
    finally:
        close(client, args)
    failed = int((table["status"] != "ok").sum())
    log(f"{sweep.name}: {len(table)} runs, {failed} failed: {os.path.join(out, 'results.csv')}, "
        f"{os.path.join(out, 'summary.png')}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
