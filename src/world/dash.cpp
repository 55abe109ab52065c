// IR-SIM's `dash` behaviour for diff, omni and acker kinematics.
#include <algorithm>
#include <cmath>
#include <limits>

#include "behavior.h"
#include "ubot/core/angles.h"
#include "ubot/world/world.h"

namespace ubot::detail {
namespace {

struct Relative {
  double distance;  // to the goal
  double bearing;   // world direction of the goal
};

Relative relative_position(const std::vector<double>& state, const std::vector<double>& goal) {
  const double dx = goal[0] - state[0], dy = goal[1] - state[1];
  return {std::hypot(dx, dy), wrap_to_pi(std::atan2(dy, dx))};
}

double sign(double x) { return static_cast<double>((x > 0.0) - (x < 0.0)); }

Eigen::Vector2d clip(const Eigen::Vector2d& v, const VelocityRange& r) {
  return {std::min(std::max(v[0], r.min[0]), r.max[0]),
          std::min(std::max(v[1], r.min[1]), r.max[1])};
}

Eigen::Vector2d diff_dash(const World& world, int id, const Relative& rel,
                          const VelocityRange& range) {
  const ObjectModel& m = world.object_model(id);
  const ObjectState& s = world.object(id);
  if (rel.distance < m.goal_threshold) return Eigen::Vector2d::Zero();
  const double tolerance = m.behavior.angle_tolerance;
  const double error = wrap_to_pi(rel.bearing - s.state[2]);
  const double linear = m.vel_max[0] * std::cos(error);
  double angular = 0.0;
  if (std::abs(error) >= tolerance) {
    double magnitude = std::abs(m.vel_max[1]);
    const double a = m.acce[1];
    if (std::isfinite(a) && a > 0.0) {
      // Slow the turn so that it can stop at the tolerance with the angular acceleration limit.
      const double remaining = std::abs(error) - tolerance;
      const double a_dt = a * world.step_time();
      magnitude = std::min(magnitude, -a_dt + std::sqrt(a_dt * a_dt + 2.0 * a * remaining));
    }
    angular = sign(error) * magnitude;
  }
  return clip({linear, angular}, range);
}

Eigen::Vector2d omni_dash(const World& world, int id, const Relative& rel,
                          const VelocityRange& range) {
  const ObjectModel& m = world.object_model(id);
  if (!(rel.distance > m.goal_threshold)) return clip(Eigen::Vector2d::Zero(), range);
  const double error = wrap_to_pi(rel.bearing - world.object(id).state[2]);
  return clip({m.vel_max[0] * std::cos(error), m.vel_max[1] * std::sin(error)}, range);
}

Eigen::Vector2d acker_dash(const World& world, int id, const Relative& rel,
                           const VelocityRange& range) {
  const ObjectModel& m = world.object_model(id);
  const double tolerance = m.behavior.angle_tolerance;
  double error = wrap_to_pi(rel.bearing - world.object(id).state[2]);
  if (-tolerance < error && error < tolerance) error = 0.0;
  if (rel.distance < m.goal_threshold) return clip(Eigen::Vector2d::Zero(), range);
  return clip({m.vel_max[0], std::clamp(error, -m.vel_max[1], m.vel_max[1])}, range);
}

// The largest speed at which a turn with angular acceleration `a` still stops within `remaining`
// when this step moves at it first: w dt + w^2 / (2 a) <= remaining.
double braking_speed(double a, double dt, double remaining) {
  const double a_dt = a * dt;
  return -a_dt + std::sqrt(a_dt * a_dt + 2.0 * a * remaining);
}

}  // namespace

double dash_yaw_rate(const World& world, int id) {
  const ObjectState& s = world.object(id);
  const ObjectModel& m = world.object_model(id);
  if (s.goals.empty()) return 0.0;
  const std::vector<double>& goal = s.goals.front();
  const Relative rel = relative_position(s.state, goal);
  // A waypoint of [x, y] only (a shuttle's, in arrive_mode position) keeps the heading it has.
  const double at_goal = goal.size() > 2 ? goal[2] : s.state[2];
  const double target = rel.distance > m.goal_threshold ? rel.bearing : at_goal;
  const double error = wrap_to_pi(target - s.state[2]);
  const double tolerance = m.behavior.angle_tolerance;
  if (std::abs(error) <= tolerance) return 0.0;
  double magnitude = std::abs(m.vel_max[2]);
  const double a = m.acce[2];
  if (std::isfinite(a) && a > 0.0) {
    magnitude =
        std::min(magnitude, braking_speed(a, world.step_time(), std::abs(error) - tolerance));
  }
  return sign(error) * magnitude;
}

Eigen::Vector2d dash_velocity(const World& world, int id, const VelocityRange& range) {
  const ObjectState& s = world.object(id);
  if (s.goals.empty()) return Eigen::Vector2d::Zero();
  const Relative rel = relative_position(s.state, s.goals.front());
  switch (world.object_model(id).kinematics.kind) {
    case KinematicsKind::kDiff:
      return diff_dash(world, id, rel, range);
    case KinematicsKind::kOmni:
    case KinematicsKind::kOmniAngular:  // forward and lateral as omni (OmniAngularDash)
      return omni_dash(world, id, rel, range);
    case KinematicsKind::kAcker:
      return acker_dash(world, id, rel, range);
    case KinematicsKind::kNone:
      break;
  }
  return Eigen::Vector2d::Zero();
}

}  // namespace ubot::detail
