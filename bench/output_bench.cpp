// What a run's outputs cost at scale (README "Benchmarks"), on scenario (d) of bench_world: 1000
// wandering diff robots with 360-beam lidars among 500 obstacles, 200 m x 200 m, after 100 steps
// (2 threads; the steps themselves are not timed):
//   BM_FramesStep    one frames.jsonl step line (FramesWriter::write_step: 1000 objects, 1000
//                    scans of 360 ranges, valid flags and intensities) written to /dev/null
//   BM_WorldDrawing  RunDrawing::draw (the Drawing of that state)
//   BM_WorldPicture  draw + paint + PNG file of world.png at the CLI's size (800 px), written to
//                    the temporary directory
// and, on worlds of N wandering diff robots each with a shown 90 deg, 5 m field of view (one
// robot per 10 m2, so about two detections each; docs/fov.md):
//   BM_FovDetections/N     the field-of-view sweep of all N observers (what
//                          World::fov_detections computes once a step)
//   BM_StepWithOutputs/N   one step, its frames.jsonl line (to /dev/null) and its picture's
//                          Drawing: what a `--render` run does each step when sample_time is
//                          step_time, the frames line and the picture sharing the detections
// and BM_ImuPlot/N: an IMU's plot of N samples drawn at 1000 x 640 (what a run's end costs for
// each IMU).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <vector>

#include "bench_worlds.h"
#include "ubot/config/load_world.h"
#include "ubot/record/frames_writer.h"
#include "ubot/render/drawing.h"
#include "ubot/render/plot.h"
#include "ubot/sim/simulation.h"
#include "ubot/viz/run_drawing.h"
#include "ubot/world/world.h"

namespace ubot {
namespace {

constexpr int kSteps = 100;

// The simulation after kSteps steps, its drawing having recorded every step (as `ubot run`).
struct Scenario {
  std::unique_ptr<Simulation> sim;
  std::unique_ptr<viz::RunDrawing> drawing;
};

const Scenario& thousand_robots() {
  static const Scenario s = [] {
    Scenario s;
    s.sim = std::make_unique<Simulation>(
        load_world_from_string(bench::lidar_robots_yaml(1000, 500, 200.0, "unobstructed"),
                               "bench.yaml", {.seed = 1}),
        SimulationOptions{.threads = 2});
    s.drawing = std::make_unique<viz::RunDrawing>(*s.sim);
    for (int k = 0; k < kSteps; ++k) {
      s.sim->step();
      s.drawing->record(*s.sim);
    }
    return s;
  }();
  return s;
}

void BM_FramesStep(benchmark::State& state) {
  const Simulation& sim = *thousand_robots().sim;
  FramesWriter writer("/dev/null", sim);
  for (auto _ : state) writer.write_step(sim);
  writer.close();
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FramesStep)->Unit(benchmark::kMillisecond);

void BM_WorldDrawing(benchmark::State& state) {
  const Scenario& s = thousand_robots();
  for (auto _ : state) benchmark::DoNotOptimize(s.drawing->draw(*s.sim));
}
BENCHMARK(BM_WorldDrawing)->Unit(benchmark::kMillisecond);

void BM_WorldPicture(benchmark::State& state) {
  const Scenario& s = thousand_robots();
  const std::string path = (std::filesystem::temp_directory_path() / "bench_world.png").string();
  for (auto _ : state) {
    const render::Drawing d = s.drawing->draw(*s.sim);
    render::write_png(d, render::fit_image(d, 800), path);
  }
  std::filesystem::remove(path);
}
BENCHMARK(BM_WorldPicture)->Unit(benchmark::kMillisecond);

// `robots` wandering diff robots with a shown field of view, one per 10 m2 of a square world.
std::string fov_robots_yaml(int robots) {
  const double size = std::sqrt(10.0 * robots);
  return fmt::format(R"(
world: {{width: {0}, height: {0}, step_time: 0.1, sample_time: 0.1, collision_mode: unobstructed}}
robot:
  - number: {1}
    distribution: {{name: random, range_low: [0, 0, -3.14], range_high: [{0}, {0}, 3.14]}}
    kinematics: {{name: diff}}
    shape: {{name: circle, radius: 0.2}}
    behavior: {{name: dash, wander: true, range_low: [0, 0, -3.14], range_high: [{0}, {0}, 3.14]}}
    fov: 1.5707963267948966
    fov_radius: 5
    plot: {{show_fov: true}}
)",
                     size, robots);
}

WorldModel fov_world(int robots) {
  return load_world_from_string(fov_robots_yaml(robots), "bench.yaml", {.seed = 1});
}

void BM_FovDetections(benchmark::State& state) {
  const World world(fov_world(static_cast<int>(state.range(0))));
  for (auto _ : state) benchmark::DoNotOptimize(world.sweep_fov_detections());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_FovDetections)->Arg(10)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond);

void BM_StepWithOutputs(benchmark::State& state) {
  Simulation sim(fov_world(static_cast<int>(state.range(0))), SimulationOptions{.threads = 1});
  FramesWriter writer("/dev/null", sim);
  viz::RunDrawing drawing(sim);
  for (auto _ : state) {
    sim.step();
    writer.write_step(sim);
    drawing.record(sim);
    benchmark::DoNotOptimize(drawing.draw(sim));
  }
  writer.close();
  state.counters["steps/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
// A fixed 100 steps from the start: the picture draws every trajectory so far, so a step costs
// more the longer the run, and an iteration count picked by time would measure another run.
BENCHMARK(BM_StepWithOutputs)->Arg(1000)->Iterations(100)->Unit(benchmark::kMillisecond);

// An IMU's plot after N samples (two panels of three channels, a sine with a fast ripple, as a
// turning robot's IMU gives), drawn at the CLI's size: what a run's end costs for each IMU.
render::Plot imu_like_plot(std::int64_t n) {
  render::Plot p;
  p.title = "imu";
  p.panels.resize(2);
  std::vector<double> t(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    t[static_cast<std::size_t>(i)] = 0.005 * static_cast<double>(i);
  for (int k = 0; k < 6; ++k) {
    std::vector<double> y(t.size());
    for (std::size_t i = 0; i < t.size(); ++i)
      y[i] = std::sin(0.1 * t[i] + k) + 0.1 * std::sin(37.0 * t[i]);
    p.panels[static_cast<std::size_t>(k / 3)].series.push_back(
        {"c", {0.2, 0.4, 0.8, 1.0}, t, std::move(y)});
  }
  return p;
}

void BM_ImuPlot(benchmark::State& state) {
  const render::Plot plot = imu_like_plot(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(render::render_plot_rgba(plot, {1000, 640}));
  state.counters["samples/s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * state.range(0)), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ImuPlot)->Arg(10'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ubot

BENCHMARK_MAIN();
