#include "play_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli_checks.h"
#include "interrupt.h"
#include "ubot/core/error.h"
#include "ubot/live/live_replay.h"
#include "ubot/record/mcap_reader.h"

namespace ubot::app {

CLI::App* add_play_command(CLI::App& app, PlayOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "play", "Replay an MCAP recording into the live page and Foxglove's WebSocket protocol");
  cmd->add_option("recording", options.recording, "MCAP file (ubot run --mcap, or any ROS 2 one)")
      ->required();
  cmd->add_option("--live", options.live,
                  "Serve on [HOST:]PORT (default 127.0.0.1:8765; 0 = any free port)")
      ->expected(0, 1)
      ->default_str("127.0.0.1:8765");
  cmd->add_option("--live-token", options.live_token,
                  "Token the page and WebSocket clients must give (needed off loopback)")
      ->envname("UBOT_LIVE_TOKEN");
  cmd->add_option("--speed", options.speed, "× real time at the start (0 = as fast as possible)")
      ->check(number_in(0.0, 1000.0));
  cmd->add_option("--start", options.start, "Start at this time (s of the recording's clock)")
      ->check(kFiniteNonNegative);
  cmd->add_flag("--loop", options.loop, "Start again at the end (otherwise pause there)");
  cmd->add_flag("--quiet", options.quiet, "No summary line");
  return cmd;
}

int run_play(const PlayOptions& options) {
  const InterruptHandlers interrupts;
  // Before the file is read: a refused address fails at once, as with `ubot run --live`.
  live::LiveServerOptions server;
  server.address = live::parse_live_address(options.live, "--live");
  server.token = options.live_token;
  live::check_live_access(server.address, server.token);

  McapReader reader(options.recording);
  for (const std::string& w : reader.warnings()) {
    std::fprintf(stderr, "warning: %s\n", w.c_str());
  }
  if (reader.messages().empty()) {
    throw Error(options.recording + ": the recording has no messages to play");
  }
  live::LiveReplay replay(reader, std::move(server),
                          {.speed = options.speed, .start = options.start, .loop = options.loop});
  std::printf("live view at %s\n", replay.url().c_str());
  if (!options.quiet) {
    std::printf("playing %s: %zu messages on %zu channels, %.3f … %.3f s, at %g× real time%s\n",
                options.recording.c_str(), reader.messages().size(), reader.channels().size(),
                static_cast<double>(reader.start_time()) * 1e-9,
                static_cast<double>(reader.end_time()) * 1e-9, options.speed,
                options.loop ? ", looping" : "");
  }
  std::fflush(stdout);
  replay.run([] { return stop_signal() != 0; });
  const int signal = stop_signal();
  std::fprintf(stderr, "ubot: %s: replay stopped\n", signal_name(signal));
  return interrupted_exit_code(signal);
}

}  // namespace ubot::app
