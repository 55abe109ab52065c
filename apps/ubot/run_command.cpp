#include "run_command.h"

#include "interrupt.h"
#include "load_progress.h"
#include "output_folder.h"
#include "run_sinks.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <thread>

#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/core/output_files.h"
#include "ubot/core/phase_clock.h"
#include "ubot/live/live_view.h"
#include "ubot/mapping/mapping_config.h"
#include "ubot/outputs/run_sinks.h"
#include "ubot/ros2/bridge.h"
#include "ubot/ros2/cyclone_transport.h"
#include "ubot/sensors/camera/camera_images.h"
#include "ubot/sim/simulation.h"
#include "ubot/sim/sink.h"

namespace ubot::app {

using outputs::camera_images_sink;
using outputs::frames_sink;
using outputs::FramesFormats;
using outputs::imu_outputs_sink;
using outputs::mapper_sink;
using outputs::mcap_sink;
using outputs::parquet_frames_sink;
using outputs::parse_frames_formats;
using outputs::pictures_sink;
using outputs::run_maps;
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::int64_t kDefaultSteps = 1000;
constexpr std::int64_t kUnlimited = std::numeric_limits<std::int64_t>::max();

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

// The step line: on a terminal one line redrawn in place (10 times a second); with --progress
// into a log one line a second, from step 0 on, and one when the outputs are being finished
// (what a supervisor or a test watches for).
class Progress {
 public:
  Progress(bool enabled, bool forced, std::int64_t total)
      : terminal_(enabled && isatty(STDERR_FILENO)),
        log_(enabled && forced && !terminal_),
        total_(total),
        start_(Clock::now()) {
    if (log_) print(0, 0.0, "\n");
  }
  void update(std::int64_t step, double sim_time) {
    if (!terminal_ && !log_) return;
    const auto now = Clock::now();
    if (now - last_ < (terminal_ ? std::chrono::milliseconds(100) : std::chrono::seconds(1))) {
      return;
    }
    last_ = now;
    print(step, sim_time, terminal_ ? "   " : "\n");
  }
  void finish() {
    if (terminal_) std::fprintf(stderr, "\r%60s\r", "");
    if (log_) {
      std::fprintf(stderr, "finishing the outputs\n");
      std::fflush(stderr);
    }
  }

 private:
  void print(std::int64_t step, double sim_time, const char* end) {
    const double wall = std::chrono::duration<double>(Clock::now() - start_).count();
    const double rate = wall > 0 ? step / wall : 0.0;
    if (total_ == kUnlimited) {
      std::fprintf(stderr, "%sstep %lld  t = %.2f s  %.0f steps/s%s", terminal_ ? "\r" : "",
                   static_cast<long long>(step), sim_time, rate, end);
    } else {
      std::fprintf(stderr, "%sstep %lld/%lld  t = %.2f s  %.0f steps/s%s", terminal_ ? "\r" : "",
                   static_cast<long long>(step), static_cast<long long>(total_), sim_time, rate,
                   end);
    }
    std::fflush(stderr);
  }
  bool terminal_;
  bool log_;
  std::int64_t total_;
  Clock::time_point start_;
  Clock::time_point last_{};
};

// --realtime FACTOR without the live view (whose session paces a live run the same way): step
// k ends no earlier than k * step_time / FACTOR after the start, on the session's clock. A slow
// step is not made up by skipping: the simulation then runs behind.
class Pacer {
 public:
  explicit Pacer(std::optional<double> factor) : factor_(factor.value_or(0.0)) {}
  // Returns early when the run is interrupted (a slow --realtime would otherwise keep Ctrl-C
  // waiting for a whole step period).
  void wait(std::int64_t time_ns) {
    if (factor_ <= 0.0) return;
    const auto t = static_cast<std::uint64_t>(time_ns);
    if (!clock_.anchored()) {
      clock_.anchor(t, factor_);  // the first step ends the interval the pace counts from
      return;
    }
    clock_.sleep_until(t, [] { return stop_signal() != 0; });
  }

 private:
  double factor_;
  live::PlaybackClock clock_;
};

// --timings: the steps' wall time by phase, in milliseconds per step (a stable line, read by
// bench/scale_bench.py), then what finishing the outputs took.
void print_timings(const StepTimings& t, std::int64_t outputs_ns, std::int64_t finish_ns) {
  const double steps = static_cast<double>(std::max<std::int64_t>(t.steps, 1));
  auto per_step = [&](std::int64_t ns) { return static_cast<double>(ns) / 1e6 / steps; };
  std::printf(
      "timings over %lld steps (wall, ms per step): world %.3f (behaviours %.3f), scene %.3f, "
      "sensors %.3f, fog %.3f, outputs %.3f; finishing the outputs %.3f s\n",
      static_cast<long long>(t.steps), per_step(t.world_ns), per_step(t.behaviors_ns),
      per_step(t.scene_ns), per_step(t.sensors_ns), per_step(t.fog_ns), per_step(outputs_ns),
      static_cast<double>(finish_ns) / 1e9);
}

}  // namespace

