#!/usr/bin/env python3
"""Makes the parity tests' reference traces with IR-SIM itself, live (docs/irsim-parity.md).

usage: live_traces.py [--out DIR] [--jobs N] [--force] [--only NAME]...

Run with the pinned test venv's interpreter (requirements/test.txt: ir-sim, pyrvo, Shapely):
for every trace in the table of tests/data/irsim_traces/README.md it runs the project's trace
maker (tests/irsim_parity/dump.py) on the same world file, from the world's folder, with the
committed trace's options (meta: steps, seed, noise, action, behaviours), against the
*installed* IR-SIM, and writes

    DIR/<ir-sim version>/NAME.json      the trace (DIR: build/irsim-traces by default)
    DIR/<ir-sim version>/NAME.log       dump.py's output
    DIR/<ir-sim version>/manifest.json  per trace: made or not, and why not; the versions
    DIR/current -> <ir-sim version>     what the tests read ($UBOT_IRSIM_TRACES)

A trace already made with the same inputs (dump.py, the world file, the options and the
versions of IR-SIM, Shapely, numpy and pyrvo) is kept, so a warm run costs nothing; one that
failed with the same inputs is not retried either (one that timed out is). --force makes them
all again, as does UBOT_IRSIM_REMAKE=1 in the environment (`UBOT_IRSIM_REMAKE=1 ctest -R
irsim_live`). A world that this IR-SIM cannot make is recorded as not made, with the reason,
and its tests use the committed trace (tests/irsim_parity/irsim_trace.h: find_trace). Without
IR-SIM installed every trace is recorded so, in DIR/not-installed/. Exits non-zero only when
this script itself cannot run (a README row it cannot read, a committed trace missing).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import importlib.metadata
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.abspath(os.path.join(HERE, "..", ".."))
COMMITTED = os.path.join(SOURCE, "tests", "data", "irsim_traces")
README = os.path.join(COMMITTED, "README.md")
DUMP = os.path.join(HERE, "dump.py")
# The packages a trace depends on besides IR-SIM (their versions are part of a trace's key).
PACKAGES = ("ir-sim", "shapely", "numpy", "pyrvo")
# A trace takes a few seconds (multi_objects_large, sfm_world: about a minute on a busy core).
TIMEOUT_S = 900

ROW = re.compile(r"^\| `([A-Za-z0-9_]+)\.json` \| `([^`]+\.yaml)`")


def traces_in_readme() -> list[tuple[str, str]]:
    """(name, world file relative to the source tree) for every row of the README's table."""
    rows = []
    with open(README) as fh:
        for line in fh:
            if not line.startswith("| `"):
                continue
            m = ROW.match(line)
            if not m:
                sys.exit(f"{README}: cannot read the table row {line.strip()!r}")
            rows.append((m.group(1), m.group(2)))
    if not rows:
        sys.exit(f"{README}: no trace table")
    return rows


def committed_meta(name: str) -> dict:
    path = os.path.join(COMMITTED, name + ".json")
    with open(path) as fh:
        return json.load(fh)["meta"]


def dump_arguments(name: str, world: str) -> list[str]:
    """dump.py's arguments that made the committed trace, read back from its meta."""
    meta = committed_meta(name)
    if os.path.basename(world) != meta["world_file"]:
        sys.exit(f"{name}: README names {world}, the committed trace {meta['world_file']}")
    args = [os.path.join(SOURCE, world), str(meta["steps"]), "--seed", str(meta["seed"])]
    if meta.get("keep_noise"):
        args.append("--keep-noise")
    if meta.get("action"):
        args += ["--action", meta["action"], "--action-id", str(meta["action_id"])]
    for module in meta.get("load_behavior") or []:
        args += ["--load-behavior", module]
    return args


def package_versions() -> dict:
    versions = {}
    for package in PACKAGES:
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            versions[package] = None
    return versions


def input_key(world: str, args: list[str], versions: dict) -> str:
    h = hashlib.sha256()
    for path in (DUMP, os.path.join(SOURCE, world)):
        with open(path, "rb") as fh:
            h.update(fh.read())
    h.update(json.dumps([args[1:], versions], sort_keys=True).encode())
    return h.hexdigest()[:16]


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:300] if lines else "no output"


