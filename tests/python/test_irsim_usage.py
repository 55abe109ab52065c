"""IR-SIM's own usage/ scripts, unchanged, under ``python3 -m ubot.irsim`` (issue 12 item 3).

The list of scripts and their status is the table in docs/irsim-python.md, so the docs and
the tests cannot drift apart: a script marked ``runs`` must run to its end headless and exit 0;
one marked ``runs, never ends`` (its robots never arrive, as in IR-SIM) must run for
``NEVER_ENDS_STEPS`` steps under ``--max-steps``; one marked ``world not loadable yet`` or ``behaviour not in ubot yet`` must still fail, with
an error naming the first `key` of its note (when another change makes it run, the test
reports xfail "runs now": the table should then say ``runs``). Each script
runs from a fresh copy of its usage/ folder with the pid in the path (ctest runs in parallel).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
USAGE = os.path.join(ROOT, "tests", "data", "irsim_usage")
DOC = os.path.join(ROOT, "docs", "irsim-python.md")
ROW = re.compile(r"^\| `(?P<script>\d\d[^`]+\.py)` \| (?P<status>[^|]+?) \| (?P<note>.*)\|$")


def table_rows() -> list:
    with open(DOC, encoding="utf-8") as f:
        rows = [ROW.match(line.rstrip("\n")) for line in f]
    return [(m["script"], m["status"].strip(), m["note"].strip()) for m in rows if m]


ROWS = table_rows()


def absolute_pythonpath() -> str:
    """PYTHONPATH with absolute entries: the scripts run in another directory."""
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    return os.pathsep.join(os.path.abspath(p) for p in paths if p)


def headless_env() -> dict:
    """The environment a usage script runs in: no display, matplotlib's Agg backend."""
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=absolute_pythonpath())
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return env


def run_script(script: str, tmp_root: str, max_steps=None) -> subprocess.CompletedProcess:
    folder, name = script.split("/")
    work = os.path.join(tmp_root, folder)
    shutil.copytree(os.path.join(USAGE, folder), work)
    env = headless_env()
    limit = ["--max-steps", str(max_steps)] if max_steps else []
    return subprocess.run([sys.executable, "-m", "ubot.irsim", *limit, name], cwd=work, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture()
def tmp_root():
    path = tempfile.mkdtemp(prefix=f"ubot_irsim_usage_{os.getpid()}_")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_table_lists_every_usage_script():
    helpers = {"custom_behavior_methods.py", "custom_group_methods.py", "cbf_qp.py", "c3bf_qp.py"}
    on_disk = sorted(f"{d}/{f}" for d in os.listdir(USAGE) if os.path.isdir(os.path.join(USAGE, d))
                     for f in os.listdir(os.path.join(USAGE, d))
                     if f.endswith(".py") and f not in helpers)
    assert sorted(script for script, _, _ in ROWS) == on_disk


@pytest.mark.parametrize("script", [s for s, status, _ in ROWS if status == "runs"])
def test_script_runs_to_its_end(script, tmp_root):
    done = run_script(script, tmp_root)
    assert done.returncode == 0, f"{script} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"


# Scripts that loop `while not env.done()` over robots that never arrive (`loop` goals): they run
# forever in IR-SIM too, so they run here for a bounded number of steps.
NEVER_ENDS_STEPS = 300


@pytest.mark.parametrize("script", [s for s, status, _ in ROWS if status == "runs, never ends"])
def test_script_that_never_ends_runs_for_its_steps(script, tmp_root):
    done = run_script(script, tmp_root, max_steps=NEVER_ENDS_STEPS)
    assert done.returncode == 0, f"{script} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"


NOT_YET = ("world not loadable yet", "behaviour not in ubot yet")


@pytest.mark.parametrize("script,note", [(s, n) for s, status, n in ROWS if status in NOT_YET])
def test_script_not_supported_yet_fails_for_the_reason_given(script, note, tmp_root):
    done = run_script(script, tmp_root)
    if done.returncode == 0:
        pytest.xfail(f"{script} runs now: mark it 'runs' in docs/irsim-python.md")
    key = re.search(r"`([^`]+)`", note).group(1)
    assert key in done.stderr, f"{script}: expected an error naming {key}:\n{done.stderr[-3000:]}"


# Runs a usage script and prints where its robot ended: under `python3 -m ubot.irsim` (irsim is
# ubot's) or plain Python (IR-SIM itself, from the test venv).
ENDED_AT = """
import json, runpy, sys
import irsim

made = []
make = irsim.make
irsim.make = lambda *a, **k: made.append(make(*a, **k)) or made[-1]
runpy.run_path(sys.argv[1], run_name="__main__")
robot = made[0].robot
print(json.dumps({"state": robot.state[:3, 0].tolist(), "arrive": bool(robot.arrive),
                  "collision": bool(robot.collision), "time": float(made[0].time)}))
"""


@pytest.mark.parametrize("script", ["21cbf_world/cbf_world.py", "21cbf_world/c3bf_world.py"])
def test_cbf_scripts_end_where_irsim_itself_ends(script, tmp_root):
    """The CBF controllers solve their QP with the real cvxpy at every step, from the states
    ubot.irsim gives them; IR-SIM itself (pinned in the test venv) with the same cvxpy must end
    its robot at the same pose, at the same time (the trajectories are equal to the last bit
    today: 1e-9 m leaves room for a solver's rounding, not for a different path)."""
    import cvxpy  # noqa: F401  (installed in the test venv: no skip)
    import irsim as real_irsim

    assert not real_irsim.__name__.startswith("ubot")
    folder, name = script.split("/")
    work = os.path.join(tmp_root, folder)
    shutil.copytree(os.path.join(USAGE, folder), work)
    with open(os.path.join(work, "ended_at.py"), "w", encoding="utf-8") as f:
        f.write(ENDED_AT)
    env = headless_env()
    ended = {}
    for side, cmd in (("ubot", [sys.executable, "-m", "ubot.irsim", "ended_at.py", name]),
                      ("irsim", [sys.executable, "ended_at.py", name])):
        done = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True,
                              timeout=900)
        assert done.returncode == 0, f"{side}: {done.stderr[-3000:]}"
        ended[side] = json.loads(done.stdout.strip().splitlines()[-1])
    assert ended["irsim"]["arrive"] and not ended["irsim"]["collision"]
    assert ended["ubot"]["arrive"] == ended["irsim"]["arrive"]
    assert ended["ubot"]["collision"] == ended["irsim"]["collision"]
    assert ended["ubot"]["time"] == pytest.approx(ended["irsim"]["time"], abs=1e-9)
    assert ended["ubot"]["state"] == pytest.approx(ended["irsim"]["state"], abs=1e-9)
