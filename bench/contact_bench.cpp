// collision_mode: contact (issue 14 item 7): one step of 100 diff robots pushing 100 boxes of
// 1 kg among 50 static posts, the same world in contact mode and in stop mode (where a robot
// freezes at its first touch). 10 × 10 lanes 10 m long: in each a robot at x0 + 1 drives to
// x0 + 9 with a box at x0 + 3; every other lane has a post at x0 + 8, so half the boxes end
// wedged between a robot and a post. Target: >= 10x real time at step_time 0.1 on one core,
// i.e. a step under 10 ms.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <string>

#include "ubot/config/load_world.h"
#include "ubot/sim/simulation.h"

namespace ubot {
namespace {

std::string pushing_yaml(const char* mode) {
  std::string robots = "robot:\n", boxes = "obstacle:\n", posts;
  for (int c = 0; c < 10; ++c) {
    for (int r = 0; r < 10; ++r) {
      const double x0 = 10.0 * c, y = 2.0 + 4.0 * r;
      robots += fmt::format(
          "  - {{kinematics: {{name: diff}}, shape: {{name: circle, radius: 0.3}}, state: [{}, "
          "{}, 0], goal: [{}, {}, 0], behavior: {{name: dash}}, vel_max: [1.0, 1.0]}}\n",
          x0 + 1, y, x0 + 9, y);
      boxes += fmt::format(
          "  - {{shape: {{name: rectangle, length: 0.8, width: 0.8}}, state: [{}, {}, 0], "
          "mass: 1.0}}\n",
          x0 + 3, y);
      if ((c + r) % 2 == 0) {
        posts += fmt::format("  - {{shape: {{name: circle, radius: 0.3}}, state: [{}, {}, 0]}}\n",
                             x0 + 8, y + 0.2);
      }
    }
  }
  return fmt::format("world: {{width: 100, height: 40, step_time: 0.1, collision_mode: {}}}\n",
                     mode) +
         robots + boxes + posts;
}

// Steps the world; rebuilt (untimed) every 90 steps, about when the robots arrive.
void step_pushing(benchmark::State& state, const char* mode) {
  const std::string yaml = pushing_yaml(mode);
  auto make = [&] {
    return std::make_unique<Simulation>(load_world_from_string(yaml, "bench.yaml", {.seed = 1}),
                                        SimulationOptions{.threads = 1});
  };
  auto sim = make();
  for (auto _ : state) {
    if (sim->world().step_count() >= 90) {
      state.PauseTiming();
      sim = make();
      state.ResumeTiming();
    }
    sim->step();
  }
  state.counters["steps/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  // Simulated seconds per second of CPU time.
  state.counters["x_real_time"] = benchmark::Counter(0.1 * static_cast<double>(state.iterations()),
                                                     benchmark::Counter::kIsRate);
}

void BM_PushingContact(benchmark::State& state) { step_pushing(state, "contact"); }
void BM_PushingStop(benchmark::State& state) { step_pushing(state, "stop"); }

BENCHMARK(BM_PushingContact)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PushingStop)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ubot

BENCHMARK_MAIN();
