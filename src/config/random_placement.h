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
struct RandomPoints {
  std::vector<std::vector<double>> points;
  int crowded = 0;  // points kept after 1000 tries, closer than min_distance to an earlier one
  // 100 points in a row found no free spot: the range is full and the drawing stopped there
  // (`points` holds those drawn so far). IR-SIM would go on, 1000 draws for each point left.
  bool full = false;
};
RandomPoints random_points(RandomStream& rng, const Eigen::Vector3d& low,
                           const Eigen::Vector3d& high, int n, double min_distance);

// The most points at least min_distance apart (xy) that the range [low, high] can hold at all:
// Oler's bound for a convex region (1961), 2/sqrt(3) A/d^2 + P/(2d) + 1, with A and P the
// rectangle's area and perimeter. A group of more can never be placed apart, whatever the draws.
double max_points_apart(const Eigen::Vector3d& low, const Eigen::Vector3d& high,
                        double min_distance);

// About the most points random draws place min_distance apart before the range jams (random
// sequential adsorption of disks of diameter min_distance: 54.7 % of the area covered at the
// jamming limit, Zhang & Torquato 2013), counting the half disk a point on the border adds. A
// group well beyond it can only end "the range is full", after minutes of draws.
double max_points_by_random_draws(const Eigen::Vector3d& low, const Eigen::Vector3d& high,
                                  double min_distance);

}  // namespace ubot::config
