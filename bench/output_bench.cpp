// What a run's outputs cost at scale (README "Benchmarks"), on scenario (d) of bench_world: 1000
// wandering diff robots with 360-beam lidars among 500 obstacles, 200 m x 200 m, after 100 steps
// (2 threads; the steps themselves are not timed):
//   BM_FramesStep    one frames.jsonl step line (FramesWriter::write_step: 1000 objects, 1000
//                    scans of 360 ranges, valid flags and intensities) written to /dev/null
//   BM_ParquetStep   the same step as Parquet rows: the step thread's cost and the whole encoding,
//                    UNCOMPRESSED and zstd (docs/large-runs.md, "frames as Parquet")
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
// each IMU). Pictures at any size (issue 44, docs/large-runs.md):
//   BM_WorldPicture65536        world.png of 65,536 robots with shown fields of view
//   BM_WorldPicture10000Robots  world.png of 10,000 lidar robots with 100-step trajectories
//   BM_GifFrame1000             one run.gif frame of the scale world (viz::gif_frames' reduction)
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

#include "bench_worlds.h"
#include "ubot/config/load_world.h"
#include "ubot/record/frames_writer.h"
#include "ubot/record/parquet_frames.h"
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
// Wall time: the sensor entries are formatted on the simulation's 2 threads and the line is
// written by a thread of its own (src/record/frames_writer.cpp), which the calling thread's CPU
// time would leave out.
BENCHMARK(BM_FramesStep)->Unit(benchmark::kMillisecond)->UseRealTime();

// The Parquet record's files (objects.parquet, scans.parquet) as links to /dev/null in a fresh
// temporary folder, as BM_FramesStep writes to /dev/null.
std::filesystem::path null_parquet_dir() {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / fmt::format("bench_parquet_{}", ::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (const char* name : {"objects.parquet", "scans.parquet"}) {
    std::filesystem::create_symlink("/dev/null", dir / name);
  }
  return dir;
}

// Bytes a recorded step takes in the two files (10 steps written to real files, not timed),
// footers left out: each holds frames.jsonl's header (7.5 MB here: every lidar's 360 angles).
double parquet_bytes_per_step(const Simulation& sim, parquet::Codec codec) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / fmt::format("bench_parquet_size_{}", ::getpid());
  std::filesystem::create_directories(dir);
  ParquetFramesWriter writer(dir, sim, {.codec = codec, .background = false, .limits = {}});
  for (int i = 0; i < 10; ++i) writer.write_step(sim);
  writer.close();
  double bytes = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(f.path(), std::ios::binary);
    in.seekg(-8, std::ios::end);
    std::uint32_t footer = 0;  // its length: little-endian, as this machine
    in.read(reinterpret_cast<char*>(&footer), 4);
    // Less the footer, its length and the two magics.
    bytes += static_cast<double>(f.file_size() - footer - 12);
  }
  std::filesystem::remove_all(dir);
  return bytes / 10;
}

// BM_ParquetStep/<cost>/<codec>, the same step as BM_FramesStep as Parquet rows (1000 object rows,
// 1000 scan rows of 360 ranges, valid flags and intensities). cost 0: the step thread's share
// (write_step copying the values into the column buffers, with the worker thread encoding; its
// backlog is drained outside the timing); cost 1: all of it on one thread (copies, levels,
// compression, page headers, writes: the CPU the worker spends besides). codec 0: UNCOMPRESSED,
// 1: zstd level 1.
void BM_ParquetStep(benchmark::State& state) {
  const Simulation& sim = *thousand_robots().sim;
  const bool step_thread = state.range(0) == 0;
  const parquet::Codec codec =
      state.range(1) == 1 ? parquet::Codec::kZstd : parquet::Codec::kUncompressed;
  const std::filesystem::path dir = null_parquet_dir();
  {
    ParquetFramesWriter writer(dir, sim, {.codec = codec, .background = step_thread, .limits = {}});
    for (auto _ : state) {
      writer.write_step(sim);
      if (step_thread) {
        state.PauseTiming();
        writer.drain();
        state.ResumeTiming();
      }
    }
    writer.close();
  }
  std::filesystem::remove_all(dir);
  state.SetItemsProcessed(state.iterations());
  state.counters["MB_per_step"] = parquet_bytes_per_step(sim, codec) / 1e6;
}
BENCHMARK(BM_ParquetStep)
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->ArgNames({"total", "zstd"})
    ->Unit(benchmark::kMillisecond);

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

