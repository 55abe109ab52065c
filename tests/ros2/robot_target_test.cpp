// cmd_vel -> World command for each kinematics, limits, and a robot that cannot move.
#include "ubot/ros2/robot_target.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace ubot::ros2 {
namespace {

ObjectModel robot(KinematicsKind kind) {
  ObjectModel o;
  o.name = "robot_0";
  o.role = Role::kRobot;
  o.kinematics.kind = kind;
  o.kinematics.wheelbase = 2.0;
  o.vel_min = {-1.0, -0.5};
  o.vel_max = {1.0, 0.5};
  o.state = {0, 0, 0, 0};
  return o;
}

Twist twist(double vx, double vy, double wz) {
  Twist t;
  t.linear.x = vx;
  t.linear.y = vy;
  t.angular.z = wz;
  return t;
}

ObjectState state_with_steer(double steer) {
  ObjectState s;
  s.state = {0, 0, 0, steer};
  return s;
}

TEST(RobotTwistTarget, DiffTakesForwardSpeedAndYawRate) {
  const ObjectModel o = robot(KinematicsKind::kDiff);
  RobotTwistTarget t(o);
  EXPECT_FALSE(t.step_command(state_with_steer(0), 0.1).has_value());
  EXPECT_EQ(t.command(twist(0.8, 0.3, -0.25)), "");  // linear.y is not used by diff
  const Command c = t.step_command(state_with_steer(0), 0.1);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(*c, Eigen::Vector2d(0.8, -0.25));
  t.release();
  EXPECT_FALSE(t.engaged());
  EXPECT_FALSE(t.step_command(state_with_steer(0), 0.1).has_value());
}

TEST(RobotTwistTarget, OmniTakesBodyVelocity) {
  const ObjectModel o = robot(KinematicsKind::kOmni);
  RobotTwistTarget t(o);
  EXPECT_EQ(t.command(twist(0.5, -0.4, 3.0)), "");  // angular.z ignored (omni does not turn)
  EXPECT_EQ(*t.step_command(state_with_steer(0), 0.1), Eigen::Vector2d(0.5, -0.4));
}

TEST(RobotTwistTarget, AckerSteerGivesTheCommandedYawRate) {
  const ObjectModel o = robot(KinematicsKind::kAcker);
  RobotTwistTarget t(o);
  EXPECT_EQ(t.command(twist(1.0, 0, 0.2)), "");
  const Command c = t.step_command(state_with_steer(0), 0.1);
  const double steer = std::atan(0.2 * 2.0 / 1.0);
  EXPECT_DOUBLE_EQ((*c)[0], 1.0);
  EXPECT_DOUBLE_EQ((*c)[1], steer);
  // v tan(steer) / L is the commanded yaw rate.
  EXPECT_NEAR(1.0 * std::tan((*c)[1]) / 2.0, 0.2, 1e-15);
  // Reverse: the same yaw rate needs the opposite steer.
  EXPECT_EQ(t.command(twist(-0.5, 0, 0.1)), "");
  EXPECT_DOUBLE_EQ((*t.step_command(state_with_steer(0), 0.1))[1], std::atan(0.1 * 2.0 / -0.5));
  // Beyond the steer limit: clamped to it. No speed: straight, or full lock (clamped).
  EXPECT_EQ(t.command(twist(0.1, 0, 1.0)), "");
  EXPECT_DOUBLE_EQ((*t.step_command(state_with_steer(0), 0.1))[1], 0.5);
  EXPECT_EQ(t.command(twist(0.0, 0, 0.0)), "");
  EXPECT_DOUBLE_EQ((*t.step_command(state_with_steer(0), 0.1))[1], 0.0);
  EXPECT_EQ(t.command(twist(0.0, 0, -1.0)), "");
  EXPECT_DOUBLE_EQ((*t.step_command(state_with_steer(0), 0.1))[1], -0.5);
}

TEST(RobotTwistTarget, AckerAngularModeCommandsTheSteerRateToReachTheSteer) {
  ObjectModel o = robot(KinematicsKind::kAcker);
  o.kinematics.acker_steer_mode = false;
  RobotTwistTarget t(o);
  EXPECT_EQ(t.command(twist(1.0, 0, 0.2)), "");
  const double steer = std::atan(0.4);
  EXPECT_DOUBLE_EQ((*t.step_command(state_with_steer(0.1), 0.1))[1], (steer - 0.1) / 0.1);
  EXPECT_DOUBLE_EQ((*t.step_command(state_with_steer(steer), 0.1))[1], 0.0);
}

TEST(RobotTwistTarget, CommandsBeyondTheLimitsAreRefused) {
  const ObjectModel diff = robot(KinematicsKind::kDiff);
  RobotTwistTarget t(diff);
  EXPECT_EQ(t.command(twist(1.5, 0, 0)), "robot_0: linear.x = 1.5 is beyond the limits [-1, 1]");
  EXPECT_EQ(t.command(twist(0.5, 0, -0.6)),
            "robot_0: angular.z = -0.6 is beyond the limits [-0.5, 0.5]");
  EXPECT_FALSE(t.engaged());
  EXPECT_EQ(t.command(twist(1.0, 0, -0.5)), "");  // the limits themselves are allowed
  const ObjectModel omni = robot(KinematicsKind::kOmni);
  RobotTwistTarget u(omni);
  EXPECT_EQ(u.command(twist(0, 0.7, 0)),
            "robot_0: linear.y = 0.7 is beyond the limits [-0.5, 0.5]");
}

TEST(RobotTwistTarget, OmniAngularRobotIsRefused) {
  // A Command has two components; omni_angular needs a third (its yaw rate).
  const ObjectModel o = robot(KinematicsKind::kOmniAngular);
  RobotTwistTarget t(o);
  EXPECT_EQ(t.command(twist(0.1, 0, 0)),
            "robot_0: omni_angular robots cannot be driven over ROS 2 yet");
  EXPECT_FALSE(t.engaged());
}

TEST(RobotTwistTarget, StaticRobotRefusesEveryCommand) {
  ObjectModel o = robot(KinematicsKind::kDiff);
  o.is_static = true;
  RobotTwistTarget t(o);
  EXPECT_EQ(t.command(twist(0, 0, 0)), "robot_0 cannot be driven (static or without kinematics)");
  const ObjectModel none = robot(KinematicsKind::kNone);
  RobotTwistTarget u(none);
  EXPECT_NE(u.command(twist(0, 0, 0)), "");
}

}  // namespace
}  // namespace ubot::ros2
