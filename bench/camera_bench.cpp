// Camera throughput: a 640 x 480 depth image and RGB image (90° fov, 0.5 m up) from the
// warehouse demo's orange robot as it drives down the smoky aisle. Args: {smoke, steps}: smoke 0
// turns the cameras' smoke interference off; after 120 steps the smoke cloud fills a fifth of the
// image ahead, after 140 the robot is inside it (nearly every pixel). One thread; rays (pixels)
// per second are the items_per_second column; medium_pixels counts the pixels the smoke changed.
// Figures: README "Benchmarks".
#include <benchmark/benchmark.h>

#include <memory>

#include "ubot/config/load_world.h"
#include "ubot/sensors/camera/camera.h"
#include "ubot/sim/simulation.h"

namespace ubot {
namespace {

SensorModel camera_sensor(bool depth, bool smoke) {
  SensorModel s;
  s.common.name = depth ? "bench_depth" : "bench_rgb";
  s.common.smoke.enable_smoke_interference = smoke;
  CameraModel c;
  c.depth = depth;
  c.width = 640;
  c.height = 480;
  c.fx = c.fy = 320.0;  // 90°
  c.cx = 319.5;
  c.cy = 239.5;
  c.min_depth = depth ? 0.1 : 0.0;
  c.max_depth = depth ? 20.0 : 100.0;
  c.preview_distance = c.max_depth;
  c.offset = {0.35, 0, 0.5};
  s.params = c;
  return s;
}

// The warehouse after `steps` steps: robot_1 is in the upper aisle, heading west into the smoke.
std::unique_ptr<Simulation> warehouse(bool depth, bool smoke, int steps) {
  WorldModel m = load_world(std::string(UBOT_SOURCE_DIR) + "/examples/warehouse.yaml");
  m.objects[1].sensors.push_back(camera_sensor(depth, smoke));
  auto sim = std::make_unique<Simulation>(std::move(m), SimulationOptions{.threads = 1});
  for (int k = 0; k < steps; ++k) sim->step();
  return sim;
}

void run(benchmark::State& state, bool depth) {
  const auto owned = warehouse(depth, state.range(0) != 0, static_cast<int>(state.range(1)));
  Simulation& sim = *owned;
  std::size_t camera = 0;
  for (std::size_t k = 0; k < sim.sensors().size(); ++k) {
    if (sim.sensors()[k]->model().common.name.starts_with("bench_")) camera = k;
  }
  for (auto _ : state) benchmark::DoNotOptimize(sim.sample_now(camera));
  const auto& cam = static_cast<const Camera&>(*sim.sensors()[camera]);
  state.SetItemsProcessed(state.iterations() * 640 * 480);
  state.counters["medium_pixels"] = cam.image().medium_pixels;
}

void BM_Warehouse_DepthImage640x480(benchmark::State& state) { run(state, true); }
BENCHMARK(BM_Warehouse_DepthImage640x480)
    ->Args({0, 120})
    ->Args({1, 120})
    ->Args({1, 140})
    ->Unit(benchmark::kMillisecond);

void BM_Warehouse_RgbImage640x480(benchmark::State& state) { run(state, false); }
BENCHMARK(BM_Warehouse_RgbImage640x480)
    ->Args({0, 120})
    ->Args({1, 120})
    ->Args({1, 140})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ubot

BENCHMARK_MAIN();
