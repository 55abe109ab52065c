// Loading a large world (issue 16, item 2): `ubot validate` of N obstacles, i.e. parsing the YAML,
// reading every object and building the simulation (scene, bodies). Figures in
// docs/hostile-input.md ("Large worlds").
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <string>

#include "ubot/config/load_world.h"
#include "ubot/sim/simulation.h"

namespace {

// N obstacles in a 1 km square, a third each circles, rectangles and triangles, one entry each
// (every entry is its own group, as written by hand or by a script).
std::string obstacle_world(int n) {
  std::string yaml =
      "world: {height: 1000, width: 1000, step_time: 0.1}\n"
      "robot:\n  - kinematics: {name: diff}\n    shape: {name: circle, radius: 0.2}\n"
      "    state: [1, 1, 0]\nobstacle:\n";
  for (int i = 0; i < n; ++i) {
    const double x = (i * 7919) % 1000 + 0.5, y = (i * 104729) % 1000 + 0.5;
    switch (i % 3) {
      case 0:
        yaml +=
            fmt::format("  - shape: {{name: circle, radius: 0.3}}\n    state: [{}, {}, 0]\n", x, y);
        break;
      case 1:
        yaml += fmt::format(
            "  - shape: {{name: rectangle, length: 0.8, width: 0.4}}\n    state: [{}, {}, 1]\n", x,
            y);
        break;
      default:
        yaml += fmt::format(
            "  - shape: {{name: polygon, vertices: [[{0}, {1}], [{2}, {1}], [{0}, {3}]]}}\n", x, y,
            x + 0.5, y + 0.5);
    }
  }
  return yaml;
}

void BM_LoadWorld(benchmark::State& state) {
  const std::string yaml = obstacle_world(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    ubot::WorldModel model = ubot::load_world_from_string(yaml, "big.yaml");
    benchmark::DoNotOptimize(model.objects.data());
  }
  state.counters["MB"] = static_cast<double>(yaml.size()) / 1e6;
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_LoadWorld)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_ValidateWorld(benchmark::State& state) {  // load + build the simulation
  const std::string yaml = obstacle_world(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    const ubot::Simulation sim(ubot::load_world_from_string(yaml, "big.yaml"), {.threads = 1});
    benchmark::DoNotOptimize(&sim);
  }
  state.counters["MB"] = static_cast<double>(yaml.size()) / 1e6;
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_ValidateWorld)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
