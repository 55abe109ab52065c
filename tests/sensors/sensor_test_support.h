#pragma once
#include <string>

#include "ubot/config/load_world.h"
#include "ubot/sensors/lidar2d/lidar2d.h"
#include "ubot/sim/simulation.h"

namespace ubot::testing_support {

inline Simulation make_sim(const std::string& yaml, std::uint64_t seed = 0) {
  return Simulation(load_world_from_string(yaml, "test.yaml", {.seed = seed}));
}

// The i-th sensor of `sim` as its concrete type.
template <class S>
const S& sensor_as(const Simulation& sim, int i = 0) {
  return static_cast<const S&>(*sim.sensors()[i]);
}

inline const Lidar2d& lidar(const Simulation& sim, int i = 0) { return sensor_as<Lidar2d>(sim, i); }

// A world of one static robot at the origin facing +x carrying one sensor (`sensor`: the inside
// of its flow map, e.g. "name: lidar3d, number: 8"), with `obstacles` (the body of an
// `obstacle:` list) and `extra` top-level YAML put before it.
inline std::string static_robot_world(const std::string& sensor, const std::string& obstacles = "",
                                      const std::string& extra = "") {
  return extra + R"(
world: {width: 100, height: 100, offset: [-50, -50]}
robot:
  - kinematics: {name: diff}
    shape: {name: circle, radius: 0.2}
    state: [0, 0, 0]
    static: true
    sensors:
      - {)" +
         sensor + "}\n" + (obstacles.empty() ? "" : "obstacle:\n" + obstacles);
}

}  // namespace ubot::testing_support
