"""The output folder of a sweep: one result file per run, then the table and the plot.

``runs/<index>.json`` holds ``{"key": ..., "row": ...}`` and is written atomically (a temporary
file in the same folder, then ``os.replace``), so a sweep killed at any moment leaves only whole
result files. A rerun into the same folder skips every run whose file has the same key (the same
world text, parameters, seed, steps, metrics and outputs) and status ok.
"""

import json
import os

RESULTS = "results.csv"
SUMMARY = "summary.png"


def _write_atomically(path, data, mode="w"):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, mode) as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class Store:
    def __init__(self, out_dir):
        self.out_dir = out_dir
        self.runs_dir = os.path.join(out_dir, "runs")
        os.makedirs(self.runs_dir, exist_ok=True)

    def path(self, index):
        return os.path.join(self.runs_dir, f"{index:06d}.json")

    def done(self, run):
        """The stored row of ``run`` when it already ran to completion, else None."""
        try:
            with open(self.path(run.index), encoding="utf-8") as f:
                stored = json.load(f)
        except (OSError, ValueError):
            return None
        if stored.get("key") != run.key() or stored.get("row", {}).get("status") != "ok":
            return None
        return stored["row"]

    def save(self, run, row):
        _write_atomically(self.path(run.index),
                          json.dumps({"key": run.key(), "row": row}, sort_keys=False))

    def write_table(self, table):
        _write_atomically(os.path.join(self.out_dir, RESULTS), table.to_csv(index=False))
