// IR-SIM's worlds side by side with IR-SIM (issue 13 item 7; docs/irsim-worlds.md#benchmarks):
// one full Simulation step (world, scene update, every sensor) of the same files that
// bench/irsim_side_by_side.py times in IR-SIM itself, over the same window of the run (from
// step 0: 5 warm-up steps, then 100, so the world is rebuilt, untimed, every 105 steps).
//   BM_OrcaBehaviorWorld: usage/19orca_world/orca_behavior_world.yaml, 200 omni robots under
//     the `orca` group behaviour, no sensors.
//   BM_GridCaveWorld: tests/data/grid_cave_world.yaml, IR-SIM's cave grid map (250 x 250 cells)
//     and an acker with a 100-beam lidar2d (the world of the `grid_cave_world` parity trace, so
//     both simulators do the same work).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "ubot/config/load_world.h"
#include "ubot/sim/simulation.h"

namespace ubot {
namespace {

constexpr int kWindow = 105;  // IR-SIM's timed window: 5 warm-up steps + 100

void step_simulation(benchmark::State& state, const char* relative) {
  const WorldModel model = load_world(std::string(UBOT_SOURCE_DIR) + "/" + relative, {.seed = 0});
  auto sim = std::make_unique<Simulation>(model, SimulationOptions{.threads = 1});
  for (auto _ : state) {
    if (sim->world().step_count() >= kWindow) {
      state.PauseTiming();
      sim = std::make_unique<Simulation>(model, SimulationOptions{.threads = 1});
      state.ResumeTiming();
    }
    sim->step();
    benchmark::DoNotOptimize(sim->world().object(0).state.data());
  }
  state.counters["steps/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_OrcaBehaviorWorld(benchmark::State& state) {
  step_simulation(state, "tests/data/irsim_usage/19orca_world/orca_behavior_world.yaml");
}
BENCHMARK(BM_OrcaBehaviorWorld)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_GridCaveWorld(benchmark::State& state) {
  step_simulation(state, "tests/data/grid_cave_world.yaml");
}
BENCHMARK(BM_GridCaveWorld)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace ubot

BENCHMARK_MAIN();
