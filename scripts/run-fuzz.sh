#!/usr/bin/env bash
# Runs every libFuzzer target of tests/fuzz for SECONDS each, from its seed corpus
# (tests/fuzz/corpus/<target>, never written to: new inputs go to BUILD/fuzz-corpus/<target>).
# Fails on the first crash, sanitizer report, leak, timeout or out-of-memory; the input that
# failed is saved as BUILD/fuzz-artifacts/<target>-crash-*.
# Usage: run-fuzz.sh BUILD SECONDS TARGET... (the Makefile's FUZZ_TARGETS: fuzz_world_yaml ...)
# FUZZ_SEED: libFuzzer's -seed. 0 (the default) draws one per run, for `make fuzz`, which explores;
# `make test` passes a fixed one, so each CI run tries the same inputs in the same order (cut off
# at SECONDS) and a red run is a change in the code, never a lucky draw: stops 35 and 36 went red
# on inputs an earlier run of the same commit had not drawn.
set -euo pipefail
usage="usage: run-fuzz.sh BUILD SECONDS TARGET..."
build=${1:?$usage}
seconds=${2:?$usage}
shift 2
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
targets=("${@#fuzz_}")
mkdir -p "$build/fuzz-artifacts"
for t in "${targets[@]}"; do
  work="$build/fuzz-corpus/$t"
  mkdir -p "$work"
  seed=${FUZZ_SEED:-0}
  # fuzz_python is atheris (libFuzzer for Python) on the module installed in FUZZ_PYTHON's venv.
  if [ "$t" = python ]; then
    command=("${FUZZ_PYTHON:-$root/build/venv/bin/python}" "$root/tests/fuzz/python_module_fuzzer.py")
  else
    command=("$build/tests/fuzz/fuzz_$t")
  fi
  echo "fuzz_$t: ${seconds}s, seed $seed"
  # -timeout: one input may take at most 10 s; -rss_limit_mb: 2 GB; inputs up to 64 kB.
  if ! ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
      LSAN_OPTIONS="suppressions=$root/tests/fuzz/lsan.supp" \
      "${command[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -max_len=65536 -seed="$seed" -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$t-" \
      "$work" "$root/tests/fuzz/corpus/$t" >"$build/fuzz-$t.log" 2>&1; then
    tail -n 60 "$build/fuzz-$t.log"
    echo "fuzz_$t FAILED (log: $build/fuzz-$t.log)" >&2
    exit 1
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$build/fuzz-$t.log" | tr '\n' ' '
  echo
done
echo "fuzz: ok (${#targets[@]} targets, ${seconds}s each)"
