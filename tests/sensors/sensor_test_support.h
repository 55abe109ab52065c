#pragma once
#include <string>

#include "ubot/config/load_world.h"
#include "ubot/sensors/lidar2d.h"
#include "ubot/sim/simulation.h"

namespace ubot::testing_support {

inline Simulation make_sim(const std::string& yaml, std::uint64_t seed = 0) {
  return Simulation(load_world_from_string(yaml, "test.yaml", {.seed = seed}));
}

inline const Lidar2d& lidar(const Simulation& sim, int i = 0) {
  return static_cast<const Lidar2d&>(*sim.sensors()[i]);
}

}  // namespace ubot::testing_support
