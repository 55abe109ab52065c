#include "run_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <thread>

#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/mapping/point_cloud_io.h"
#include "ubot/mapping/sim_mapper.h"
#include "ubot/record/camera_images.h"
#include "ubot/record/frames_writer.h"
#include "ubot/record/imu_csv_writer.h"
#include "ubot/record/mcap_recorder.h"
#include "ubot/render/drawing.h"
#include "ubot/render/plot.h"
#include "ubot/ros2/bridge.h"
#include "ubot/ros2/cyclone_transport.h"
#include "ubot/sensors/imu.h"
#include "ubot/sim/simulation.h"
#include "ubot/viz/imu_plot.h"
#include "ubot/viz/run_drawing.h"

namespace ubot::app {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::int64_t kDefaultSteps = 1000;
constexpr std::int64_t kUnlimited = std::numeric_limits<std::int64_t>::max();

// Set by SIGINT / SIGTERM during a --ros2 run, which then ends cleanly (a signal handler can only
// reach a global).
volatile std::sig_atomic_t g_stop = 0;
extern "C" void request_stop(int) { g_stop = 1; }

constexpr int kPictureSide = 800;

// frames.jsonl thinning: 0 = no file, else every n-th step.
std::int64_t frames_every(const std::string& frames) {
  if (frames == "every") return 1;
  if (frames == "none") return 0;
  char* end = nullptr;
  const long long n = std::strtoll(frames.c_str(), &end, 10);
  if (end == frames.c_str() || *end != '\0' || n < 1) {
    throw Error(fmt::format("--frames: expected 'every', 'none' or a positive step count, got '{}'",
                            frames));
  }
  return n;
}

// Per IMU: DIR/<object>/<sensor>.csv with every sample and DIR/<object>/<sensor>.png plotting
// its six channels.
class ImuOutputs {
 public:
  ImuOutputs(const Simulation& sim, const std::filesystem::path& out) {
    for (std::size_t i = 0; i < sim.sensors().size(); ++i) {
      const Sensor& sensor = *sim.sensors()[i];
      if (sensor.kind() != SensorKind::kImu) continue;
      const auto& imu = static_cast<const Imu&>(sensor);
      const std::filesystem::path dir =
          out / file_safe_name(sim.world().object_model(sensor.object_id()).name);
      create_output_dir(dir);
      const std::string stem = (dir / file_safe_name(sensor.model().common.name)).string();
      imus_.push_back(
          {i, std::make_unique<ImuCsvWriter>(stem + ".csv"), viz::ImuPlot(imu), stem + ".png"});
    }
  }
  void record(const Simulation& sim) {
    for (Entry& e : imus_) {
      const auto& sampled = sim.sampled();
      if (!std::binary_search(sampled.begin(), sampled.end(), static_cast<int>(e.sensor))) {
        continue;
      }
      const auto& imu = static_cast<const Imu&>(*sim.sensors()[e.sensor]);
      e.csv->write_step(imu);
      e.plot.record_step(imu);
    }
  }
  void close() {
    for (Entry& e : imus_) {
      e.csv->close();
      render::write_plot_png(e.plot.plot(), {1000, 640}, e.png);
    }
  }

