#pragma once
// Seeded random starts, goals and obstacles at a reset (docs/learning.md, "Resets"): the one
// definition ubot.gym, ubot.pettingzoo and the C++ vector core (ubot.VectorEnv, UbotVectorEnv)
// all place objects by.
#include <cstdint>
#include <string>
#include <vector>

#include "ubot/sim/simulation.h"

namespace ubot {

struct PlacementSpec {
  std::vector<int> obstacles;  // ids placed anew, in this order
  std::vector<int> robots;     // ids placed anew after the obstacles
  std::vector<int> goals;      // ids whose goal is drawn anew, after every start
  double x_min = 0.0, x_max = 0.0, y_min = 0.0, y_max = 0.0;  // the region (m)
  double margin = 0.1;             // clearance (m) from every object it can collide with
  double min_goal_distance = 1.0;  // a goal's distance (m) from its robot's start
  bool yaw = true;                 // draw the placed objects' headings too
  int tries = 200;                 // draws per object before giving up
};

// Places the spec's obstacles, then robots, then goals, one at a time, uniformly in the region
// (an object's centre at least its radius inside); a place is taken when the object is at least
// `margin` from every other object it can collide with (World::clearance: exact shapes). A goal
// must also be `min_goal_distance` from its robot's start and `2 radius + margin` from the goals
// drawn before; a robot's goal becomes that single waypoint (heading 0). Draws come from one
// RandomStream of `seed`. An ubot::Error names the object that does not fit the region or finds
// no free place in `tries` draws (that object is put back where it was).
void place_randomly(Simulation& sim, const PlacementSpec& spec, std::uint64_t seed);

}  // namespace ubot