LoadOptions load_options(std::optional<std::uint64_t> seed, const std::string& memory_limit) {
  LoadOptions o{.seed = seed};
  if (!memory_limit.empty()) o.memory_limit = parse_size(memory_limit, "--memory-limit");
  return o;
}

namespace {

// The run, from loading the world to its summary (run() below handles the signals).
int run_world(const RunOptions& options) {
  const std::int64_t every = frames_every(options.frames);
  const FramesFormats formats = parse_frames_formats(options.frames_format, "--frames-format");
  const bool serving_live = options.live.has_value();
  std::optional<live::LiveAddress> live_address;
  if (serving_live) {  // before the world loads: a refused address fails at once
    live_address = live::parse_live_address(*options.live, "--live");
    live::check_live_access(*live_address, options.live_token);
  }
  // With the ROS 2 bridge or the live view the run goes on until --steps or Ctrl-C, not until
  // the robots are done.
  const bool open_ended = options.ros2 || serving_live;
  const std::int64_t max_steps = options.steps.value_or(open_ended ? kUnlimited : kDefaultSteps);
  if (max_steps < 0) throw Error("--steps must not be negative");
  LoadProgressLine load_progress(options.world, options.progress, options.quiet);
  WorldModel model = load_progress.load(load_options(options.seed, options.memory_limit));
  throw_if_stop_requested();  // the previous run's outputs stay
  if (!options.quiet) {
    for (const std::string& w : model.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  }
  const std::vector<MappingModel> maps = run_maps(model, options.map);
  load_progress.building_scene(model.objects.size());
  Simulation sim(std::move(model), {.threads = options.threads});
  // A bad state file, like a bad world, leaves the previous outputs in place.
  if (!options.resume.empty()) sim.load_state(options.resume);
  load_progress.finish();
  exit_at_once_on_signal(false);  // from here on a signal ends the run with its outputs closed
  throw_if_stop_requested();
  const std::int64_t first_step = sim.world().step_count();  // 0, or the resumed state's
  // After the world loaded and its scene was built (a bad world, or a signal before here, leaves
  // the previous outputs in place): the previous run's files go, and an unwritable folder fails
  // before the first step.
  OutputFolder folder(options.out);
  const std::filesystem::path& out = folder.path();
  if (!options.save_state.empty()) check_writable(options.save_state);
  // What the run writes, in the order each is made, told of each step and finished.
  // Some take seconds to make for a world of 10^6 objects (the frames header, the first
  // drawing): once a signal came, the rest are not made, and the run closes those it has.
  std::vector<std::unique_ptr<Sink>> sinks;
  const auto go_on = [] { return stop_signal() == 0; };
  if (!maps.empty()) sinks.push_back(mapper_sink(sim, maps, out, options.quiet));
  if (every > 0 && formats.jsonl && go_on()) sinks.push_back(frames_sink(sim, out, every));
  if (every > 0 && formats.parquet && go_on()) {
    sinks.push_back(parquet_frames_sink(sim, out, every));
  }
  if (go_on()) sinks.push_back(imu_outputs_sink(sim, out));
  if (go_on()) sinks.push_back(camera_images_sink(sim, out));
  if ((options.picture || options.render) && go_on()) {
    sinks.push_back(pictures_sink(sim, out, {.gif = options.render, .png = options.picture}));
  }
  if (!options.mcap.empty() && go_on()) {
    sinks.push_back(mcap_sink(sim, options.mcap, parse_mcap_compression(options.mcap_compression),
                              options.mcap_compression));
  }
  std::unique_ptr<ros2::Transport> transport;
  std::unique_ptr<ros2::Bridge> bridge;  // also the source of the robots' commands
  if (options.ros2) {
    transport = ros2::make_cyclone_transport({.domain_id = options.ros_domain_id});
    bridge = std::make_unique<ros2::Bridge>(*transport, sim);
    sinks.push_back(ros2_sink(*bridge));
  }
  std::unique_ptr<live::LiveView> live_view;
  if (serving_live) {
    // With --live the run paces itself at real time unless --realtime says otherwise.
    live::LiveServerOptions server;
    server.address = *live_address;
    server.token = options.live_token;
    live_view =
        std::make_unique<live::LiveView>(sim, std::move(server), options.realtime.value_or(1.0));
    sinks.push_back(live::live_sink(*live_view));
    std::printf("live view at %s\n", live_view->url().c_str());
    std::fflush(stdout);
  }
  for (const auto& sink : sinks) sink->on_start(sim);
  if (options.timings) sim.set_timing(true);
  std::int64_t outputs_ns = 0;  // --timings: the sinks' on_step and on_finish
  std::int64_t* const outputs_clock = options.timings ? &outputs_ns : nullptr;

  // Steps taken by this run (a resumed run starts at first_step).
  auto taken = [&] { return sim.world().step_count() - first_step; };
  auto finished = [&] {
    return taken() >= max_steps || (!open_ended && sim.world().done()) || stop_signal() != 0;
  };
  auto stopped = [] { return stop_signal() != 0; };
  Progress progress(!options.quiet, options.progress, max_steps);
  Pacer pacer(options.realtime);
  const auto start = Clock::now();
  bool step_cut_short = false;  // a huge world's step, stopped part way (ubot/core/stop.h)
  while (!finished()) {
    std::span<const Command> commands = bridge ? bridge->commands(sim) : std::span<const Command>{};
    if (live_view) {
      const auto turn = live_view->turn(sim, stopped, commands);
      if (!turn) break;
      commands = *turn;
    }
    try {
      sim.step(commands);
    } catch (const Stopped&) {
      step_cut_short = true;
      break;
    }
    const StepInfo step{.step = sim.world().step_count(), .last = finished()};
    {
      const PhaseClock clock(outputs_clock);
      for (const auto& sink : sinks) sink->on_step(sim, step);
    }
    progress.update(taken(), nanos_to_seconds(sim.world().time_ns()));
    if (!live_view) pacer.wait(sim.world().time_ns());
  }
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  progress.finish();
  bool finish_cut_short = false;
  std::int64_t finish_ns = 0;
  {
    const PhaseClock clock(options.timings ? &finish_ns : nullptr);
    for (const auto& sink : sinks) {
      try {
        sink->on_finish(sim);
      } catch (const Stopped&) {
        // A sink that did not catch its own (each says what it left out: Sink::skipped()): the
        // others still close their files.
        finish_cut_short = true;
      }
    }
  }
  // The state after the last whole step (also after Ctrl-C); not after a step cut short, which
  // left the world part way through a step.
  const bool save_state = !options.save_state.empty() && !step_cut_short;
  if (save_state) sim.save_state(options.save_state);
  folder.write_manifest();

  const int interrupted = stop_signal();
  if (interrupted != 0) {
    std::fprintf(stderr, "ubot: %s: stopped after step %lld%s, outputs closed\n",
                 signal_name(interrupted), static_cast<long long>(sim.world().step_count()),
                 step_cut_short ? " (the next step was cut short and is not recorded)" : "");
    std::vector<std::string> skipped;
    for (const auto& sink : sinks) {
      for (std::string& s : sink->skipped()) skipped.push_back(std::move(s));
    }
    if (finish_cut_short) skipped.push_back("the end of an output's finishing");
    if (!options.save_state.empty() && !save_state) skipped.push_back(options.save_state);
    if (!skipped.empty()) {
      std::fprintf(stderr, "ubot: %s: skipped to end in time: %s\n", signal_name(interrupted),
                   fmt::format("{}", fmt::join(skipped, ", ")).c_str());
    }
  }
  if (!options.quiet) {
    const std::int64_t steps = sim.world().step_count();
    std::printf(
        "%s: %lld steps, %.3f s simulated in %.3f s wall (%.0f steps/s, %.1fx real time)%s\n"
        "outputs in %s\n",
        options.world.c_str(), static_cast<long long>(steps),
        nanos_to_seconds(sim.world().time_ns()), wall, wall > 0 ? steps / wall : 0.0,
        wall > 0 ? nanos_to_seconds(sim.world().time_ns()) / wall : 0.0,
        sim.world().done() ? ", all robots done" : "", out.string().c_str());
    for (const auto& sink : sinks) sink->report(stdout);
    if (save_state) {
      std::printf("state after step %lld saved to %s\n",
                  static_cast<long long>(sim.world().step_count()), options.save_state.c_str());
    }
  }
  if (options.timings) print_timings(sim.timings(), outputs_ns, finish_ns);
  // Stopped by a signal: every output is closed, every message printed; freeing a large world
  // would take seconds more (exit_now).
  if (interrupted != 0) exit_now(interrupted_exit_code(interrupted));
  return 0;
}

}  // namespace

int run(const RunOptions& options) {
  // From here on Ctrl-C ends the run after its current step, with every output closed; before
  // the first step (loading, building), at once, with nothing written.
  const InterruptHandlers interrupts;
  exit_at_once_on_signal(true);  // until the world is built (run_world turns it off)
  struct Off {
    ~Off() { exit_at_once_on_signal(false); }  // also when loading fails
  } off;
  try {
    return run_world(options);
  } catch (const Stopped& i) {
    std::fprintf(stderr, "ubot: %s: stopped before the first step, nothing written\n",
                 signal_name(i.signal));
    return interrupted_exit_code(i.signal);
  }
}

}  // namespace ubot::app
