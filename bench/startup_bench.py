#!/usr/bin/env python3
"""Start-up times (issue 45, item 3), wall clock from the moment a process is spawned:

  (a) `ubot run` on a tiny world, to the first step: the time until ubot writes its "step 0/N"
      progress line (written after the world is loaded, the scene built and every output opened,
      just before the first step), read through a pipe; also the whole `--steps 0` run;
  (b) `import ubot` in Python: `python -c 'import ubot'` less `python -c pass`, and the `ubot`
      line of `python -X importtime` (the import alone, in the process);
  (c) loading bench/worlds/fleet_10000.yaml (10,000 robots, 5,000 obstacles): to its "building the
      scene" line (parsed and expanded), to its "step 0/1" line (scene and simulation built), and
      the whole `ubot validate`.

Each case runs --repeat times, the cases interleaved so that they see the same machine load; the
table gives the median, the min and the max in ms. The floors beside them: spawning /bin/true
(fork, exec, wait), and `ubot --version` (the dynamic loader and static constructors: all a run
pays before main). Two builds compare side by side, each case run by one then the other: give
--ubot and --pythonpath (the folder `import ubot` is taken from, e.g. build/python) a
comma-separated value each, before,after.

usage: bench/startup_bench.py [--ubot build/ubot[,OTHER/ubot]] [--python build/venv/bin/python]
                              [--pythonpath DIR[,OTHER_DIR]] [--repeat 21] [--only a,b,c]
"""

import argparse
import os
import re
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The smallest world a run can have: one robot, no sensor, no obstacle.
ONE_ROBOT = """world: {width: 10, height: 10, step_time: 0.1}
robot:
  - {kinematics: {name: diff}, shape: {name: circle, radius: 0.2}, state: [1, 1, 0],
     goal: [9, 9, 0]}
"""


def wall_ms(cmd, env=None):
    """Wall time of one whole process, spawn to exit."""
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
    return (time.perf_counter() - start) * 1e3


