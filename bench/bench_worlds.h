#pragma once
// Generated benchmark worlds shared by the suites (fixed seeds, so every run measures the same
// work): random obstacles, and many diff robots each carrying a 360-beam lidar.
#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "ubot/core/random.h"

namespace ubot::bench {

// `count` obstacles, circles and rectangles alternating, at random in a size x size square.
inline std::string obstacles_yaml(int count, double size, std::uint64_t seed) {
  RandomStream rng(seed);
  std::string yaml = "obstacle:\n";
  for (int i = 0; i < count; ++i) {
    const double x = rng.uniform(1.0, size - 1.0), y = rng.uniform(1.0, size - 1.0);
    if (i % 2 == 0) {
      yaml += fmt::format("  - {{shape: {{name: circle, radius: {}}}, state: [{}, {}, 0]}}\n",
                          rng.uniform(0.2, 0.8), x, y);
    } else {
      yaml += fmt::format(
          "  - {{shape: {{name: rectangle, length: {}, width: {}}}, state: [{}, {}, {}]}}\n",
          rng.uniform(0.4, 1.6), rng.uniform(0.4, 1.6), x, y, rng.uniform(-3.0, 3.0));
    }
  }
  return yaml;
}

// `robots` wandering diff robots (360-beam, 10 m lidars) among `obstacles` obstacles in a
// size x size world with collision mode `mode`.
inline std::string lidar_robots_yaml(int robots, int obstacles, double size, const char* mode) {
  return fmt::format(R"(
world: {{width: {0}, height: {0}, step_time: 0.1, collision_mode: {3}}}
robot:
  - number: {1}
    distribution: {{name: random, range_low: [1, 1, -3.14], range_high: [{2}, {2}, 3.14]}}
    kinematics: {{name: diff}}
    shape: {{name: circle, radius: 0.2}}
    behavior: {{name: dash, wander: true, range_low: [1, 1, -3.14], range_high: [{2}, {2}, 3.14]}}
    sensors:
      - {{name: lidar2d, range_max: 10, angle_range: 6.283185307179586, number: 360}}
)",
                     size, robots, size - 1, mode) +
         obstacles_yaml(obstacles, size, 42);
}

}  // namespace ubot::bench
