// IR-SIM's omni_angular kinematics and dash, and compound shapes in collisions, against values
// worked out by hand (issue 13).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "world_test_support.h"

namespace ubot {
namespace {

using testing_support::make_world;

constexpr double kEps = 1e-12;

TEST(OmniAngular, DashDrivesStrafesAndTurnsTowardsTheGoal) {
  World w = make_world(R"(
robot:
  - kinematics: {name: omni_angular}
    state: [0, 0, 0]
    goal: [1, 1, 0]
    behavior: {name: dash}
)");
  w.step();
  // Bearing pi/4 from heading 0: forward cos, lateral sin (vel_max [1, 1, 1]); turning at 1 rad/s.
  const double c = std::cos(std::numbers::pi / 4);
  EXPECT_NEAR(w.object(0).velocity.x(), c, kEps);
  EXPECT_NEAR(w.object(0).velocity.y(), c, kEps);
  EXPECT_EQ(w.object(0).yaw_rate, 1.0);
  EXPECT_EQ(w.angular_velocity(0), 1.0);
  EXPECT_NEAR(w.object(0).state[0], 0.1 * c, kEps);
  EXPECT_NEAR(w.object(0).state[1], 0.1 * c, kEps);
  EXPECT_NEAR(w.object(0).state[2], 0.1, kEps);
}

TEST(OmniAngular, AtTheGoalItTurnsToTheGoalHeadingWithinTheTolerance) {
  World w = make_world(R"(
robot:
  - kinematics: {name: omni_angular}
    state: [1, 1, 0]
    goal: [1, 1, 1.0]
    goal_threshold: 0.1
    behavior: {name: dash, angle_tolerance: 0.1}
)");
  // 0.1 rad a step until the error is within 0.1 rad: after 9 steps the heading is 0.9.
  for (int k = 0; k < 20; ++k) w.step();
  EXPECT_NEAR(w.object(0).state[2], 0.9, 1e-9);
  EXPECT_EQ(w.object(0).state[0], 1.0);
  EXPECT_EQ(w.object(0).yaw_rate, 0.0);
}

TEST(OmniAngular, TheYawRateKeepsItsLimits) {
  World w = make_world(R"(
robot:
  - kinematics: {name: omni_angular}
    state: [0, 0, 0]
    goal: [0, 5, 0]
    vel_max: [1, 1, 0.5]
    vel_min: [-1, -1, -0.5]
    acce: [.inf, .inf, 2]
    behavior: {name: dash}
)");
  w.step();
  EXPECT_NEAR(w.object(0).yaw_rate, 0.2, kEps);  // acce 2 rad/s² x 0.1 s from rest
  w.step();
  EXPECT_NEAR(w.object(0).yaw_rate, 0.4, kEps);
  w.step();
  EXPECT_NEAR(w.object(0).yaw_rate, 0.5, kEps);  // vel_max[2]
}

// An L of two rectangles (IR-SIM's robot_compound_world) and a small disc in the notch the L's
// convex hull covers: only a disc that reaches a part collides.
std::string compound_with_disc_at(double x, double y) {
  return R"(
world: {collision_mode: stop}
robot:
  - shape:
      name: compound
      parts:
        - {name: rectangle, length: 0.8, width: 0.3}
        - {name: rectangle, length: 0.3, width: 0.8, pose: [-0.25, 0.3, 0]}
    state: [0, 0, 0]
obstacle:
  - shape: {name: circle, radius: 0.05}
    state: [)" +
         std::to_string(x) + ", " + std::to_string(y) + ", 0]\n";
}

TEST(Compound, CollidesWithItsPartsNotWithTheirHull) {
  World in_notch = make_world(compound_with_disc_at(0.2, 0.3));  // inside the hull only
  in_notch.step();
  EXPECT_FALSE(in_notch.object(0).collision);
  World on_part = make_world(compound_with_disc_at(0.2, 0.18));  // 0.13 < 0.15: first part
  on_part.step();
  EXPECT_TRUE(on_part.object(0).collision);
  World on_second = make_world(compound_with_disc_at(-0.05, 0.6));  // 0.05 from x = -0.1
  on_second.step();
  EXPECT_TRUE(on_second.object(0).collision);
}

TEST(Compound, FieldsOfViewSeeItsPartsNotTheirHull) {
  // An observer at the notch looking away from the parts sees nothing of them.
  World w = make_world(R"(
robot:
  - shape: {name: circle, radius: 0.01}
    state: [0.2, 0.3, 0.785]
    fov: 0.2
    fov_radius: 0.3
obstacle:
  - shape:
      name: compound
      parts:
        - {name: rectangle, length: 0.8, width: 0.3}
        - {name: rectangle, length: 0.3, width: 0.8, pose: [-0.25, 0.3, 0]}
    state: [0, 0, 0]
)");
  EXPECT_FALSE(w.fov_detect_object(0, 1));
  World facing = make_world(R"(
robot:
  - shape: {name: circle, radius: 0.01}
    state: [0.2, 0.3, -1.5708]
    fov: 0.2
    fov_radius: 0.3
obstacle:
  - shape:
      name: compound
      parts:
        - {name: rectangle, length: 0.8, width: 0.3}
        - {name: rectangle, length: 0.3, width: 0.8, pose: [-0.25, 0.3, 0]}
    state: [0, 0, 0]
)");
  EXPECT_TRUE(facing.fov_detect_object(0, 1));  // looking down at the first part, 0.15 away
}

}  // namespace
}  // namespace ubot
