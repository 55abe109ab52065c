#!/usr/bin/env python3
"""`pip install --no-build-isolation .` into a fresh venv, offline, then `import ubot` there
(docs/python.md, "Install"). usage: pip_install_check.py SOURCE_DIR CMAKE_BUILD_DIR

The venv sees the system site-packages (Debian's numpy, setuptools); the CMake tree is kept in
CMAKE_BUILD_DIR so that later runs only rebuild what changed.
"""

import os
import shutil
import subprocess
import sys
import tempfile


def main():
    source, cmake_dir = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix=f"ubot_pip_{os.getpid()}_")
    try:
        venv = os.path.join(work, "venv")
        subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", venv],
                       check=True)
        python = os.path.join(venv, "bin", "python")
        env = dict(os.environ, UBOT_CMAKE_BUILD_DIR=cmake_dir, PIP_NO_INDEX="1")
        env.pop("PYTHONPATH", None)
        subprocess.run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index",
                        "--quiet", source], check=True, env=env, cwd=work)
        check = (
            "import os, sys, ubot\n"
            "assert ubot.__file__.startswith(sys.prefix), ubot.__file__\n"
            f"sim = ubot.Simulation({os.path.join(source, 'examples', 'lidar_world.yaml')!r})\n"
            "sim.step()\n"
            "assert sim.sensor('robot_0', 'lidar2d_0').ranges.shape == (200,)\n"
            "envs = ubot.VectorEnv(sim.world_file, 2)\n"
            "print('installed', ubot.__version__, 'at', os.path.dirname(ubot.__file__))\n")
        subprocess.run([python, "-c", check], check=True, env=env, cwd=work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
