#pragma once
// The social force model as IR-SIM computes it (irsim/lib/algorithm/social_force_model.py):
// the anisotropic neighbour force of Moussaïd, Helbing et al. (2009) and the summed exponential
// wall force of Helbing & Molnár (1995), integrated once, v' = v + dt a, and capped at vmax.
// Each term is evaluated in IR-SIM's operation order so results agree to the last bit.
#include <span>

#include <Eigen/Core>

#include "ubot/config/world_model.h"

namespace ubot::sfm {

struct Agent {
  Eigen::Vector2d position = Eigen::Vector2d::Zero();
  Eigen::Vector2d velocity = Eigen::Vector2d::Zero();
  Eigen::Vector2d desired_velocity = Eigen::Vector2d::Zero();  // v0 e_goal
  double radius = 0.0;  // for the wall force (IR-SIM: the object's radius + 0.1)
};

struct Neighbor {
  Eigen::Vector2d position;
  Eigen::Vector2d velocity;
};

struct Segment {
  Eigen::Vector2d a, b;
};

struct Forces {
  Eigen::Vector2d desired, social, obstacle;  // unweighted, as IR-SIM's three terms
};

// The three force terms on `agent` (neighbours farther than neighbor_threshold are left out).
Forces forces(const Agent& agent, std::span<const Neighbor> neighbors,
              std::span<const Segment> walls, const BehaviorModel::Sfm& p);

// The velocity after one step of `dt` seconds under the weighted forces, capped at vmax.
Eigen::Vector2d next_velocity(const Agent& agent, std::span<const Neighbor> neighbors,
                              std::span<const Segment> walls, const BehaviorModel::Sfm& p,
                              double dt);

}  // namespace ubot::sfm
