// Conversions the behaviours share (declared in ../behavior.h).
#include <algorithm>
#include <cmath>

#include "../behavior.h"
#include "ubot/core/angles.h"
#include "ubot/world/world.h"

namespace ubot::detail {

Eigen::Vector2d desired_omni_velocity(const World& world, int id) {
  const ObjectState& s = world.object(id);
  if (s.goals.empty()) return Eigen::Vector2d::Zero();
  const double dx = s.goals.front()[0] - s.state[0], dy = s.goals.front()[1] - s.state[1];
  if (!(std::hypot(dx, dy) > 0.1)) return Eigen::Vector2d::Zero();
  const ObjectModel& m = world.object_model(id);
  const std::vector<double>& vel_max = m.vel_max;
  // IR-SIM 2.12.0's _desired_speed_bounds: diff and acker bound a speed and a turn rate, so the
  // speed bounds both axes (2.10.2 scaled y by vel_max[1], the angular limit, which skewed the
  // direction off the goal bearing); omni and omni_angular bound the two components.
  const bool two_components =
      m.kinematics.kind != KinematicsKind::kDiff && m.kinematics.kind != KinematicsKind::kAcker;
  const double speed_y = two_components ? vel_max[1] : vel_max[0];
  const double bearing = wrap_to_pi(std::atan2(dy, dx));
  return {vel_max[0] * std::cos(bearing), speed_y * std::sin(bearing)};
}

Eigen::Vector2d omni_to_diff(double theta, const Eigen::Vector2d& v, double w_max,
                             double guarantee_time, double tolerance, double mini_speed) {
  const double speed = std::sqrt(v.x() * v.x() + v.y() * v.y());
  if (speed <= mini_speed) return Eigen::Vector2d::Zero();
  const double error = wrap_to_pi(theta - std::atan2(v.y(), v.x()));
  double w = 0.0;
  if (!(std::abs(error) < tolerance)) {
    // Upper bound first, then lower, as IR-SIM (a narrowed w_max below 0 ends at -w_max).
    w = -error / guarantee_time;
    if (w > w_max) w = w_max;
    if (w < -w_max) w = -w_max;
  }
  return {std::max(speed * std::cos(error), 0.0), w};
}

Eigen::Vector2d world_to_body(double theta, const Eigen::Vector2d& v) {
  const double c = std::cos(theta), s = std::sin(theta);
  return {c * v.x() + s * v.y(), -s * v.x() + c * v.y()};
}

bool is_target(TargetRoles roles, Role role) {
  return roles == TargetRoles::kAll || (roles == TargetRoles::kRobot) == (role == Role::kRobot);
}

}  // namespace ubot::detail
