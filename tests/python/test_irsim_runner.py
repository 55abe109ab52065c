"""``python3 -m ubot.irsim SCRIPT.py ARGS``: ``irsim`` and its submodules resolve to ubot.irsim."""

import os
import shutil
import subprocess
import sys
import tempfile

import pytest

WORLD = """
world: {height: 10, width: 10, step_time: 0.1}
robot:
  - kinematics: {name: 'diff'}
    shape: {name: 'circle', radius: 0.2}
    state: [1, 1, 0]
    goal: [3, 1, 0]
    behavior: {name: 'dash'}
"""

SCRIPT = """
import sys
import irsim
from irsim.lib import register_behavior
from irsim.lib.behavior.behavior_registry import register_group_behavior_class
from irsim.util.util import WrapToPi, relative_position
from irsim.world.object_base import ObjectBase
import ubot.irsim

assert irsim is ubot.irsim, "irsim must be ubot.irsim itself"
assert abs(WrapToPi(3 * 3.141592653589793) - (-3.141592653589793)) < 1e-12
env = irsim.make()  # IR-SIM's default: the script's name with .yaml
assert isinstance(env.robot, ObjectBase)
for i in range(200):
    env.step()
    env.render()
    if env.done():
        break
print("args", sys.argv[1:], "steps", i + 1, "arrived", env.robot.arrive)
try:
    import irsim.lib.handler
except ImportError as err:
    print("import error:", err)
env.end()
"""


@pytest.fixture()
def folder():
    path = tempfile.mkdtemp(prefix=f"ubot_irsim_runner_{os.getpid()}_")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def absolute_pythonpath() -> str:
    """PYTHONPATH with absolute entries: the scripts run in another directory."""
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    return os.pathsep.join(os.path.abspath(p) for p in paths if p)


def run(folder: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=absolute_pythonpath())
    return subprocess.run([sys.executable, "-m", "ubot.irsim", *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=120)


def write_script(folder: str, script: str) -> None:
    """go.py (the script) and go.yaml (WORLD, the world it loads) in `folder`."""
    for name, text in (("go.py", script), ("go.yaml", WORLD)):
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)


def test_script_runs_with_irsim_resolving_to_ubot(folder):
    write_script(folder, SCRIPT)
    done = run(folder, "go.py", "--fast", "7")
    assert done.returncode == 0, done.stderr
    assert "args ['--fast', '7']" in done.stdout
    assert "arrived True" in done.stdout
    assert "import error: irsim.lib.handler is not provided by ubot.irsim" in done.stdout


def test_missing_script_is_an_error(folder):
    done = run(folder, "absent.py")
    assert done.returncode == 2
    assert "absent.py: no such script" in done.stderr


def test_no_arguments_prints_usage(folder):
    done = run(folder)
    assert done.returncode == 2
    assert ("usage: python3 -m ubot.irsim [--max-steps N] [--ubot-pyrvo] [--live [HOST:]PORT] "
            "SCRIPT.py") in done.stderr


LOOP_SCRIPT = """
import irsim
env = irsim.make("go.yaml")
steps = 0
while not env.done():
    env.step()
    steps += 1
print("steps", steps, "arrived", env.robot.arrive)
"""


def test_max_steps_ends_a_script_whose_robots_never_arrive(folder):
    # The robot's goal is 2 m away at 1 m/s: it arrives after about 20 steps, so a limit of 7
    # ends the loop first, and without the limit the loop ends at the arrival.
    write_script(folder, LOOP_SCRIPT)
    limited = run(folder, "--max-steps", "7", "go.py")
    assert limited.returncode == 0, limited.stderr
    assert "steps 7 arrived False" in limited.stdout
    free = run(folder, "go.py")
    assert free.returncode == 0, free.stderr
    assert "arrived True" in free.stdout and "steps 7 " not in free.stdout


@pytest.mark.parametrize("args", [["--max-steps"], ["--max-steps", "0", "go.py"],
                                  ["--max-steps", "x", "go.py"], ["--max-steps", "5"]])
def test_a_bad_max_steps_is_an_error(folder, args):
    done = run(folder, *args)
    assert done.returncode == 2
    assert "--max-steps needs a whole number >= 1 and a script" in done.stderr


LIVE_SCRIPT = """
import re, sys, time, urllib.request
import irsim
env = irsim.make("go.yaml", display=True)
for _ in range(5):
    env.step()
    env.render(0.02)
env.end()
"""

PAGE_SCRIPT = """
import io, re, sys, contextlib, urllib.request
import irsim
out = io.StringIO()
with contextlib.redirect_stdout(out):
    env = irsim.make("go.yaml", display=True)
url = re.search(r"live view at (\\S+)", out.getvalue()).group(1)
print("page", urllib.request.urlopen(url, timeout=5).status)
env.step()
env.render(0.0)
"""


def test_live_shows_a_display_true_env_in_the_live_page(folder):
    # --live (or UBOT_LIVE): display=True serves the live view; render(interval) paces the
    # script as IR-SIM's plt.pause does.
    write_script(folder, LIVE_SCRIPT)
    start = __import__("time").monotonic()
    done = run(folder, "--live", "127.0.0.1:0", "go.py")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("live view at http://127.0.0.1:"), done.stdout
    assert __import__("time").monotonic() - start >= 5 * 0.02
    write_script(folder, PAGE_SCRIPT)
    env = dict(os.environ, PYTHONPATH=absolute_pythonpath(), UBOT_LIVE="127.0.0.1:0")
    page = subprocess.run([sys.executable, "-m", "ubot.irsim", "go.py"], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=120)
    assert page.returncode == 0, page.stderr
    assert "page 200" in page.stdout


def test_live_without_an_address_is_an_error(folder):
    done = run(folder, "--live", "go.py")
    assert done.returncode == 2
    assert "--live needs [HOST:]PORT and a script" in done.stderr
