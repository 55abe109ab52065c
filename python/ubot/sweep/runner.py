"""Running a sweep's runs on Dask (docs/sweeps.md): one task per run, results as they come.

The client gathers every finished run's row and writes its result file itself, so the workers
need no shared folder for the table (only for per-run outputs), and a sweep stopped at any point
resumes from the runs already written. A task whose workers keep dying (Dask gives up after
``distributed.scheduler.allowed-failures`` retries) becomes an error row like any other failure.
"""

import os
import sys
import time

from ubot.sweep import report, spec as spec_module
from ubot.sweep.run import error_row, run_task
from ubot.sweep.store import SUMMARY, Store


class Progress:
    """runs done / total, failures and an ETA on one terminal line (nothing when not a tty)."""

    def __init__(self, total, skipped, enabled, stream=sys.stderr):
        self.total, self.done, self.failed = total, skipped, 0
        self.skipped = skipped
        self.enabled = enabled
        self.stream = stream
        self.start = time.monotonic()

    def advance(self, row):
        self.done += 1
        self.failed += row["status"] != "ok"
        if self.enabled:
            self._draw()

    def _draw(self):
        ran = self.done - self.skipped
        elapsed = time.monotonic() - self.start
        rate = ran / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        eta = "--:--" if left != left else f"{int(left) // 60}:{int(left) % 60:02d}"
        width = 30
        filled = width * self.done // max(1, self.total)
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}"
                          f" runs  {self.failed} failed  {rate:.1f} runs/s  ETA {eta}  ")
        self.stream.flush()

    def finish(self):
        if self.enabled and self.done > self.skipped:  # a line was drawn: end it
            self.stream.write("\n")


def load_spec(spec):
    """A Sweep from a file path, a dict (the file's schema, worlds relative to the current
    directory) or a Sweep."""
    if isinstance(spec, spec_module.Sweep):
        return spec
    if isinstance(spec, dict):
        return spec_module.from_dict(spec)
    return spec_module.load(os.fspath(spec))


def _gather(client, todo, out_dir, on_row):
    """Submits every run, hands each row to ``on_row`` as it arrives."""
    from distributed import as_completed

    # One map call, not a submit per run: the client sends the whole graph at once.
    keys = [f"ubot-sweep-run-{run.index}-{run.key()[:16]}" for run in todo]
    futures = dict(zip(client.map(run_task, todo, out_dir=out_dir, key=keys, pure=False), todo))
    for future in as_completed(futures):
        run = futures[future]
        try:
            row = future.result()
        except Exception as e:  # the task never returned: its workers died (KilledWorker)
            row = error_row(run, f"{type(e).__name__}: {e}")
        future.release()
        on_row(run, row)


def dashboard_line(client):
    """Dask's dashboard link, or why there is none: without bokeh (not in Debian 12) the
    scheduler serves only a page saying it needs bokeh, which is asked for here."""
    import urllib.request

    link = client.dashboard_link
    if not link:
        return "no dashboard: the scheduler serves none"
    try:
        with urllib.request.urlopen(link, timeout=2) as page:
            needs_bokeh = b"needs bokeh" in page.read(4096)
    except OSError:
        return f"dashboard: {link} (not reachable from here)"
    if needs_bokeh:
        return "no dashboard: the scheduler has no bokeh (pip install 'bokeh>=2.4.2,<3')"
    return f"dashboard: {link}"


def execute(sweep, client, out_dir=None, progress=None, log=None):
    """Runs the sweep's runs not done yet in ``out_dir`` on ``client`` (None: a plain loop in
    this process); returns the table (pandas DataFrame) and writes it when ``out_dir`` is set."""
    if sweep.outputs and out_dir is None:
        raise ValueError(f"{sweep.file}: outputs {list(sweep.outputs)} need an output folder")
    store = Store(out_dir) if out_dir is not None else None
    rows, todo = [], []
    for run in sweep.runs:
        stored = store.done(run) if store is not None else None
        (rows.append(stored) if stored is not None else todo.append(run))
    if progress is None:
        progress = sys.stderr.isatty()
    bar = Progress(len(sweep.runs), len(rows), progress)
    if log and rows:
        log(f"{len(rows)} of {len(sweep.runs)} runs already done in {out_dir}: skipped")

    def on_row(run, row):
        if store is not None:
            store.save(run, row)
        rows.append(row)
        bar.advance(row)

    if client is None:
        for run in todo:
            on_row(run, run_task(run, out_dir))
    elif todo:
        _gather(client, todo, out_dir, on_row)
    bar.finish()
    frame = report.table(rows, sweep.parameter_names)
    if store is not None:
        store.write_table(frame)
        report.plot(frame, sweep.parameter_names, os.path.join(out_dir, SUMMARY))
    return frame


def bokeh_available():
    try:
        import bokeh  # noqa: F401
    except ImportError:
        return False
    return True


def local_client(workers=None, processes=False):
    """A local Dask cluster: ``workers`` single-threaded workers (default: one per core), in this
    process (threads) or as worker processes; without bokeh it has no dashboard."""
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                           processes=processes,
                           dashboard_address=":0" if bokeh_available() else None)
    return Client(cluster)


def sweep(spec, client=None, out=None, workers=None, progress=None):
    """Runs a sweep and returns its table (a pandas DataFrame, one row per run).

    ``spec``: a sweep file, a dict of the same schema or a ``Sweep``. ``client``: a
    ``distributed.Client`` (None: a temporary in-process local cluster of ``workers`` workers).
    ``out``: the output folder (results.csv, summary.png, runs/); runs done there are skipped.
    """
    sweep_spec = load_spec(spec)
    if client is not None:
        return execute(sweep_spec, client, out, progress)
    with local_client(workers) as own:
        return execute(sweep_spec, own, out, progress)
