# ubot: `make demo` and `make test` do all the set-up on a fresh Debian 12 or 13 machine.
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc)
CMAKE_FLAGS ?=
DEMO_WORLD ?= examples/warehouse.yaml
DEMO_OUT   ?= out/demo
# The pinned test venv (requirements/test.txt, docs/testing.md): the Python tests run there.
VENV       ?= $(BUILD)/venv
# The generated headers of build/ and of the venv's build-venv/, shared (src/CMakeLists.txt says
# why: the same compiler command lines, so ccache serves one tree from the other).
export UBOT_GENERATED_INCLUDE_DIR ?= $(CURDIR)/build-generated/include
# ccache (installed by scripts/install-deps.sh) lets the three build trees (Release, ASan, fuzz)
# and later runs of `make test` reuse what did not change. `=`: looked up when a recipe runs,
# after `deps` has installed it.
CCACHE      = $(shell command -v ccache 2>/dev/null)
# Paths relative to the checkout, so another clone of the same commit (CI's) hits the cache.
export CCACHE_BASEDIR ?= $(CURDIR)
export CCACHE_NOHASHDIR ?= 1
LAUNCHER    = $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE) -DCMAKE_C_COMPILER_LAUNCHER=$(CCACHE))

.PHONY: all deps deps-test configure build build-demo build-asan demo test check unit-test asan-test \
  valgrind-test format format-check bench clean venv venv-deps

all: build

# Every tree is built by Ninja (scripts/install-deps.sh installs it): a no-op rebuild is instant
# and .ninja_log keeps each step's time. A tree an older checkout configured with Make is
# configured afresh, as CMake cannot switch a tree's generator in place.
GENERATOR = -G Ninja
define use_ninja
	@if [ -f $(1)/CMakeCache.txt ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$$' $(1)/CMakeCache.txt; then \
	  echo "$(1): configured for another generator, configuring it for Ninja"; \
	  rm -rf $(1)/CMakeCache.txt $(1)/CMakeFiles; fi
endef

deps:
	@scripts/install-deps.sh build

deps-test:
	@scripts/install-deps.sh test

configure: deps
	$(call use_ninja,$(BUILD))
	cmake -S . -B $(BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=Release \
	  -DUBOT_TEST_PYTHON=$(abspath $(VENV))/bin/python \
	  -DUBOT_GENERATED_INCLUDE_DIR=$(UBOT_GENERATED_INCLUDE_DIR) \
	  $(LAUNCHER) $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# What `make demo` needs (CMakeLists.txt's ubot_demo): the command and build/python.
build-demo: configure
	cmake --build $(BUILD) -j $(JOBS) --target ubot_demo

# The unit tests again, built with AddressSanitizer + UndefinedBehaviorSanitizer (only what
# they need: no benchmarks, no CLI, no DDS interop peers, to keep `make test` short). -g1: line
# tables only, all a sanitizer's stack trace reads (file:line); full -g made every unit a third
# slower to compile.
SANITIZER_DEBUG_FLAGS = -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1
build-asan: deps
	$(call use_ninja,$(ASAN_BUILD))
	cmake -S . -B $(ASAN_BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=Debug -DUBOT_SANITIZE=ON \
	  -DUBOT_BUILD_BENCH=OFF -DUBOT_BUILD_APPS=OFF -DCMAKE_CXX_FLAGS="-O1" $(SANITIZER_DEBUG_FLAGS) \
	  $(LAUNCHER) $(CMAKE_FLAGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)

demo: build-demo
	$(BUILD)/ubot run $(DEMO_WORLD) --out $(DEMO_OUT) --render \
	  --map $(DEMO_OUT)/map.las --mcap $(DEMO_OUT)/run.mcap

# Creates or updates the venv from the pins and installs this checkout into it with pip.
venv-deps: deps-test
	@scripts/test-venv.sh --deps-only $(VENV)

venv: venv-deps
	scripts/test-venv.sh $(VENV)

unit-test: build venv
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

asan-test: build-asan
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS) -L unit

# Memcheck over the scene, lidar3d and camera tests that hand Embree partial packets, on the
# Release build with Embree's AVX2 kernels (docs/testing.md): those read every lane of a
# packet, so a lane left unset is an error here on any machine, AVX-512 ones included.
valgrind-test: build deps-test
	scripts/valgrind-test.sh $(BUILD)

test: deps-test format-check unit-test asan-test valgrind-test fuzz-test

# The inner loop after an edit (scripts/check.sh, docs/testing.md): the Release unit tests, one
# process per test binary, and the Python and app tests touching what changed; no sanitizers.
check: build venv
	JOBS=$(JOBS) scripts/check.sh $(BUILD)

# clang-format 14.0.6 from PyPI (requirements/test.txt), the same formatter on every Debian
# release (Debian 13's own is 19, which formats some lines differently).
CLANG_FORMAT = $(VENV)/bin/clang-format

format: venv-deps
	git ls-files '*.cpp' '*.h' | xargs $(CLANG_FORMAT) -i

format-check: venv-deps
	@git ls-files '*.cpp' '*.h' | xargs $(CLANG_FORMAT) --dry-run --Werror && echo "format: ok"

bench: build
	scripts/run-benchmarks.sh $(BUILD)

# ---- Fuzzing (issue 16, docs/fuzzing.md): the libFuzzer targets of tests/fuzz, built by clang
# under ASan + UBSan in their own tree with only the libraries they need. `make fuzz` runs each
# target FUZZ_SECONDS from a random seed; `make test` runs each FUZZ_TEST_SECONDS (9 targets: about
# 3 minutes) from FUZZ_TEST_SEED, the same inputs on every run (scripts/run-fuzz.sh says why).
FUZZ_BUILD        ?= build-fuzz
FUZZ_SECONDS      ?= 300
FUZZ_TEST_SECONDS ?= 20
FUZZ_TEST_SEED    ?= 1
FUZZ_TARGETS      := fuzz_world_yaml fuzz_mesh fuzz_las fuzz_ply fuzz_pcd fuzz_cdr fuzz_foxglove fuzz_mcap fuzz_state
# Atheris on the Python module as the venv has it installed (tests/fuzz/python_module_fuzzer.py).
FUZZ_PY_TARGETS   := fuzz_python
FUZZ_ENV           = FUZZ_PYTHON=$(abspath $(VENV))/bin/python

.PHONY: fuzz-build fuzz fuzz-test

fuzz-build: deps-test
	$(call use_ninja,$(FUZZ_BUILD))
	cmake -S . -B $(FUZZ_BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang \
	  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_FLAGS="-O1" -DCMAKE_C_FLAGS="-O1" $(SANITIZER_DEBUG_FLAGS) \
	  -DUBOT_SANITIZE=ON -DUBOT_BUILD_FUZZ=ON -DUBOT_BUILD_APPS=OFF -DUBOT_BUILD_BENCH=OFF \
	  -DUBOT_BUILD_TESTS=OFF $(LAUNCHER) $(CMAKE_FLAGS)
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(FUZZ_TARGETS)

fuzz: fuzz-build venv
	$(FUZZ_ENV) scripts/run-fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS) $(FUZZ_PY_TARGETS)

fuzz-test: fuzz-build venv
	$(FUZZ_ENV) FUZZ_SEED=$(FUZZ_TEST_SEED) scripts/run-fuzz.sh $(FUZZ_BUILD) $(FUZZ_TEST_SECONDS) \
	  $(FUZZ_TARGETS) $(FUZZ_PY_TARGETS)

clean:
	rm -rf $(BUILD) $(BUILD)-pip build-pip-* build-venv build-generated $(ASAN_BUILD) $(FUZZ_BUILD)
