"""The sweep's table (pandas) and its summary plot (matplotlib, Agg: no display needed)."""

import os

FIXED = ("run", "world", "seed")
STATUS = ("status", "error", "steps", "time")


def table(rows, parameter_names):
    """One row per run, in run order: run, world, seed, the parameters, status, error, steps,
    time, then the metric columns in the order they first appear."""
    import pandas as pd

    rows = sorted(rows, key=lambda r: r["run"])
    columns = list(FIXED) + list(parameter_names) + list(STATUS)
    for row in rows:
        columns += [k for k in row if k not in columns]
    return pd.DataFrame.from_records(rows, columns=columns)


# How a per-robot metric becomes one number per run in the plot.
ACROSS_ROBOTS = {"arrival_time": "mean", "collisions": "sum", "min_clearance": "min",
                 "path_length": "mean"}


def _metric_series(frame):
    """(label, per-run values) per metric: built-in ones combined over the robots."""
    series = []
    for metric, how in ACROSS_ROBOTS.items():
        cols = [c for c in frame.columns if c.endswith("." + metric)]
        if cols:
            values = getattr(frame[cols].astype(float), how)(axis=1)
            series.append((f"{metric} ({how} over robots)", values))
    known = set(FIXED) | set(STATUS)
    for c in frame.columns:
        if c in known or any(c.endswith("." + m) for m in ACROSS_ROBOTS):
            continue
        if frame[c].dtype.kind in "fiub" and c not in frame.attrs.get("parameters", ()):
            series.append((c, frame[c].astype(float)))
    return series


def plot(frame, parameter_names, path):
    """summary.png: every metric (rows) against every parameter (columns; the world when the
    sweep has no parameters). Dots are runs, the line joins the means per value."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ok = frame[frame["status"] == "ok"].copy()
    ok.attrs["parameters"] = tuple(parameter_names)
    # A parameter with one value says nothing against the metrics: it gets no column.
    xs = [p for p in parameter_names if ok[p].astype(str).nunique() > 1] or ["world"]
    series = _metric_series(ok)
    if not series:
        series = [("steps", ok["steps"].astype(float))] if len(ok) else []
    rows = max(1, len(series))
    fig, axes = plt.subplots(rows, len(xs), figsize=(4.2 * len(xs), 2.8 * rows), squeeze=False)
    for j, x in enumerate(xs):
        labels = [str(v) for v in ok[x]] if len(ok) else []
        numeric = len(ok) and ok[x].dtype.kind in "fiu"
        positions = ok[x].astype(float) if numeric else None
        order = sorted(set(labels), key=labels.index)
        if not numeric:
            positions = [order.index(v) for v in labels]
        for i, (label, values) in enumerate(series):
            ax = axes[i][j]
            ax.plot(positions, values, "o", alpha=0.5, markersize=4)
            means = values.groupby(list(positions)).mean()
            ax.plot(means.index, means.values, "-", color="C1")
            if not numeric:
                ax.set_xticks(range(len(order)), order, rotation=20, fontsize=7)
            ax.set_xlabel(x, fontsize=8)
            ax.set_ylabel(label, fontsize=8)
        if not series:
            axes[0][j].text(0.5, 0.5, "no successful run", ha="center",
                            transform=axes[0][j].transAxes)
    failed = int((frame["status"] != "ok").sum())
    fig.suptitle(f"{len(frame)} runs, {failed} failed", fontsize=9)
    fig.tight_layout()
    tmp = f"{path}.tmp{os.getpid()}.png"
    fig.savefig(tmp, dpi=90)
    plt.close(fig)
    os.replace(tmp, path)
