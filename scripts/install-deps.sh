#!/usr/bin/env bash
# Installs the Debian packages ubot builds and tests with, only those that are missing.
# Idempotent; needs root (or sudo) the first time. Usage: scripts/install-deps.sh [build|test|bench]
set -euo pipefail

build_pkgs=(
  cmake g++ make ninja-build pkg-config ccache
  libeigen3-dev libyaml-dev libembree-dev libtbb-dev
  libcairo2-dev libgif-dev libpng-dev libassimp-dev
  libcli11-dev libspdlog-dev libfmt-dev nlohmann-json3-dev
  # The live view's HTTP + WebSocket server (Boost.Beast, header-only; docs/live.md).
  libboost-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  liboctomap-dev libbox2d-dev
  cyclonedds-dev cyclonedds-tools libssl-dev
  libzstd-dev liblz4-dev zlib1g-dev
  libfastrtps-dev libfastcdr-dev fastddsgen default-jre-headless iproute2 util-linux
  pybind11-dev python3-dev python3-numpy python3-venv python3-setuptools python3-pip
  # ubot.sweep / `ubot sweep` (docs/sweeps.md): Dask, the table, the summary plot, sweep files.
  python3-dask python3-distributed python3-pandas python3-matplotlib python3-yaml
  # node: the live page's ROS 2 reader is bundled from npm (esbuild) at build time (src/live).
  nodejs
)
# Debian's npm, unless nodejs already brings its own (NodeSource builds do; the two conflict).
command -v npm >/dev/null 2>&1 || build_pkgs+=(npm)
# node + npm (installed for the build): the tests also check the LAS files with npm
# @loaders.gl/las (tests/mapping), the MCAP files with npm @mcap/core and Foxglove's ROS 2 message
# readers (tests/record).
# valgrind: `make valgrind-test` (memcheck over the Embree packet paths, docs/testing.md).
# python3-pytest: the tests of the Python module (tests/python, docs/python.md).
test_pkgs=(clang-format python3 python3-pytest valgrind)
# numpy + Pillow: tests/app/test_grid_maps.py reads IR-SIM's map images independently of ubot.
test_pkgs+=(python3-numpy python3-pil)
# clang with libFuzzer and the sanitizer runtimes: the fuzz targets of tests/fuzz (make fuzz);
# libclang-rt-dev is the runtime of the release's default clang (14 on Debian 12, 19 on 13).
test_pkgs+=(clang libclang-rt-dev)
# Chromium: the live page's tests drive it with npm playwright-core (tests/live, docs/live.md).
test_pkgs+=(chromium)
bench_pkgs=()

want=("${build_pkgs[@]}")
case "${1:-build}" in
  test) want+=("${test_pkgs[@]}") ;;
  bench) want+=("${bench_pkgs[@]}") ;;
esac

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
((${#missing[@]} == 0)) && exit 0

echo "installing missing Debian packages: ${missing[*]}"
sudo_cmd=()
((EUID == 0)) || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
if ! "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; then
  "${sudo_cmd[@]}" apt-get update
  "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi
