#!/usr/bin/env python3
"""Compares the live IR-SIM traces with the committed ones, number by number.

usage: compare_traces.py [LIVE_DIR] [--committed DIR] [--markdown]

LIVE_DIR (default build/irsim-traces/current: live_traces.py's cache) holds NAME.json and
manifest.json. For every trace of the manifest it says whether the live trace equals the
committed one (tests/data/irsim_traces/NAME.json) to the last digit, everything but `meta`
(which records the versions, so it always differs), or else: the first differing field in
document order, how many values differ, the largest absolute difference, and which fields
(indices as [*]) differ. Traces the manifest lists as not made are listed with the reason.
--markdown prints the table that docs/irsim-parity.md carries. Exit status 0 either way: this
is a report, the parity tests are the check.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.abspath(os.path.join(HERE, "..", ".."))


class Diff:
    def __init__(self) -> None:
        self.count = 0
        self.first: str | None = None
        self.largest = 0.0
        self.fields: dict[str, tuple[int, float]] = {}

    def add(self, path: str, what: str, delta: float = math.nan) -> None:
        self.count += 1
        if self.first is None:
            self.first = f"{path}: {what}"
        pattern = re.sub(r"\[\d+\]", "[*]", path)
        n, worst = self.fields.get(pattern, (0, 0.0))
        if not math.isnan(delta):
            worst = max(worst, delta)
            self.largest = max(self.largest, delta)
        self.fields[pattern] = (n + 1, worst)


def is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def compare(a, b, path: str, diff: Diff) -> None:
    """a: committed, b: live."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a:
            if key not in b:
                diff.add(f"{path}.{key}", "only in the committed trace")
            else:
                compare(a[key], b[key], f"{path}.{key}", diff)
        for key in b:
            if key not in a:
                diff.add(f"{path}.{key}", "only in the live trace")
        return
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            diff.add(f"{path}", f"length {len(a)} committed, {len(b)} live")
        for i, (x, y) in enumerate(zip(a, b)):
            compare(x, y, f"{path}[{i}]", diff)
        return
    if is_number(a) and is_number(b):
        if a == b or (math.isnan(a) and math.isnan(b)):
            return
        delta = abs(a - b) if math.isfinite(a) and math.isfinite(b) else math.inf
        diff.add(path, f"committed {a!r}, live {b!r}", delta)
        return
    if a != b:
        diff.add(path, f"committed {a!r}, live {b!r}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("live", nargs="?",
                    default=os.path.join(SOURCE, "build", "irsim-traces", "current"))
    ap.add_argument("--committed", default=os.path.join(SOURCE, "tests", "data", "irsim_traces"))
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)

    with open(os.path.join(args.live, "manifest.json")) as fh:
        manifest = json.load(fh)
    rows = []
    for name, entry in manifest["traces"].items():
        if not entry["made"]:
            rows.append((name, "not made", entry["reason"], "", ""))  # reason as "largest"
            continue
        with open(os.path.join(args.committed, name + ".json")) as fh:
            committed = json.load(fh)
        with open(os.path.join(args.live, name + ".json")) as fh:
            live = json.load(fh)
        committed.pop("meta")
        live.pop("meta")
        diff = Diff()
        compare(committed, live, "", diff)
        if diff.count == 0:
            rows.append((name, "equal", "", "", ""))
            continue
        ordered = sorted(diff.fields.items(), key=lambda kv: -kv[1][0])
        if args.markdown:  # short: the field without indices, its largest difference
            fields = ", ".join(f"`{p.replace('[*]', '').lstrip('.')}` {w:.2g}"
                               for p, (n, w) in ordered)
        else:
            fields = ", ".join(f"{p.lstrip('.')} ({n} values, largest {w:.3g})"
                               for p, (n, w) in ordered)
        rows.append((name, f"{diff.count} values differ", f"{diff.largest:.3g}",
                     diff.first.lstrip("."), fields))

    print(f"live IR-SIM {manifest['irsim_version']} ({manifest['packages']}) against "
          f"{args.committed}")
    if args.markdown:
        print("| Trace | Live against committed | Largest difference | Fields that differ "
              "(largest difference) |")
        print("|---|---|---|---|")
        for name, status, largest, _, fields in rows:
            if status == "not made":
                status, largest = f"not made: {largest}", ""
            print(f"| `{name}` | {status} | {largest} | {fields} |".replace("|  |", "| |"))
    else:
        for name, status, largest, first, fields in rows:
            line = f"{name}: {status}"
            if status == "not made":
                line += f" ({largest})"
            elif largest:
                line += f"; largest {largest}"
            if first:
                line += f"; first {first}; fields {fields}"
            print(line)
    equal = sum(1 for r in rows if r[1] == "equal")
    print(f"{equal} of {len(rows)} traces equal to the last digit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
