#pragma once
// `ubot play RECORDING`: replays an MCAP recording into the live page and the Foxglove
// WebSocket protocol (docs/live.md, "Replaying a recording") until Ctrl-C.
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace ubot::app {

struct PlayOptions {
  std::string recording;
  std::string live = "127.0.0.1:8765";  // --live [HOST:]PORT
  std::string live_token;               // --live-token / UBOT_LIVE_TOKEN
  double speed = 1.0;                   // --speed: × real time, 0 = as fast as possible
  std::optional<double> start;          // --start S
  bool loop = false;                    // --loop
  bool quiet = false;                   // --quiet: no summary line
};

// Adds the `play` subcommand to `app`, filling `options`.
CLI::App* add_play_command(CLI::App& app, PlayOptions& options);

// Returns the exit code (130 / 143 after Ctrl-C or SIGTERM). Throws ubot::Error on a bad
// recording, address or option.
int run_play(const PlayOptions& options);

}  // namespace ubot::app