def make_trace(name: str, world: str, args: list[str], folder: str) -> dict:
    """Runs dump.py for one trace; returns its manifest entry (without the key)."""
    out = os.path.join(folder, name + ".json")
    part = out + ".part"
    log = os.path.join(folder, name + ".log")
    started = time.monotonic()
    env = dict(os.environ, MPLBACKEND="Agg")
    env.pop("IRSIM_SRC", None)
    try:
        proc = subprocess.run(
            [sys.executable, DUMP, *args, "-o", part, "--irsim-src", ""],
            cwd=os.path.dirname(os.path.join(SOURCE, world)),  # IR-SIM resolves maps from here
            env=env, capture_output=True, text=True, timeout=TIMEOUT_S)
        output, code = proc.stdout + proc.stderr, proc.returncode
    except subprocess.TimeoutExpired as e:
        output = f"{e.stdout or ''}{e.stderr or ''}\ntimed out after {TIMEOUT_S} s"
        code = None
    seconds = round(time.monotonic() - started, 1)
    with open(log, "w") as fh:
        fh.write(output)
    if code == 0 and os.path.exists(part):
        os.replace(part, out)
        return {"made": True, "world": world, "seconds": seconds}
    if os.path.exists(part):
        os.remove(part)
    if os.path.exists(out):
        os.remove(out)  # an older trace of other inputs must not be read as this one
    reason = last_line(output) if code is not None else f"timed out after {TIMEOUT_S} s"
    return {"made": False, "world": world, "seconds": seconds, "timed_out": code is None,
            "reason": f"dump.py exit {code}: {reason}" if code is not None else reason}


def write_json(path: str, data: dict) -> None:
    with open(path + ".part", "w") as fh:
        json.dump(data, fh, indent=1, sort_keys=True)
        fh.write("\n")
    os.replace(path + ".part", path)


def point_current(out: str, folder: str) -> None:
    link = os.path.join(out, "current")
    tmp = link + ".part"
    if os.path.lexists(tmp):
        os.remove(tmp)
    os.symlink(os.path.basename(folder), tmp)
    os.replace(tmp, link)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(SOURCE, "build", "irsim-traces"),
                    help="cache folder (default: build/irsim-traces in the source tree)")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--force", action="store_true",
                    default=os.environ.get("UBOT_IRSIM_REMAKE", "") not in ("", "0"),
                    help="make every trace again (also: UBOT_IRSIM_REMAKE=1 in the environment)")
    ap.add_argument("--only", action="append", default=[], metavar="NAME",
                    help="only this trace (repeatable)")
    args = ap.parse_args(argv)
    args.out = os.path.abspath(args.out)  # dump.py runs from each world's folder

    rows = traces_in_readme()
    if args.only:
        unknown = set(args.only) - {name for name, _ in rows}
        if unknown:
            sys.exit(f"not in {README}: {', '.join(sorted(unknown))}")
        rows = [(n, w) for n, w in rows if n in args.only]
    plans = {name: (world, dump_arguments(name, world)) for name, world in rows}

    versions = package_versions()
    irsim = versions["ir-sim"]
    folder = os.path.join(args.out, irsim or "not-installed")
    os.makedirs(folder, exist_ok=True)
    manifest_path = os.path.join(folder, "manifest.json")
    manifest = {"traces": {}}
    if os.path.exists(manifest_path):
        with open(manifest_path) as fh:
            manifest = json.load(fh)
    manifest.update({"irsim_version": irsim, "packages": versions, "python": sys.executable,
                     "generator": "tests/irsim_parity/dump.py"})
    entries = manifest.setdefault("traces", {})

    if irsim is None:
        reason = f"ir-sim is not installed in {sys.executable}"
        for name, (world, _) in plans.items():
            entries[name] = {"made": False, "world": world, "reason": reason}
        write_json(manifest_path, manifest)
        point_current(args.out, folder)
        print(f"{reason}: the parity tests use the committed traces ({folder})")
        return 0

    todo = {}
    kept = 0
    for name, (world, dump_args) in plans.items():
        key = input_key(world, dump_args, versions)
        entry = entries.get(name)
        made = os.path.exists(os.path.join(folder, name + ".json"))
        if (not args.force and entry and entry.get("key") == key
                and (made or not (entry.get("made") or entry.get("timed_out")))):
            kept += 1
            continue
        todo[name] = (world, dump_args, key)

    print(f"IR-SIM {irsim} ({sys.executable}): {len(plans)} traces, {kept} already made with "
          f"the same inputs, {len(todo)} to make with {args.jobs} jobs, into {folder}",
          flush=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(make_trace, name, world, dump_args, folder): (name, key)
                   for name, (world, dump_args, key) in todo.items()}
        for future in concurrent.futures.as_completed(futures):
            name, key = futures[future]
            entry = future.result()
            entry["key"] = key
            entries[name] = entry
            status = "made" if entry["made"] else f"NOT MADE ({entry['reason']})"
            print(f"  {name}: {status} in {entry['seconds']} s", flush=True)
            write_json(manifest_path, manifest)  # progress survives an interrupted run
    # Only the README's traces: a row removed since the last run leaves no stale entry.
    if not args.only:
        for name in list(entries):
            if name not in plans:
                del entries[name]
    write_json(manifest_path, manifest)
    point_current(args.out, folder)

    missing = sorted(n for n in plans if not entries[n]["made"])
    print(f"live traces: {len(plans) - len(missing)} of {len(plans)} made by IR-SIM {irsim}"
          + (f"; not made (their tests use the committed trace): {', '.join(missing)}"
             if missing else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
