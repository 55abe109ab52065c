#!/usr/bin/env bash
# Runs every libFuzzer target of tests/fuzz for SECONDS each, from its seed corpus
# (tests/fuzz/corpus/<target>, never written to: new inputs go to BUILD/fuzz-corpus/<target>).
# Fails on a crash, sanitizer report, leak, timeout or out-of-memory in any target; the input
# that failed is saved as BUILD/fuzz-artifacts/<target>-crash-*.
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
# FUZZ_JOBS targets at a time (default: one per core): each libFuzzer run is one process on one
# core for SECONDS, so on 2 cores the 9 targets of `make test` take 5 slots, not 9.
jobs=${FUZZ_JOBS:-$(nproc)}
mkdir -p "$build/fuzz-artifacts"

# One target's run: 0 when it ended clean; its log is $build/fuzz-<target>.log.
fuzz_one() {
  local t=$1 work="$build/fuzz-corpus/$1" seed=${FUZZ_SEED:-0} command
  mkdir -p "$work"
  # fuzz_python is atheris (libFuzzer for Python) on the module installed in FUZZ_PYTHON's venv.
  if [ "$t" = python ]; then
    command=("${FUZZ_PYTHON:-$root/build/venv/bin/python}" "$root/tests/fuzz/python_module_fuzzer.py")
    # It serves on fuzzed loopback addresses: in a private network namespace with only loopback
    # up when this machine allows one (as tests/ros2/interop/run_isolated.sh does).
    if unshare -n true 2>/dev/null && command -v ip >/dev/null 2>&1; then
      command=(unshare -n sh -c 'ip link set lo up && exec "$@"' sh "${command[@]}")
    fi
  else
    command=("$build/tests/fuzz/fuzz_$t")
  fi
  # -timeout: one input may take at most 10 s; -rss_limit_mb: 2 GB; inputs up to 64 kB.
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    LSAN_OPTIONS="suppressions=$root/tests/fuzz/lsan.supp" \
    "${command[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -seed="$seed" -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$t-" \
    "$work" "$root/tests/fuzz/corpus/$t" >"$build/fuzz-$t.log" 2>&1
}

declare -A pid_of
for t in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
  echo "fuzz_$t: ${seconds}s, seed ${FUZZ_SEED:-0}"
  fuzz_one "$t" &
  pid_of[$t]=$!
done
failed=()
for t in "${targets[@]}"; do
  if wait "${pid_of[$t]}"; then
    echo "fuzz_$t: $(grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$build/fuzz-$t.log" | tr '\n' ' ')"
  else
    tail -n 60 "$build/fuzz-$t.log"
    echo "fuzz_$t FAILED (log: $build/fuzz-$t.log)" >&2
    failed+=("fuzz_$t")
  fi
done
if ((${#failed[@]})); then
  echo "fuzz: ${#failed[@]} of ${#targets[@]} targets failed: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: ok (${#targets[@]} targets, ${seconds}s each, $jobs at a time)"
