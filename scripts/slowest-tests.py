#!/usr/bin/env python3
"""Prints the slowest tests of a ctest run as a Markdown table (docs/testing.md, "The slowest tests").

usage: scripts/slowest-tests.py [BUILD_DIR_OR_LOG ...] [--top N]

Each argument is a build tree (its Testing/Temporary/LastTest.log is read: the last ctest run
there) or a log file itself. With several, the table has one row per test of every run, each
named with its tree. The time is ctest's own "Test time" of each test: wall clock of that
test's process, while the other ctest jobs (-j) share the machine.
"""

import argparse
import os
import re
import sys

# One block of LastTest.log per test: "3/1358 Testing: NAME" ... "Test time =   1.23 sec".
TESTING = re.compile(r"^\d+/\d+ Testing: (.+)$")
TEST_TIME = re.compile(r"^Test time =\s*([0-9.]+) sec$")
RESULT = re.compile(r"^Test (Passed|Failed)\.?$|^Test Failed")


def read_log(path):
    """[(name, seconds, passed)] of one LastTest.log, in the order the tests ended."""
    tests, name, seconds = [], None, None
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            line = line.rstrip("\n")
            match = TESTING.match(line)
            if match:
                name, seconds = match.group(1), None
                continue
            match = TEST_TIME.match(line)
            if match and name is not None:
                seconds = float(match.group(1))
                continue
            if name is not None and seconds is not None and RESULT.match(line):
                tests.append((name, seconds, "Passed" in line))
                name, seconds = None, None
    return tests


def log_of(argument):
    if os.path.isdir(argument):
        return os.path.join(argument, "Testing", "Temporary", "LastTest.log")
    return argument


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="*", default=["build"],
                        help="build trees or LastTest.log files (default: build)")
    parser.add_argument("--top", type=int, default=20, help="how many rows (default 20)")
    args = parser.parse_args()

    rows, totals = [], []
    for run in args.runs:
        path = log_of(run)
        if not os.path.isfile(path):
            sys.exit(f"slowest-tests: {path}: no ctest log (run ctest in that tree first)")
        tests = read_log(path)
        if not tests:
            sys.exit(f"slowest-tests: {path}: no test results in it")
        label = os.path.basename(os.path.normpath(run)) if os.path.isdir(run) else path
        rows += [(seconds, label, name, passed) for name, seconds, passed in tests]
        totals.append((label, len(tests), sum(t[1] for t in tests)))

    rows.sort(key=lambda row: (-row[0], row[1], row[2]))
    print("| # | test | tree | seconds |")
    print("|---:|---|---|---:|")
    for i, (seconds, label, name, passed) in enumerate(rows[: args.top], 1):
        flag = "" if passed else " (failed)"
        print(f"| {i} | `{name}`{flag} | {label} | {seconds:.1f} |")
    print()
    for label, count, total in totals:
        print(f"{label}: {count} tests, {total:.0f} s of test time in all")


if __name__ == "__main__":
    main()