 private:
  struct Entry {
    std::size_t sensor;
    std::unique_ptr<ImuCsvWriter> csv;
    viz::ImuPlot plot;
    std::string png;
  };
  std::vector<Entry> imus_;
};

class Progress {
 public:
  Progress(bool enabled, std::int64_t total)
      : enabled_(enabled && isatty(STDERR_FILENO)), total_(total), start_(Clock::now()) {}
  void update(std::int64_t step, double sim_time) {
    if (!enabled_) return;
    const auto now = Clock::now();
    if (now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const double wall = std::chrono::duration<double>(now - start_).count();
    if (total_ == kUnlimited) {
      std::fprintf(stderr, "\rstep %lld  t = %.2f s  %.0f steps/s   ", static_cast<long long>(step),
                   sim_time, wall > 0 ? step / wall : 0.0);
    } else {
      std::fprintf(stderr, "\rstep %lld/%lld  t = %.2f s  %.0f steps/s   ",
                   static_cast<long long>(step), static_cast<long long>(total_), sim_time,
                   wall > 0 ? step / wall : 0.0);
    }
    std::fflush(stderr);
  }
  void finish() {
    if (enabled_) std::fprintf(stderr, "\r%60s\r", "");
  }

 private:
  bool enabled_;
  std::int64_t total_;
  Clock::time_point start_;
  Clock::time_point last_{};
};

// The maps of a run: the world's `mapping:`, with --map PATH enabling a map of every lidar (no
// `mapping:`) or replacing the output of the world's only map.
std::vector<MappingModel> run_maps(const WorldModel& model, const std::string& map_path) {
  std::vector<MappingModel> maps = model.maps;
  if (map_path.empty()) return maps;
  const mapping::CloudFormat format = mapping::format_from_path(map_path);
  if (maps.size() > 1) {
    throw Error(fmt::format("--map: {} defines {} maps; set each map's output in the world file",
                            model.file, maps.size()));
  }
  if (maps.empty()) maps.push_back(default_mapping(model));
  maps[0].output = std::filesystem::absolute(map_path).string();
  maps[0].formats = {mapping::format_name(format)};
  return maps;
}

void print_map_summary(const mapping::SavedMap& m) {
  const mapping::AccumulatorStats& s = m.stats;
  std::printf("map '%s': %zu points", s.name.c_str(), s.points);
  if (!s.bounds.empty()) {
    std::printf(", bounds [%.3f, %.3f, %.3f] .. [%.3f, %.3f, %.3f]", s.bounds.min.x(),
                s.bounds.min.y(), s.bounds.min.z(), s.bounds.max.x(), s.bounds.max.y(),
                s.bounds.max.z());
  }
  std::printf(
      "; %llu received, %llu merged, %llu dropped (beyond 1.5 x range_max), %llu rejected; "
      "%.1f KiB; %llu re-bounds\n",
      static_cast<unsigned long long>(s.received),
      static_cast<unsigned long long>(s.counters.merged + s.counters.replaced),
      static_cast<unsigned long long>(s.dropped_far),
      static_cast<unsigned long long>(s.counters.rejected), s.memory_bytes / 1024.0,
      static_cast<unsigned long long>(s.counters.rebounds));
  for (const mapping::ScannerStats& sc : s.scanners) {
    std::printf("  %s: %llu scans, %llu points, %llu dropped\n", sc.name.c_str(),
                static_cast<unsigned long long>(sc.batches),
                static_cast<unsigned long long>(sc.points),
                static_cast<unsigned long long>(sc.dropped_far));
  }
  for (const std::string& f : m.files) std::printf("  saved %s\n", f.c_str());
}

// --realtime FACTOR: step k ends no earlier than k * step_time / FACTOR after the start. A slow
// step is not made up by skipping: the simulation then runs behind.
class Pacer {
 public:
  Pacer(std::optional<double> factor, double step_time)
      : enabled_(factor.has_value()),
        period_(enabled_ ? step_time / *factor : 0.0),
        start_(Clock::now()) {}
  void wait(std::int64_t step) const {
    if (!enabled_) return;
    std::this_thread::sleep_until(
        start_ + std::chrono::duration_cast<Clock::duration>(
                     std::chrono::duration<double>(period_ * static_cast<double>(step))));
  }

