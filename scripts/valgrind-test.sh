#!/usr/bin/env bash
# Valgrind memcheck over the tests that hand Embree partial ray packets (docs/testing.md):
# the scene, lidar3d and camera tests below, on the Release build, with Embree's AVX2 kernels
# (SSE4.2 where the CPU has no AVX2). Those kernels read every lane of a 16-ray packet whatever
# its valid mask says, so an unset lane is an error here even on an AVX-512 machine (whose
# default kernels mask lanes and so hide it). Any error fails the run.
# Usage: scripts/valgrind-test.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}

isa=sse4.2
grep -qw avx2 /proc/cpuinfo && isa=avx2
export UBOT_EMBREE_CONFIG=${UBOT_EMBREE_CONFIG:-isa=$isa}

# binary and gtest filter: the cast() callers, one offset of the parameterised cases, and not
# the 2D fan path tests (SceneFan: no Embree rays, the slowest under memcheck); about 30 s with both runs at once on 2 cores
# (docs/testing.md).
runs=(
  "scene/test_scene EmbreeConfig.*:Scene.*:SceneSolids*:Offsets/SceneExact.*/0:NearAndFar/*/0"
  "sensors/test_sensors Lidar3d*:*Camera*"
)

# The runs at once (memcheck runs a program on one core): on 2 cores both end in the time of the
# longer. Each one's output is shown when it ends.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
pids=()
for i in "${!runs[@]}"; do
  read -r binary filter <<<"${runs[$i]}"
  echo "valgrind ($UBOT_EMBREE_CONFIG): $binary --gtest_filter=$filter"
  valgrind --tool=memcheck --error-exitcode=1 --track-origins=yes --quiet \
    "$build/tests/$binary" --gtest_filter="$filter" --gtest_brief=1 >"$logs/$i.log" 2>&1 &
  pids+=($!)
done
failed=0
for i in "${!runs[@]}"; do
  wait "${pids[$i]}" || failed=1
  cat "$logs/$i.log"
done
if ((failed)); then
  echo "valgrind: errors (above)"
  exit 1
fi
echo "valgrind: no errors"