def line_times_ms(cmd, patterns):
    """Spawn `cmd` and time, from the spawn, the first stderr line matching each pattern; then the
    exit. Returns [ms per pattern..., ms to exit]."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seen = [None] * len(patterns)
    for line in p.stderr:
        now = time.perf_counter()
        for i, pattern in enumerate(patterns):
            if seen[i] is None and pattern.search(line):
                seen[i] = (now - start) * 1e3
    if p.wait() != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}")
    if None in seen:
        raise SystemExit(f"no line {patterns[seen.index(None)].pattern!r} from {' '.join(cmd)}")
    return seen + [(time.perf_counter() - start) * 1e3]


def importtime_ms(python, env):
    """The cumulative time `python -X importtime` gives the `ubot` package."""
    r = subprocess.run([python, "-X", "importtime", "-c", "import ubot"], capture_output=True,
                       text=True, check=True, env=env)
    for line in r.stderr.splitlines():
        fields = line.split("|")
        if len(fields) == 3 and fields[2].strip() == "ubot":
            return int(fields[1]) / 1e3
    raise SystemExit("no 'ubot' line in python -X importtime's output")


STEP0 = re.compile(rb"^step 0/")
SCENE = re.compile(rb"building the scene")


def cases(ubot, python, pythonpath, fleet, tmp):
    """(group, name, function returning one or more ms figures, their labels) for one build."""
    one = os.path.join(tmp, "one_robot.yaml")
    with open(one, "w") as f:
        f.write(ONE_ROBOT)
    lidar = os.path.join(ROOT, "examples", "lidar_world.yaml")
    out = os.path.join(tmp, "out")
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    none = ["--frames", "none", "--no-picture"]

    def run(world, *flags):
        return [ubot, "run", world, "--out", out, *flags]

    yield ("floor", "spawn /bin/true", lambda: [wall_ms(["/bin/true"])], ["exit"])
    yield ("floor", "ubot --version", lambda: [wall_ms([ubot, "--version"])], ["exit"])
    for name, world in (("lidar_world.yaml", lidar), ("1 robot", one)):
        yield ("a", f"{name}, default outputs",
               lambda w=world: line_times_ms(run(w, "--steps", "1", "--progress"), [STEP0])[:1],
               ["step 0"])
        yield ("a", f"{name}, --frames none --no-picture",
               lambda w=world: line_times_ms(run(w, "--steps", "1", "--progress", *none), [STEP0]),
               ["step 0", "exit"])
        yield ("a", f"{name}, --steps 0 --quiet (whole run)",
               lambda w=world: [wall_ms(run(w, "--steps", "0", "--quiet"))], ["exit"])
    yield ("b", "python -c pass", lambda: [wall_ms([python, "-c", "pass"], env)], ["exit"])
    yield ("b", "python -c 'import ubot'", lambda: [wall_ms([python, "-c", "import ubot"], env)],
           ["exit"])
    yield ("b", "-X importtime: ubot (cumulative)", lambda: [importtime_ms(python, env)],
           ["import"])
    yield ("c", "fleet_10000 run --steps 1 --frames none --no-picture",
           lambda: line_times_ms(run(fleet, "--steps", "1", "--progress", *none), [SCENE, STEP0]),
           ["parsed", "step 0", "exit"])
    yield ("c", "fleet_10000 validate", lambda: [wall_ms([ubot, "validate", fleet])], ["exit"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ubot", default=os.path.join(ROOT, "build", "ubot"),
                        help="the command, or two: before,after")
    parser.add_argument("--python", default=os.path.join(ROOT, "build", "venv", "bin", "python"))
    parser.add_argument("--pythonpath", default="",
                        help="PYTHONPATH for (b), e.g. build/python; two: before,after")
    parser.add_argument("--fleet",
                        default=os.path.join(ROOT, "bench", "worlds", "fleet_10000.yaml"))
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--only", default="a,b,c", help="groups to run, of a, b, c")
    args = parser.parse_args()
    ubots = args.ubot.split(",")
    paths = args.pythonpath.split(",") if args.pythonpath else [""] * len(ubots)
    if len(paths) != len(ubots):
        parser.error("--ubot and --pythonpath name the same number of builds")
    groups = {"floor", *args.only.split(",")}
    with tempfile.TemporaryDirectory(prefix="ubot-startup-") as tmp:
        builds = [[c for c in cases(u, args.python, p, args.fleet, tmp) if c[0] in groups]
                  for u, p in zip(ubots, paths)]
        figures = [{name: [[] for _ in labels] for _, name, _, labels in todo} for todo in builds]
        for _ in range(args.repeat):
            for i in range(len(builds[0])):  # each case, build after build
                for todo, figs in zip(builds, figures):
                    _, name, measure, _ = todo[i]
                    for series, ms in zip(figs[name], measure()):
                        series.append(ms)
    print(f"wall ms from spawn: median (min-max) of {args.repeat}, interleaved")
    for build, (ubot, path), figs in zip(range(len(ubots)), zip(ubots, paths), figures):
        print(f"{ubot}; import ubot from {module_path(args.python, path)}")
        for group, name, _, labels in builds[build]:
            cells = [f"{label} {statistics.median(s):7.1f} ({min(s):.1f}-{max(s):.1f})"
                     for label, s in zip(labels, figs[name])]
            print(f"  {group:5s} {name:52s} {'   '.join(cells)}")
        if "python -c pass" in figs:
            extra = (statistics.median(figs["python -c 'import ubot'"][0]) -
                     statistics.median(figs["python -c pass"][0]))
            print(f"  b     {'import ubot less the bare interpreter (medians)':52s} {extra:7.1f}")


def module_path(python, pythonpath):
    """Where `import ubot` finds the package, so that a table says which build it timed."""
    env = dict(os.environ, PYTHONPATH=pythonpath) if pythonpath else None
    r = subprocess.run([python, "-c", "import ubot; print(ubot.__file__)"], capture_output=True,
                       text=True, env=env)
    return os.path.dirname(r.stdout.strip()) if r.returncode == 0 else "(no ubot)"


if __name__ == "__main__":
    main()
