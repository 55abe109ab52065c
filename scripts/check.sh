#!/usr/bin/env bash
# `make check` (docs/testing.md, "The inner loop"): what a developer runs after an edit, in about
# two minutes when the build is warm. No sanitizers, Valgrind or fuzzing: `make test` runs those.
#   1. the Release build's unit tests: ctest's `unit` entries, one per GoogleTest binary, JOBS at
#      a time, with Embree's default ISA;
#   2. the Python tests that touch what changed since BASE (default HEAD: the edits not yet
#      committed), in the test venv: a changed tests/python/test_X.py itself, and for a changed
#      python/ubot/X.py or python/src/X.cpp every test that names X;
#   3. the ctest entries of changed tests/app/test_X.py files.
# usage: scripts/check.sh BUILD_DIR [BASE]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: scripts/check.sh BUILD_DIR [BASE]}
base=${2:-HEAD}
jobs=${JOBS:-$(nproc)}
start=$(date +%s)

# ---- 1. the unit tests -------------------------------------------------------------------------
# ctest's `unit` entries: one per GoogleTest binary (UBOT_TEST_PER_BINARY), run whole.
echo "check: the unit tests of $build, $jobs at a time"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! (cd "$build" && ctest --output-on-failure -j "$jobs" -L unit) >"$log" 2>&1; then
  cat "$log"
  echo "make check: unit tests failed (above)" >&2
  exit 1
fi
grep -E 'tests passed' "$log"
echo "check: unit tests passed ($(($(date +%s) - start)) s)"

# ---- 2. and 3. what changed ----------------------------------------------------------------------
mapfile -t changed < <({ git diff --name-only "$base" --; git ls-files --others --exclude-standard; } |
  sort -u)
python_tests=()
app_tests=()
add_python() { [[ -f $1 ]] && python_tests+=("$1"); return 0; }
for f in "${changed[@]}"; do
  case $f in
    tests/python/test_*.py) add_python "$f" ;;
    python/ubot/*.py | python/ubot/*/*.py | python/src/*.cpp | python/src/*.h)
      name=$(basename "${f%.*}")
      [[ $name == __init__ ]] && name=$(basename "$(dirname "$f")")
      while read -r t; do add_python "$t"; done < <(grep -l -w -- "$name" tests/python/test_*.py || true) ;;
    tests/app/test_*.py) app_tests+=("$(basename "${f%.py}")") ;;
  esac
done
mapfile -t python_tests < <(printf '%s\n' "${python_tests[@]}" | sort -u | sed '/^$/d')

if ((${#python_tests[@]})); then
  # The venv's ubot is this checkout's (make check's venv step reinstalled it).
  echo "check: Python tests touching the change: ${python_tests[*]}"
  UBOT_SOURCE_DIR=$PWD UBOT_BIN=$PWD/$build/ubot "$build/venv/bin/python" -m pytest -q \
    -p no:cacheprovider "${python_tests[@]}"
else
  echo "check: no Python test touches the change"
fi
if ((${#app_tests[@]})); then
  regex=$(printf '%s|' "${app_tests[@]#test_}")
  (cd "$build" && ctest --output-on-failure -j "$jobs" -L app -R "(${regex%|})")
fi
echo "check: passed in $(($(date +%s) - start)) s"
