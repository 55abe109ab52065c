#pragma once
// A robot as the target of cmd_vel: geometry_msgs/Twist becomes the World Command of its
// kinematics (body-frame twist, REP 103):
//   diff  [v, ω]   = [linear.x, angular.z]
//   omni  [vx, vy] = [linear.x, linear.y]          (omni robots do not turn: angular.z ignored)
//   acker [v, δ]   = [linear.x, atan(angular.z · L / linear.x)]   (L: wheelbase; the steer angle
//                    that gives yaw rate ω at speed v; v = 0: ±π/2 by the sign of ω, 0 for ω = 0;
//                    clamped to the steer limits). In acker `mode: angular` the steer rate that
//                    reaches δ in one step is commanded instead.
// The commanded components (v, ω / vx, vy / v) must lie within vel_min..vel_max, else the command
// is refused; components the kinematics does not use are ignored. A static object (or one
// without kinematics) refuses every command.
#include <optional>
#include <string>

#include "ubot/config/world_model.h"
#include "ubot/ros2/command_receiver.h"
#include "ubot/world/world.h"

namespace ubot::ros2 {

class RobotTwistTarget final : public TwistTarget {
 public:
  explicit RobotTwistTarget(const ObjectModel& object) : object_(object) {}

  std::string command(const Twist& twist) override;
  void release() override { twist_.reset(); }

  bool engaged() const { return twist_.has_value(); }
  // The World command for the next step (unset when released: the behaviour drives).
  Command step_command(const ObjectState& state, double step_time) const;

 private:
  const ObjectModel& object_;
  std::optional<Twist> twist_;
};

}  // namespace ubot::ros2
