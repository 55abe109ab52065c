#!/usr/bin/env bash
# Runs every Google Benchmark suite of a build and keeps the JSON results next to it.
# usage: scripts/run-benchmarks.sh [BUILD_DIR] [extra benchmark flags...]
set -euo pipefail
build=${1:-build}
shift || true
results="$build/bench-results"
mkdir -p "$results"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
for bench in "$build"/bench/bench_*; do
  [[ -x $bench ]] || continue
  name=$(basename "$bench")
  echo "== $name"
  wrap=()
  # DDS benchmarks: loopback only, in a private network namespace when permitted.
  [[ $name == bench_ros2 ]] && wrap=("$(dirname "$0")/../tests/ros2/interop/run_isolated.sh")
  "${wrap[@]}" "$bench" --benchmark_out="$results/$name.json" --benchmark_out_format=json "$@"
done
# The Python module's figures (docs/python.md), when it was built.
if [[ -d $build/python/ubot ]]; then
  echo "== python_bench"
  PYTHONPATH="$build/python" /usr/bin/python3 "$(dirname "$0")/../bench/python_bench.py" \
    --json "$results/python_bench.json"
fi
echo "JSON results in $results/"
