// The `ubot` command line. Exit codes: 0 success, 2 bad world file, input file or arguments,
// 1 other errors.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "cli_checks.h"
#include "load_progress.h"
#include "map_command.h"
#include "play_command.h"
#include "run_command.h"
#include "sweep_command.h"
#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/sim/simulation.h"

namespace {

constexpr int kBadInput = 2;

// "validate means it runs" (issue 16): the world is loaded and its simulation built (scene,
// sensors), as `ubot run` does before its first step, so whatever run refuses at load validate
// refuses with the same message.
int validate(const std::string& world, const std::string& memory_limit, bool show_progress) {
  ubot::app::LoadProgressLine progress(world, show_progress, false);
  ubot::WorldModel m = progress.load(ubot::app::load_options({}, memory_limit));
  for (const std::string& w : m.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  const std::size_t objects = m.objects.size();
  progress.building_scene(objects);
  const ubot::Simulation sim(std::move(m), {.threads = 1});
  progress.finish();
  std::printf("%s: ok (%zu objects)\n", world.c_str(), objects);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ubot: a headless, deterministic robot-perception simulator"};
  app.set_version_flag("--version", UBOT_VERSION);
  app.require_subcommand(1);

  ubot::app::RunOptions run;
  CLI::App* run_cmd = app.add_subcommand("run", "Run a world and write its outputs");
  run_cmd->add_option("world", run.world, "World file (IR-SIM YAML)")->required();
  run_cmd->add_option("--steps", run.steps, "Stop after N steps (default 1000)")
      ->check(ubot::app::whole_number_in(0, std::numeric_limits<std::int64_t>::max()));
  run_cmd->add_option("--seed", run.seed, "World seed (overrides world.seed)")
      ->check(ubot::app::kUnsigned64);
  run_cmd->add_option("--out", run.out, "Output directory (default out/<world name>)");
  run_cmd->add_flag("--render", run.render, "Also write run.gif");
  run_cmd->add_flag("!--no-picture", run.picture,
                    "Do not draw world.png (sweeps and large runs that only want the data)");
  run_cmd->add_flag("--quiet", run.quiet, "No progress line and no summary");
  run_cmd->add_flag("--timings", run.timings,
                    "After the summary, print where the steps spent their wall time: world "
                    "(behaviours), scene, sensors, fog, outputs (even with --quiet)");
  const char* progress_help =
      "Show the progress lines even when stderr is not a terminal (they are shown on one): "
      "the load, then a line a second with the step, then 'finishing the outputs'";
  run_cmd->add_flag("--progress", run.progress, progress_help);
  run_cmd->add_option("--frames", run.frames, "frames.jsonl: every | N (every N-th step) | none")
      ->check(ubot::app::kFramesChoice);
  run_cmd->add_option("--frames-format", run.frames_format,
                      "Record the steps as jsonl (frames.jsonl), parquet (objects.parquet, "
                      "scans.parquet, imu.parquet) or jsonl,parquet (default jsonl)");
  run_cmd
      ->add_option(
          "--threads", run.threads,
          "Threads for the sensors and a large world's motion (0 = all cores, at most 256); "
          "the outputs are the same with any number")
      ->check(ubot::app::whole_number_in(0, ubot::app::kMaxThreads));
  run_cmd->add_option("--save-state", run.save_state,
                      "After the last step, save the running state to PATH (a state file; "
                      "--resume goes on from it, byte for byte)");
  run_cmd->add_option("--resume", run.resume,
                      "Start from a state file of this world (--save-state, "
                      "Simulation.save_state); --steps counts the steps after it");
  run_cmd->add_option("--map", run.map,
                      "Accumulate the lidars' points and save them (.las|.ply|.pcd)");
  CLI::Option* ros2 =
      run_cmd->add_flag("--ros2", run.ros2, "ROS 2 bridge over DDS (topics, cmd_vel, /clock)");
  run_cmd->add_option("--ros-domain-id", run.ros_domain_id, "ROS 2 domain (default ROS_DOMAIN_ID)")
      ->check(ubot::app::whole_number_in(0, 232))
      ->needs(ros2);
  run_cmd
      ->add_option("--realtime", run.realtime,
                   "Pace simulation time to wall time (times FACTOR, default 1)")
      ->expected(0, 1)
      ->default_str("1")
      ->check(ubot::app::kFinitePositive);

  CLI::Option* live =
      run_cmd
          ->add_option("--live", run.live,
                       "Serve the live page and the Foxglove WebSocket protocol on [HOST:]PORT "
                       "(default 127.0.0.1:8765); runs at real time until Ctrl-C or --steps")
          ->expected(0, 1)
          ->default_str("127.0.0.1:8765");
  run_cmd
      ->add_option("--live-token", run.live_token,
                   "Token the live page and WebSocket clients must give (needed off loopback)")
      ->envname("UBOT_LIVE_TOKEN")
      ->needs(live);
  CLI::Option* mcap = run_cmd->add_option(
      "--mcap", run.mcap, "Record the run as MCAP with ROS 2 messages (opens in Foxglove)");
  run_cmd
      ->add_option("--mcap-compression", run.mcap_compression,
                   "MCAP chunk compression: zstd | lz4 | none (default zstd)")
      ->check(CLI::IsMember({"zstd", "lz4", "none"}))
      ->needs(mcap);

  std::string validate_world;
  CLI::App* validate_cmd = app.add_subcommand("validate", "Check a world file and exit");
  validate_cmd->add_option("world", validate_world, "World file")->required();
  std::string validate_memory_limit;
  const char* memory_help =
      "Refuse a world whose memory estimate exceeds SIZE (e.g. 8G; default UBOT_MEMORY_LIMIT, "
      "else half of the machine's memory)";
  validate_cmd->add_option("--memory-limit", validate_memory_limit, memory_help);
  bool validate_progress = false;
  validate_cmd->add_flag("--progress", validate_progress, progress_help);
  run_cmd->add_option("--memory-limit", run.memory_limit, memory_help);

  ubot::app::MapOptions map;
  CLI::App* map_cmd = ubot::app::add_map_commands(app, map);

  ubot::app::PlayOptions play;
  CLI::App* play_cmd = ubot::app::add_play_command(app, play);

  // Everything after `sweep`, --help included, belongs to the Python runner (docs/sweeps.md).
  CLI::App* sweep_cmd = app.add_subcommand(
      "sweep", "Run a scenario sweep on Dask (python3 -m ubot.sweep; `ubot sweep --help`)");
  sweep_cmd->prefix_command()->allow_extras()->set_help_flag();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kBadInput;
  }
  try {
    if (*sweep_cmd) return ubot::app::run_sweep(sweep_cmd->remaining());
    if (*validate_cmd) return validate(validate_world, validate_memory_limit, validate_progress);
    if (*map_cmd) return ubot::app::run_map_command(map);
    if (*play_cmd) return ubot::app::run_play(play);
    if (run.out.empty()) {
      run.out = (std::filesystem::path("out") / std::filesystem::path(run.world).stem()).string();
    }
    return ubot::app::run(run);
  } catch (const ubot::Error& e) {
    std::fprintf(stderr, "ubot: error: %s\n", e.what());
    return kBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ubot: error: %s\n", e.what());
    return 1;
  }
}
