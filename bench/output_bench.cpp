// What a run's outputs cost at scale (README "Benchmarks"), on scenario (d) of bench_world: 1000
// wandering diff robots with 360-beam lidars among 500 obstacles, 200 m x 200 m, after 100 steps
// (2 threads; the steps themselves are not timed):
//   BM_FramesStep    one frames.jsonl step line (FramesWriter::write_step: 1000 objects, 1000
//                    scans of 360 ranges, valid flags and intensities) written to /dev/null
//   BM_WorldDrawing  RunDrawing::draw (the Drawing of that state)
//   BM_WorldPicture  draw + paint + PNG file of world.png at the CLI's size (800 px), written to
//                    the temporary directory
#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>

#include "bench_worlds.h"
#include "ubot/config/load_world.h"
#include "ubot/record/frames_writer.h"
#include "ubot/render/drawing.h"
#include "ubot/sim/simulation.h"
#include "ubot/viz/run_drawing.h"

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

}  // namespace
}  // namespace ubot

BENCHMARK_MAIN();
