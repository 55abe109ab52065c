#pragma once
// IR-SIM's random_uniform placement of a group's objects (distribution: {name: random}).
#include <Eigen/Core>

#include <vector>

#include "ubot/core/random.h"

namespace ubot::config {

// Points drawn one by one in [low, high), each re-drawn (up to 1000 times) while closer than
// min_distance (xy) to an earlier point; after 1000 tries the last draw is kept (IR-SIM's rule).
// The test against earlier points looks only at the grid cells around the candidate, so it
// costs O(1) per try instead of O(n): the same draws and the same points as the plain scan, but
// `number: 1000000` takes seconds instead of hours.
std::vector<std::vector<double>> random_points(RandomStream& rng, const Eigen::Vector3d& low,
                                               const Eigen::Vector3d& high, int n,
                                               double min_distance);

}  // namespace ubot::config
