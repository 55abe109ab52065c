// Smoke cost in a 2D scan (SPEC §8): one 360-beam lidar among 50 obstacles, without media, with
// 500 cells spread over a 200 m x 200 m world, and with 500 cells crowded around the sensor
// (the hard case: every cell is in range). Target: spread cells cost < 1.5x the scan without.
// Also: the naive all-cells-per-beam loop the fan culling replaces, and collecting 500
// declared cells per step.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <string>

#include "ubot/config/load_world.h"
#include "ubot/core/random.h"
#include "ubot/sensors/lidar2d/lidar2d.h"
#include "ubot/sim/simulation.h"

namespace ubot {
namespace {

enum class Cells { kNone, kSpread, kNear };

// A static robot at the centre of a 200 m world with a 360-beam, 20 m lidar; 50 obstacles
// within 20 m of it; 500 cells spread over the world or within 20 m of the sensor.
std::string world_yaml(Cells cells) {
  std::string yaml = R"(
world: {width: 200, height: 200, step_time: 0.1}
robot:
  - kinematics: {name: diff}
    state: [100, 100, 0]
    static: true
    sensors: [{name: lidar2d, range_max: 20, angle_range: 6.283185307179586, number: 360}]
obstacle:
)";
  RandomStream rng(42);
  for (int i = 0; i < 50; ++i) {
    const double a = rng.uniform(-3.14159, 3.14159), d = rng.uniform(3.0, 19.0);
    yaml += fmt::format("  - {{shape: {{name: circle, radius: {}}}, state: [{}, {}, 0]}}\n",
                        rng.uniform(0.2, 0.8), 100 + d * std::cos(a), 100 + d * std::sin(a));
  }
  if (cells == Cells::kNone) return yaml;
  yaml += "media:\n  - cells:\n";
  for (int i = 0; i < 500; ++i) {
    double x, y, r;
    if (cells == Cells::kSpread) {
      x = rng.uniform(0, 200), y = rng.uniform(0, 200), r = rng.uniform(0.5, 2.0);
    } else {
      const double a = rng.uniform(-3.14159, 3.14159), d = rng.uniform(2.0, 20.0);
      x = 100 + d * std::cos(a), y = 100 + d * std::sin(a), r = rng.uniform(0.1, 0.4);
    }
    yaml += fmt::format("      - {{position: [{}, {}, {}], radius: {}, density: {}}}\n", x, y,
                        rng.uniform(-0.5, 0.5), r, rng.uniform(0.0, 1.0));
  }
  return yaml;
}

struct Fixture {
  explicit Fixture(Cells cells)
      : sim(load_world_from_string(world_yaml(cells), "bench.yaml"), {.threads = 1}) {
    sim.step();  // collects this step's media
  }
  Simulation sim;
};

void BM_Scan360(benchmark::State& state) {
  Fixture f(static_cast<Cells>(state.range(0)));
  Sensor& lidar = *f.sim.sensors()[0];
  const SensorContext ctx{f.sim.world(), f.sim.scene(), f.sim.world().time_ns(), f.sim.media()};
  for (auto _ : state) {
    lidar.sample(ctx);
    benchmark::DoNotOptimize(static_cast<const Lidar2d&>(lidar).scan().ranges.data());
  }
  int cut = 0;
  for (int m : static_cast<const Lidar2d&>(lidar).scan().hit_medium) cut += m >= 0;
  state.counters["beams_cut"] = cut;
  state.counters["rays/s"] = benchmark::Counter(static_cast<double>(state.iterations() * 360),
                                                benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Scan360)
    ->ArgName("cells")
    ->Arg(static_cast<int>(Cells::kNone))
    ->Arg(static_cast<int>(Cells::kSpread))
    ->Arg(static_cast<int>(Cells::kNear))
    ->Unit(benchmark::kMicrosecond);

// The loop the fan culling replaces: every beam against every cell of the view.
void BM_NaiveAllCellsPerBeam(benchmark::State& state) {
  Fixture f(static_cast<Cells>(state.range(0)));
  const media::MediaView view(f.sim.media(), {});
  const Eigen::Vector3d origin(100, 100, 0);
  std::vector<double> out(360);
  for (auto _ : state) {
    for (int i = 0; i < 360; ++i) {
      const double a = -3.141592653589793 + i * (6.283185307179586 / 360);
      out[i] = view.entry_distance(origin, {std::cos(a), std::sin(a), 0.0}, 20.0);
    }
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_NaiveAllCellsPerBeam)
    ->ArgName("cells")
    ->Arg(static_cast<int>(Cells::kSpread))
    ->Arg(static_cast<int>(Cells::kNear))
    ->Unit(benchmark::kMicrosecond);

// A whole step of that world (the media of the step are collected once, then the scan).
void BM_Step(benchmark::State& state) {
  Fixture f(static_cast<Cells>(state.range(0)));
  for (auto _ : state) f.sim.step();
}
BENCHMARK(BM_Step)
    ->ArgName("cells")
    ->Arg(static_cast<int>(Cells::kNone))
    ->Arg(static_cast<int>(Cells::kSpread))
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace ubot

BENCHMARK_MAIN();