 private:
  bool enabled_;
  double period_;
  Clock::time_point start_;
};

}  // namespace

int run(const RunOptions& options) {
  const std::int64_t every = frames_every(options.frames);
  // With the ROS 2 bridge the run goes on until --steps or Ctrl-C, not until the robots are done.
  const std::int64_t max_steps = options.steps.value_or(options.ros2 ? kUnlimited : kDefaultSteps);
  if (max_steps < 0) throw Error("--steps must not be negative");
  WorldModel model = load_world(options.world, {.seed = options.seed});
  if (!options.quiet) {
    for (const std::string& w : model.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  }
  const std::filesystem::path out = options.out;
  create_output_dir(out);

  const std::vector<MappingModel> maps = run_maps(model, options.map);
  Simulation sim(std::move(model), {.threads = options.threads});
  std::unique_ptr<mapping::SimulationMapper> mapper;
  if (!maps.empty()) {
    auto log = [quiet = options.quiet](const char* prefix) {
      return [quiet, prefix](const std::string& line) {
        if (!quiet) std::fprintf(stderr, "%s%s\n", prefix, line.c_str());
      };
    };
    mapper = std::make_unique<mapping::SimulationMapper>(
        sim, maps,
        mapping::MapperOptions{
            .out_dir = out, .threaded = true, .info = log(""), .warn = log("warning: ")});
  }
  std::unique_ptr<FramesWriter> frames;
  if (every > 0) frames = std::make_unique<FramesWriter>((out / "frames.jsonl").string(), sim);
  ImuOutputs imu_outputs(sim, out);
  CameraImagesWriter camera_images(out, sim);
  viz::RunDrawing drawing(sim);
  const render::Drawing first = drawing.draw(sim);
  const render::ImageSize size = render::fit_image(first, kPictureSide);
  std::unique_ptr<render::GifWriter> gif;
  const double sample_time = sim.world().model().world.sample_time;
  const std::int64_t gif_every =
      std::max<std::int64_t>(1, std::llround(sample_time / sim.world().step_time()));
  if (options.render) {
    gif = std::make_unique<render::GifWriter>((out / "run.gif").string(), size,
                                              gif_every * sim.world().step_time());
    gif->add_frame(first);
  }

  std::unique_ptr<McapRecorder> recorder;
  if (!options.mcap.empty()) {
    const std::filesystem::path parent = std::filesystem::path(options.mcap).parent_path();
    if (!parent.empty()) create_output_dir(parent);
    recorder = std::make_unique<McapRecorder>(
        options.mcap, sim, McapRecorderOptions{parse_mcap_compression(options.mcap_compression)});
    recorder->record(sim);
  }

  std::unique_ptr<ros2::Transport> transport;
  std::unique_ptr<ros2::Bridge> bridge;
  if (options.ros2) {
    transport = ros2::make_cyclone_transport({.domain_id = options.ros_domain_id});
    bridge = std::make_unique<ros2::Bridge>(*transport, sim);
    bridge->publish(sim);
    g_stop = 0;
    std::signal(SIGINT, request_stop);
    std::signal(SIGTERM, request_stop);
  }
  auto finished = [&] {
    return sim.world().step_count() >= max_steps || (!options.ros2 && sim.world().done()) || g_stop;
  };

  Progress progress(!options.quiet, max_steps);
  const Pacer pacer(options.realtime, sim.world().step_time());
  const auto start = Clock::now();
  while (!finished()) {
    sim.step(bridge ? bridge->commands(sim) : std::span<const Command>{});
    if (bridge) bridge->publish(sim);
    if (recorder) recorder->record(sim);
    if (mapper) mapper->after_step(sim);
    const std::int64_t k = sim.world().step_count();
    const bool last = finished();
    if (frames && (k % every == 0 || last)) frames->write_step(sim);
    imu_outputs.record(sim);
    camera_images.write(sim);
    drawing.record(sim);
    if (gif && (k % gif_every == 0 || last)) gif->add_frame(drawing.draw(sim));
    progress.update(k, nanos_to_seconds(sim.world().time_ns()));
    pacer.wait(k);
  }
  if (bridge) bridge->shutdown();
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  progress.finish();
  if (frames) frames->close();
  if (recorder) recorder->close();
  if (gif) gif->close();
  imu_outputs.close();
  render::write_png(drawing.draw(sim), size, (out / "world.png").string());
  std::vector<mapping::SavedMap> saved_maps;
  if (mapper) saved_maps = mapper->finish();

  if (!options.quiet) {
    const std::int64_t steps = sim.world().step_count();
    std::printf(
        "%s: %lld steps, %.3f s simulated in %.3f s wall (%.0f steps/s, %.1fx real time)%s\n"
        "outputs in %s\n",
        options.world.c_str(), static_cast<long long>(steps),
        nanos_to_seconds(sim.world().time_ns()), wall, wall > 0 ? steps / wall : 0.0,
        wall > 0 ? nanos_to_seconds(sim.world().time_ns()) / wall : 0.0,
        sim.world().done() ? ", all robots done" : "", out.string().c_str());
    for (const mapping::SavedMap& m : saved_maps) print_map_summary(m);
    if (recorder) {
      const McapStatistics& s = recorder->statistics();
      std::printf("mcap: %llu messages, %.1f MiB (%s) in %s\n",
                  static_cast<unsigned long long>(s.messages), s.file_bytes / 1048576.0,
                  options.mcap_compression.c_str(), options.mcap.c_str());
    }
  }
  return 0;
}

}  // namespace ubot::app
