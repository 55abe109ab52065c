#!/usr/bin/env bash
# The pinned test venv (docs/testing.md, "The test venv"): creates or updates VENV from
# requirements/test.txt (exact versions, from PyPI), then installs this checkout into it with
# pip. `make test` runs the Python tests with VENV's interpreter and the ubot installed there.
# usage: scripts/test-venv.sh [--deps-only] VENV
#   --deps-only: the pinned packages only (`make format-check` needs just clang-format)
#   UBOT_VENV_PYTHON: the base interpreter, default Debian's /usr/bin/python3
set -euo pipefail
cd "$(dirname "$0")/.."
deps_only=0
if [[ ${1:-} == --deps-only ]]; then
  deps_only=1
  shift
fi
venv=${1:?usage: scripts/test-venv.sh [--deps-only] VENV}
base_python=${UBOT_VENV_PYTHON:-/usr/bin/python3}
requirements=requirements/test.txt
stamp=$venv/.ubot-requirements

if [[ ! -x $venv/bin/python ]]; then
  echo "test venv: creating $venv from $base_python ($("$base_python" --version 2>&1))"
  "$base_python" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check)

# The pins are installed again only when requirements/test.txt changed since the last time.
# A machine that cannot reach PyPI fails here, at once, naming what it could not get: the
# Python tests never run (or pass) without them.
if ! cmp -s "$requirements" "$stamp"; then
  echo "test venv: installing the pinned packages of $requirements"
  if ! "${pip[@]}" install --quiet --retries 2 --timeout 30 -r "$requirements"; then
    pins=$(grep -v -E '^\s*(#|$)' "$requirements" | sed 's/;.*//' | tr -s ' \n' ' ')
    echo "make test: error: could not install the pinned test packages into $venv." >&2
    echo "  They come from PyPI (pip's index and proxy settings apply): ${pins}" >&2
    exit 1
  fi
  cp "$requirements" "$stamp"
fi
((deps_only)) && exit 0

# The project itself. The venv already holds the build backend at its pinned versions, so this
# install is not isolated: its include paths stay the same from run to run, and a rebuild
# compiles only what changed. `python_pip_install`
# (tests/python/pip_install_check.py) installs with build isolation, as users do.
echo "test venv: installing ubot from $(pwd) into $venv"
# Its own CMake tree, build-venv/ (beside build/ at the same depth, so ccache, with paths
# relative to CCACHE_BASEDIR, finds `make build`'s objects; not pyproject.toml's
# build-pip-<tag>/, which the isolated builds of python_pip_install configure differently).
# Ninja and the compiler `make build` uses, and its generated headers' folder (the Makefile's
# UBOT_GENERATED_INCLUDE_DIR): the same compiler command lines, so ccache's objects fit.
generated=()
if [[ -n ${UBOT_GENERATED_INCLUDE_DIR:-} ]]; then
  generated=(--config-settings=cmake.define.UBOT_GENERATED_INCLUDE_DIR="$UBOT_GENERATED_INCLUDE_DIR")
fi
SKBUILD_BUILD_DIR=build-venv CMAKE_GENERATOR=Ninja CC=${CC:-cc} CXX=${CXX:-c++} \
  CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)} \
  "${pip[@]}" install --quiet --no-deps --no-build-isolation --force-reinstall "${generated[@]}" .
"$venv/bin/python" -c 'import ubot, sys; print("test venv: ubot", ubot.__version__, "on Python", sys.version.split()[0])'
