#include "ubot/ros2/robot_target.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace ubot::ros2 {
namespace {

std::string check(const ObjectModel& o, int k, const char* field, double value) {
  if (value >= o.vel_min[k] && value <= o.vel_max[k]) return "";
  return fmt::format("{}: {} = {} is beyond the limits [{}, {}]", o.name, field, value,
                     o.vel_min[k], o.vel_max[k]);
}

double acker_steer(const ObjectModel& o, const Twist& t) {
  const double v = t.linear.x, w = t.angular.z;
  double steer = 0.0;
  if (v != 0.0) {
    steer = std::atan(w * o.kinematics.wheelbase / v);
  } else if (w != 0.0) {
    steer = std::copysign(std::numbers::pi / 2.0, w);
  }
  if (o.kinematics.acker_steer_mode) steer = std::clamp(steer, o.vel_min[1], o.vel_max[1]);
  return steer;
}

}  // namespace

std::string RobotTwistTarget::command(const Twist& twist) {
  const ObjectModel& o = object_;
  if (o.is_static || o.kinematics.kind == KinematicsKind::kNone) {
    return fmt::format("{} cannot be driven (static or without kinematics)", o.name);
  }
  if (o.kinematics.kind == KinematicsKind::kOmniAngular) {
    // A Command carries two components; omni_angular needs its yaw rate as a third.
    return fmt::format("{}: omni_angular robots cannot be driven over ROS 2 yet", o.name);
  }
  std::string error = check(o, 0, "linear.x", twist.linear.x);
  if (error.empty() && o.kinematics.kind == KinematicsKind::kDiff) {
    error = check(o, 1, "angular.z", twist.angular.z);
  }
  if (error.empty() && o.kinematics.kind == KinematicsKind::kOmni) {
    error = check(o, 1, "linear.y", twist.linear.y);
  }
  if (!error.empty()) return error;
  twist_ = twist;
  return "";
}

Command RobotTwistTarget::step_command(const ObjectState& state, double step_time) const {
  if (!twist_) return std::nullopt;
  const Twist& t = *twist_;
  switch (object_.kinematics.kind) {
    case KinematicsKind::kDiff:
      return Eigen::Vector2d(t.linear.x, t.angular.z);
    case KinematicsKind::kOmni:
      return Eigen::Vector2d(t.linear.x, t.linear.y);
    case KinematicsKind::kAcker: {
      const double steer = acker_steer(object_, t);
      if (object_.kinematics.acker_steer_mode) return Eigen::Vector2d(t.linear.x, steer);
      return Eigen::Vector2d(t.linear.x, (steer - state.state[3]) / step_time);
    }
    case KinematicsKind::kOmniAngular:  // refused by command()
    case KinematicsKind::kNone:
      break;
  }
  return std::nullopt;
}

}  // namespace ubot::ros2