// --- Pictures at any size (issue 44): the final picture of worlds far past the budgets, and one
// run.gif frame at 1000 robots.

// `robots` wandering diff robots with a shown field of view, one per 10 m2 of a square world.
std::string fov_robots_yaml(int robots);

// A world of `robots` stepped `steps` times (2 threads), its drawing recording every step.
Scenario stepped(const std::string& yaml, int steps) {
  Scenario s;
  s.sim = std::make_unique<Simulation>(load_world_from_string(yaml, "bench.yaml", {.seed = 1}),
                                       SimulationOptions{.threads = 2});
  s.drawing = std::make_unique<viz::RunDrawing>(*s.sim);
  for (int k = 0; k < steps; ++k) {
    s.sim->step();
    s.drawing->record(*s.sim);
  }
  return s;
}

// draw + paint + PNG file of world.png at 800 px, as the pictures sink writes it.
void picture_loop(benchmark::State& state, const Scenario& s, const char* name) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  for (auto _ : state) {
    const render::Drawing d = s.drawing->draw(*s.sim);
    render::write_png(d, render::fit_image(d, 800), path);
  }
  std::filesystem::remove(path);
}

// 65,536 robots with shown 90 deg, 5 m fields of view (810 m square: each robot about 0.2 px
// wide, each sector about 5 px deep), after 10 steps: dots, small sectors, rings, goals, trails.
void BM_WorldPicture65536(benchmark::State& state) {
  static const Scenario s = stepped(fov_robots_yaml(65536), 10);
  picture_loop(state, s, "bench_world_65536.png");
}
BENCHMARK(BM_WorldPicture65536)->Unit(benchmark::kMillisecond)->Iterations(3);

// 10,000 lidar robots (360 beams) among 5000 obstacles, the scale world's density (632 m
// square), after 100 steps: 3.6 million beams and 10,000 trajectories of 101 points.
void BM_WorldPicture10000Robots(benchmark::State& state) {
  static const Scenario s =
      stepped(bench::lidar_robots_yaml(10000, 5000, 632.0, "unobstructed"), kSteps);
  picture_loop(state, s, "bench_world_10000.png");
}
BENCHMARK(BM_WorldPicture10000Robots)->Unit(benchmark::kMillisecond)->Iterations(3);

// One run.gif frame of the scale world (1000 robots, 100 steps of trajectories): its drawing,
// painting, palette mapping and LZW encoding, as the pictures sink adds it each sample_time. The
// world steps between frames (not timed) so each frame differs from the one before.
void BM_GifFrame1000(benchmark::State& state) {
  static Scenario s = stepped(bench::lidar_robots_yaml(1000, 500, 200.0, "unobstructed"), kSteps);
  const std::string path = (std::filesystem::temp_directory_path() / "bench_run.gif").string();
  const render::Drawing first = s.drawing->draw(*s.sim);
  // UBOT_BENCH_GIF_FRAMES_BEGIN (the reduced frames of issue 44)
  const viz::GifFrames frames = viz::gif_frames(first, render::fit_image(first, 800));
  render::GifWriter gif(path, frames.size, 0.1);
  const auto draw = [&] { return s.drawing->draw(*s.sim, {}, frames.budget); };
  // UBOT_BENCH_GIF_FRAMES_END
  for (auto _ : state) {
    state.PauseTiming();
    s.sim->step();
    s.drawing->record(*s.sim);
    state.ResumeTiming();
    gif.add_frame(draw());
  }
  gif.close();
  std::filesystem::remove(path);
}
BENCHMARK(BM_GifFrame1000)->Unit(benchmark::kMillisecond)->Iterations(20);

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
