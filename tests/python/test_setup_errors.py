"""Set-up failures say what to do (issue 21, "Bad input and failures"; docs/testing.md).

- A missing system library: CMake's configure (what `pip install .` runs first) stops with a
  message naming the Debian package and scripts/install-deps.sh, not a compiler error later.
- A machine that cannot reach PyPI: scripts/test-venv.sh (what `make test` runs) fails at once,
  naming the pinned packages it could not get, instead of going on without them.
"""

import os
import subprocess
import sys

import pytest

from conftest import SOURCE_DIR


@pytest.mark.parametrize("package,debian", [("embree", "libembree-dev"),
                                            ("Eigen3", "libeigen3-dev"),
                                            ("TBB", "libtbb-dev")])
def test_configure_names_the_debian_package_of_a_missing_library(package, debian, tmp_path):
    # CMAKE_DISABLE_FIND_PACKAGE_<name> makes CMake act as if the library were not installed.
    done = subprocess.run(
        ["cmake", "-S", SOURCE_DIR, "-B", str(tmp_path / "build"), "-DUBOT_BUILD_TESTS=OFF",
         "-DUBOT_BUILD_BENCH=OFF", "-DUBOT_BUILD_APPS=OFF", "-DUBOT_PYTHON=OFF",
         f"-DCMAKE_DISABLE_FIND_PACKAGE_{package}=TRUE"],
        capture_output=True, text=True, timeout=300)
    assert done.returncode != 0
    message = " ".join(done.stderr.split())  # CMake wraps long messages
    assert f"ubot needs {package}" in message, done.stderr
    assert f"install the Debian package {debian}" in message, done.stderr
    assert "scripts/install-deps.sh" in message, done.stderr


def test_test_venv_without_pypi_fails_at_once_naming_the_pins(tmp_path):
    venv = tmp_path / "venv"
    # PyPI out of reach: an index on a closed loopback port, no other place to look.
    env = dict(os.environ, PIP_INDEX_URL="http://127.0.0.1:9/simple", PIP_FIND_LINKS="",
               PIP_CONFIG_FILE=os.devnull, UBOT_VENV_PYTHON=sys.executable)
    done = subprocess.run([os.path.join(SOURCE_DIR, "scripts", "test-venv.sh"), "--deps-only",
                           str(venv)], capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode != 0, done.stdout
    assert "could not install the pinned test packages" in done.stderr, done.stderr
    for pin in ("gymnasium==", "ir-sim==", "pyrvo==", "cvxpy==", "pytest=="):
        assert pin in done.stderr, (pin, done.stderr[-2000:])
    assert not (venv / ".ubot-requirements").exists()  # nothing recorded as installed
