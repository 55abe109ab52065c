#!/usr/bin/env python3
"""ubot installs as Python users install packages (docs/python.md, "Install").

usage: pip_install_check.py SOURCE_DIR PYTHON [PYTHON...]

In fresh venvs that see no system site-packages, with build isolation (scikit-build-core and
pybind11 from PyPI, the C++ libraries from the system):
  - the first interpreter (the one on PATH, tests/python/CMakeLists.txt): `pip wheel .`, then
    that wheel with the `gym` extra into another fresh venv;
  - every other one (Debian's): `pip install .`;
then, in each: `import ubot` from another folder with no PYTHONPATH, a simulation steps,
`ubot --version` (the command the wheel puts into the venv's bin/) prints ubot.__version__,
and with the extra, Gymnasium came along and ubot.VectorEnv is a gymnasium.vector.VectorEnv;
without it, ubot.VectorEnv raises an ImportError naming the extra.
Each interpreter's CMake tree is pyproject.toml's build-pip-<cache tag>/, kept between runs.
"""

import os
import shutil
import subprocess
import sys
import tempfile


def run(cmd, **kw):
    print("+", " ".join(cmd), flush=True)
    return subprocess.run(cmd, check=True, **kw)


def shared_objects():
    """Under `make test`, the build's generated-headers folder (the Makefile's
    UBOT_GENERATED_INCLUDE_DIR, src/CMakeLists.txt): with it, these builds compile with the
    same command lines as `make build` but for pybind11's include folder, so ccache serves all
    but the bindings. What is built and installed does not change."""
    folder = os.environ.get("UBOT_GENERATED_INCLUDE_DIR")
    return [f"--config-settings=cmake.define.UBOT_GENERATED_INCLUDE_DIR={folder}"] if folder else []


def fresh_venv(base_python, where):
    run([base_python, "-m", "venv", where])
    return os.path.join(where, "bin", "python")


def check_installed(python, source, env, cwd, want_gym):
    check = (
        "import os, sys, subprocess, ubot\n"
        "assert ubot.__file__.startswith(sys.prefix), ubot.__file__\n"
        f"sim = ubot.Simulation({os.path.join(source, 'examples', 'lidar_world.yaml')!r})\n"
        "sim.step()\n"
        "assert sim.sensor('robot_0', 'lidar2d_0').ranges.shape == (200,)\n"
        "cli = os.path.join(os.path.dirname(sys.executable), 'ubot')\n"
        "out = subprocess.run([cli, '--version'], check=True, capture_output=True, text=True).stdout\n"
        "assert ubot.__version__ in out.split(), (out, ubot.__version__)\n"
        f"if {want_gym!r}:\n"
        "    import gymnasium\n"
        "    envs = ubot.VectorEnv(sim.world_file, 2)\n"
        "    assert isinstance(envs, gymnasium.vector.VectorEnv)\n"
        "else:  # no Gymnasium in this venv: VectorEnv says what to install\n"
        "    try:\n"
        "        ubot.VectorEnv\n"
        "    except ImportError as e:\n"
        "        assert \"pip install 'ubot[gym]'\" in str(e), e\n"
        "    else:\n"
        "        raise AssertionError('ubot.VectorEnv without Gymnasium')\n"
        "    try:\n"
        "        ubot.sweep\n"
        "    except ImportError as e:\n"
        "        assert \"pip install 'ubot[sweep]'\" in str(e), e\n"
        "    else:\n"
        "        raise AssertionError('ubot.sweep without the sweep extra')\n"
        "print('installed', ubot.__version__, 'at', os.path.dirname(ubot.__file__))\n")
    run([python, "-c", check], env=env, cwd=cwd)


def check_wheel(base_python, source, work, env):
    """`pip wheel .`, then the wheel with the gym extra into another fresh venv."""
    wheels = os.path.join(work, "wheels")
    builder = fresh_venv(base_python, os.path.join(work, "build-venv"))
    run([builder, "-m", "pip", "wheel", "--quiet", "--no-deps", *shared_objects(), "-w", wheels,
         source],
        env=env, cwd=work)
    (wheel,) = [w for w in os.listdir(wheels) if w.startswith("ubot-") and w.endswith(".whl")]
    user = fresh_venv(base_python, os.path.join(work, "wheel-venv"))
    run([user, "-m", "pip", "install", "--quiet",
         f"ubot[gym] @ file://{os.path.join(wheels, wheel)}"], env=env, cwd=work)
    check_installed(user, source, env, work, want_gym=True)


def check_install(base_python, source, work, env):
    """`pip install .` into a fresh venv."""
    plain = fresh_venv(base_python, os.path.join(work, "source-venv"))
    run([plain, "-m", "pip", "install", "--quiet", *shared_objects(), source], env=env, cwd=work)
    check_installed(plain, source, env, work, want_gym=False)


def main():
    source, pythons = os.path.abspath(sys.argv[1]), sys.argv[2:]
    # Ninja and the compiler `make build` uses, as the test venv's build.
    env = dict(os.environ, CMAKE_GENERATOR="Ninja", CC=os.environ.get("CC", "cc"),
               CXX=os.environ.get("CXX", "c++"))
    env.pop("PYTHONPATH", None)
    # Each isolated build compiles the bindings anew (pybind11's headers sit in a new temporary
    # folder each time, so ccache cannot help): the first interpreter makes and installs a
    # wheel, the others `pip install .`; both are the same PEP 517 build.
    distinct = []
    for python in pythons:
        if python and os.path.realpath(python) not in [os.path.realpath(p) for p in distinct]:
            distinct.append(python)
    for i, base_python in enumerate(distinct):
        work = tempfile.mkdtemp(prefix=f"ubot_pip_{os.getpid()}_")
        try:
            (check_wheel if i == 0 else check_install)(base_python, source, work, env)
        finally:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
