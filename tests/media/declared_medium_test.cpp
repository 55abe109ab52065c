// Media declared in the world file: keyframes over time and media attached to moving objects.
#include <gtest/gtest.h>

#include <cmath>

#include "ubot/config/load_world.h"
#include "ubot/media/provider.h"
#include "ubot/world/world.h"

namespace ubot::media {
namespace {

MediumModel keyframed(bool loop) {
  MediumModel m;
  m.cells.push_back({{1, 2, 0.5}, 2.0, 0.8, 1.0});
  m.keyframes = {
      {.t = 2.0, .position_offset = {0, 0, 0}},
      {.t = 6.0, .position_offset = {8, -4, 2}, .radius_scale = 0.5, .density_scale = 0.25},
      {.t = 10.0, .position_offset = {8, 4, 0}, .radius_scale = 1.5, .density_scale = 2.0}};
  m.loop = loop;
  return m;
}

TEST(Keyframes, LinearBetweenHeldOutside) {
  const MediumModel m = keyframed(false);
  auto at = [&](double t) { return evaluate_keyframes(m, t); };
  EXPECT_EQ(at(0.0).value.position_offset, Eigen::Vector3d::Zero());  // before the first: held
  EXPECT_EQ(at(0.0).offset_rate, Eigen::Vector3d::Zero());
  const KeyframeState mid = at(3.0);  // a quarter of the way from t = 2 to t = 6
  EXPECT_TRUE(mid.value.position_offset.isApprox(Eigen::Vector3d(2, -1, 0.5), 1e-15));
  EXPECT_DOUBLE_EQ(mid.value.radius_scale, 1.0 - 0.25 * 0.5);
  EXPECT_DOUBLE_EQ(mid.value.density_scale, 1.0 - 0.25 * 0.75);
  EXPECT_TRUE(mid.offset_rate.isApprox(Eigen::Vector3d(2, -1, 0.5), 1e-15));      // (8,-4,2) / 4 s
  EXPECT_TRUE(at(6.0).offset_rate.isApprox(Eigen::Vector3d(0, 2, -0.5), 1e-15));  // next segment
  EXPECT_TRUE(at(8.0).value.position_offset.isApprox(Eigen::Vector3d(8, 0, 1), 1e-15));
  EXPECT_EQ(at(10.0).value.position_offset, Eigen::Vector3d(8, 4, 0));
  EXPECT_EQ(at(25.0).value.radius_scale, 1.5);  // after the last: held, still
  EXPECT_EQ(at(25.0).offset_rate, Eigen::Vector3d::Zero());
}

TEST(Keyframes, LoopRepeatsTheSpanOfTheKeyframes) {
  const MediumModel m = keyframed(true);
  for (double t : {3.0, 5.5, 8.25}) {
    const KeyframeState a = evaluate_keyframes(m, t), b = evaluate_keyframes(m, t + 8.0),
                        c = evaluate_keyframes(m, t + 80.0);
    EXPECT_TRUE(b.value.position_offset.isApprox(a.value.position_offset, 1e-12)) << t;
    EXPECT_TRUE(c.value.position_offset.isApprox(a.value.position_offset, 1e-12)) << t;
    EXPECT_NEAR(c.value.radius_scale, a.value.radius_scale, 1e-12);
  }
  EXPECT_EQ(evaluate_keyframes(m, 1.0).value.position_offset, Eigen::Vector3d::Zero());
}

TEST(DeclaredMedium, SnapshotScalesDensityAndRadiusAndDrifts) {
  const WorldModel wm = load_world_from_string("world: {step_time: 0.1}\n", "w.yaml");
  const World world(wm);
  MediumModel m = keyframed(false);
  m.name = "cloud";
  m.tint = {0.1, 0.2, 0.3};
  DeclaredMedium medium(m);
  MediumSnapshot s;
  ASSERT_TRUE(medium.snapshot({seconds_to_nanos(3.0), world}, s));
  EXPECT_EQ(s.name, "cloud");
  EXPECT_EQ(s.tint.b, 0.3);
  EXPECT_EQ(s.source_object, -1);
  ASSERT_EQ(s.cells.size(), 1u);
  EXPECT_TRUE(s.cells[0].position.isApprox(Eigen::Vector3d(3, 1, 1.0), 1e-15));
  EXPECT_DOUBLE_EQ(s.cells[0].radius, 2.0 * 0.875);
  EXPECT_DOUBLE_EQ(s.cells[0].density, 0.8 * 0.8125);
  EXPECT_TRUE(s.cells[0].velocity.isApprox(Eigen::Vector3d(2, -1, 0.5), 1e-15));
  // Density scaled above 1 is kept at 1.
  ASSERT_TRUE(medium.snapshot({seconds_to_nanos(10.0), world}, s));
  EXPECT_EQ(s.cells[0].density, 1.0);
  // An inactive declared medium still answers, with active = false (sensors ignore it).
  m.active = false;
  DeclaredMedium off(m);
  ASSERT_TRUE(off.snapshot({0, world}, s));
  EXPECT_FALSE(s.usable());
}

TEST(DeclaredMedium, AttachedCellsRideTheObjectsBodyFrame) {
  // A robot turning on the spot (w = 1 rad/s) at (2, 3), base height 0.5, carrying a cell 1 m
  // ahead and 0.2 m up; the cell also drifts forward in the body frame at 0.5 m/s.
  WorldModel wm = load_world_from_string(R"(
robot:
  - kinematics: {name: diff}
    state: [2, 3, 0]
    z: 0.5
    velocity: [0, 1]
    vel_min: [0, 1]
    vel_max: [0, 1]
    behavior: {name: dash}
    goal: [2, 3, 0]
    goal_threshold: 0
media:
  - attach: robot_0
    cells: [{position: [1, 0, 0.2], radius: 0.5, density: 0.9}]
    keyframes: [{t: 0}, {t: 100, position_offset: [50, 0, 0]}]
)",
                                         "w.yaml");
  ASSERT_EQ((*wm.media)[0].attach, 0);
  World world(wm);
  DeclaredMedium medium((*wm.media)[0]);
  EXPECT_EQ(medium.source_object(), 0);
  MediumSnapshot s;
  for (int k = 0; k < 5; ++k) world.step();
  const double yaw = world.object(0).state[2];
  ASSERT_NEAR(yaw, 0.5, 1e-12);
  ASSERT_EQ(world.angular_velocity(0), 1.0);
  ASSERT_TRUE(medium.snapshot({world.time_ns(), world}, s));
  EXPECT_EQ(s.source_object, 0);
  const double ahead = 1.0 + 0.5 * 0.5;  // 1 m + 0.5 m/s x 0.5 s
  EXPECT_NEAR(s.cells[0].position.x(), 2 + ahead * std::cos(yaw), 1e-12);
  EXPECT_NEAR(s.cells[0].position.y(), 3 + ahead * std::sin(yaw), 1e-12);
  EXPECT_NEAR(s.cells[0].position.z(), 0.7, 1e-15);
  // w x r (turning about the robot) plus the drift turned into the world.
  const Eigen::Vector2d expected = ahead * Eigen::Vector2d(-std::sin(yaw), std::cos(yaw)) +
                                   0.5 * Eigen::Vector2d(std::cos(yaw), std::sin(yaw));
  EXPECT_NEAR(s.cells[0].velocity.x(), expected.x(), 1e-12);
  EXPECT_NEAR(s.cells[0].velocity.y(), expected.y(), 1e-12);
}

TEST(DeclaredMedium, AttachedCellsRiseWithATrajectory) {
  // An object climbing at 1 m/s along a scripted trajectory carries its cell 0.2 m above it.
  WorldModel wm = load_world_from_string(R"(
world: {step_time: 0.1}
obstacle:
  - trajectory:
      interpolation: linear
      waypoints: [{t: 0, position: [1, 2, 0]}, {t: 10, position: [1, 2, 10]}]
media:
  - attach: obstacle_0
    cells: [{position: [0, 0, 0.2], radius: 0.5, density: 0.9}]
)",
                                         "w.yaml");
  World world(wm);
  DeclaredMedium medium((*wm.media)[0]);
  for (int k = 0; k < 30; ++k) world.step();
  MediumSnapshot s;
  ASSERT_TRUE(medium.snapshot({world.time_ns(), world}, s));
  EXPECT_NEAR(s.cells[0].position.z(), 3.0 + 0.2, 1e-9);
  EXPECT_NEAR(s.cells[0].position.x(), 1.0, 1e-12);
}

}  // namespace
}  // namespace ubot::media
