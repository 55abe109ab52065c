#include "load_progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

#include "interrupt.h"

namespace ubot::app {

LoadProgressLine::LoadProgressLine(std::string world, bool forced, bool quiet)
    : world_(std::move(world)), terminal_(isatty(STDERR_FILENO) != 0) {
  enabled_ = !quiet && (forced || terminal_);
}

LoadProgress LoadProgressLine::callback() {
  // Always installed: the loader calls it often (every object, every 65536 YAML events), which
  // is where a stop signal ends a long load.
  return [this](std::string_view stage, std::uint64_t done, std::uint64_t total) {
    throw_if_stop_requested();
    if (enabled_) report(stage, done, total);
  };
}

void LoadProgressLine::report(std::string_view stage, std::uint64_t done, std::uint64_t total) {
  // Called for every object: the clock is read each time (tens of ns), the line drawn rarely.
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(100) && done != total) return;
  last_ = now;
  if (stage == "parsing") {
    const double percent = total > 0 ? 100.0 * static_cast<double>(done) / total : 0.0;
    draw(fmt::format("loading {}: parsing {:.0f}%", world_, percent));
  } else {
    draw(fmt::format("loading {}: {} {}/{}", world_, stage, done, total));
  }
}

WorldModel LoadProgressLine::load(LoadOptions options) {
  options.progress = callback();
  WorldModel model = load_world(world_, options);
  finish();
  return model;
}

void LoadProgressLine::building_scene(std::size_t objects) {
  stage(fmt::format("building the scene ({} objects)", objects));
}

void LoadProgressLine::stage(std::string_view text) {
  if (enabled_) draw(fmt::format("loading {}: {}", world_, text));
}

void LoadProgressLine::draw(const std::string& text) {
  // A terminal gets one line redrawn in place; a log (--progress into a file) one line each.
  if (terminal_) {
    std::fprintf(stderr, "\r\033[K%s", text.c_str());
  } else {
    std::fprintf(stderr, "%s\n", text.c_str());
  }
  std::fflush(stderr);
  drawn_ = true;
}

void LoadProgressLine::finish() {
  if (drawn_ && terminal_) std::fprintf(stderr, "\r\033[K");
  drawn_ = false;
}

}  // namespace ubot::app
