#pragma once
// The load progress line of `ubot run` and `ubot validate` (issue 16, item 2): on stderr, only
// when it is a terminal or `--progress` asks for it, so CI logs and pipes stay as they were.
// "loading big.yaml: parsing 45%", then "objects 450000/1000000", then "building the scene";
// redrawn at most 10 times a second, erased when the simulation is built.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "ubot/config/load_world.h"

namespace ubot::app {

class LoadProgressLine {
 public:
  // `forced`: --progress (shown even when stderr is no terminal); `quiet`: --quiet (never).
  LoadProgressLine(std::string world, bool forced, bool quiet);
  ~LoadProgressLine() { finish(); }
  LoadProgressLine(const LoadProgressLine&) = delete;
  LoadProgressLine& operator=(const LoadProgressLine&) = delete;

  bool enabled() const { return enabled_; }
  // The callback for LoadOptions::progress: it draws the line when enabled, and throws
  // ubot::Stopped (ubot/core/stop.h) once a stop signal has arrived.
  LoadProgress callback();
  // Loads the world with `options` while the line shows the progress, then ends the line.
  WorldModel load(LoadOptions options);
  // A stage without a count ("building the scene (1000001 objects)").
  void stage(std::string_view text);
  // The stage of building the simulation of a world of `objects` objects.
  void building_scene(std::size_t objects);
  // Erases the line (a terminal) or ends it (a log).
  void finish();

 private:
  void report(std::string_view stage, std::uint64_t done, std::uint64_t total);
  void draw(const std::string& text);

  std::string world_;
  bool enabled_ = false;
  bool terminal_ = false;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace ubot::app
