#pragma once
// The live page's two JSON messages (docs/live.md, "The page's channels"): the world as it is
// at the start (/ubot/world: objects' names, roles and command topics, where the static ones
// are) and a frame of the run (/ubot/frame: the run's status, where the moving objects are,
// details of the selected objects). The page draws the world from the marker channels; these
// say what it cannot read there (which object is which, for picking and for the panel). Both
// are made from viz::RunDrawing, the same description the markers are made from.
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

// `cmd_vel`: per object, the topic that drives it ("" where none does).
std::string page_world_json(const Simulation& sim, const viz::RunDrawing& drawing,
                            const std::vector<std::string>& cmd_vel);
std::string page_frame_json(const Simulation& sim, const viz::RunDrawing& drawing,
                            const FrameStatus& status);

}  // namespace ubot::live
