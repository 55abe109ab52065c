// Behaviour benchmarks (docs/behaviors.md): World::step of IR-SIM's usage worlds, side by side
// with IR-SIM's steps/s on the same files (tools/bench.py, figures in the docs).
//   BM_OrcaBehaviorWorld: usage/19orca_world/orca_behavior_world.yaml, 200 omni robots under the
//     `orca` group behaviour (neighborDist 15, maxNeighbors 10), from step 0.
//   BM_SfmWorld: usage/23sfm_world/sfm_world.yaml, 24 diff pedestrians under `sfm`, 4 walls.
//   BM_SfmGroupWorld: usage/23sfm_world/sfm_group_world.yaml, IR-SIM 2.12.0's `sfm` group
//     behaviour with social groups (coherence, group repulsion, gaze).
//   BM_OrcaNewVelocities: ORCA alone (ubot/world/orca.h) for the same 200 agents.
#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "ubot/config/load_world.h"
#include "ubot/world/orca.h"
#include "ubot/world/world.h"

namespace ubot {
namespace {

std::string usage_world(const char* relative) {
  return std::string(UBOT_SOURCE_DIR) + "/tests/data/irsim_usage/" + relative;
}

// Steps a world from step 0, rebuilt (untimed) every `restart` steps: the same window of the
// run that tools/bench.py times in IR-SIM (5 warm-up steps, then 100).
void step_world(benchmark::State& state, const char* relative, int restart) {
  const WorldModel model = load_world(usage_world(relative), {.seed = 0});
  auto world = std::make_unique<World>(model);
  for (auto _ : state) {
    if (world->step_count() >= restart) {
      state.PauseTiming();
      world = std::make_unique<World>(model);
      state.ResumeTiming();
    }
    world->step();
    benchmark::DoNotOptimize(world->object(0).state.data());
  }
  state.counters["steps/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_OrcaBehaviorWorld(benchmark::State& state) {
  step_world(state, "19orca_world/orca_behavior_world.yaml", 105);
}
BENCHMARK(BM_OrcaBehaviorWorld)->Unit(benchmark::kMillisecond);

void BM_SfmWorld(benchmark::State& state) { step_world(state, "23sfm_world/sfm_world.yaml", 105); }
BENCHMARK(BM_SfmWorld)->Unit(benchmark::kMicrosecond);

void BM_SfmGroupWorld(benchmark::State& state) {
  step_world(state, "23sfm_world/sfm_group_world.yaml", 105);
}
BENCHMARK(BM_SfmGroupWorld)->Unit(benchmark::kMicrosecond);

void BM_OrcaNewVelocities(benchmark::State& state) {
  // orca_behavior_world's start: 200 agents of radius 1.5 on a 140 m circle, heading across.
  std::vector<orca::Agent> agents(200);
  for (std::size_t i = 0; i < agents.size(); ++i) {
    const double a = 2.0 * std::numbers::pi * static_cast<double>(i) / 200.0;
    agents[i].position = {140.0 * std::cos(a), 140.0 * std::sin(a)};
    agents[i].pref_velocity = {-std::cos(a), -std::sin(a)};
    agents[i].radius = 1.5;
  }
  for (auto _ : state) benchmark::DoNotOptimize(orca::new_velocities(agents, 0.1));
  state.counters["steps/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_OrcaNewVelocities)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace ubot

BENCHMARK_MAIN();
