#pragma once
// The live page's two JSON messages (docs/live.md, "The page's channels"): the world as it is
// at the start (/ubot/world: objects' names and roles, static objects drawn, the grid map) and
// a frame of the run (/ubot/frame: moving objects, beams, smoke, fields of view, the run's
// status, details of the selected objects). Both are made from viz::RunDrawing, the same
// description the run's pictures are painted from.
#include <cstddef>
#include <set>
#include <string>

#include "ubot/sim/simulation.h"
#include "ubot/viz/run_drawing.h"

namespace ubot::live {

struct FrameStatus {
  bool paused = false;
  double speed = 1.0;
  double steps_per_second = 0.0;
  double realtime_factor = 0.0;
  std::set<int> selected;  // objects shown in detail
  std::size_t clients = 0;
};

// Beams a frame carries at most: every sensor's beams thinned by one stride when there are more.
inline constexpr std::size_t kMaxFrameBeams = 4000;

// `cmd_vel`: per object, the topic that drives it ("" where none does).
std::string page_world_json(const Simulation& sim, const viz::RunDrawing& drawing,
                            const std::vector<std::string>& cmd_vel);
std::string page_frame_json(const Simulation& sim, const viz::RunDrawing& drawing,
                            const FrameStatus& status);

}  // namespace ubot::live
