// Scripted 6-DoF motion: interpolation properties against closed forms, and trajectory objects
// inside a world (mirrored planar state, arrival, 3D poses of planar objects).
#include "ubot/world/trajectory.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "ubot/core/angles.h"
#include "world_test_support.h"

namespace ubot {
namespace {

using testing_support::make_world;

WaypointModel waypoint(double t, Eigen::Vector3d p, Eigen::Vector3d rpy = Eigen::Vector3d::Zero()) {
  return {t, p, rpy};
}

double angle_between(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) {
  return rotation_angle(a.conjugate() * b);
}

TEST(Trajectory, CubicPassesThroughItsWaypointsAndRestsAtTheEnds) {
  TrajectoryModel m;
  m.waypoints = {waypoint(0.5, {0, 0, 1}, {0, 0, 0}), waypoint(1.5, {2, 1, 2}, {0.2, 0, 1}),
                 waypoint(2.0, {3, -1, 2}, {0, -0.3, 2}), waypoint(4.0, {0, 0, 0}, {0, 0, 0.5})};
  const Trajectory t(m);
  for (const WaypointModel& w : m.waypoints) {
    const Pose3d p = t.pose(w.t);
    EXPECT_LT((p.position - w.position).norm(), 1e-14) << w.t;
    EXPECT_LT(angle_between(p.orientation, rotation_from_rpy(w.rpy)), 1e-14) << w.t;
  }
  // Resting before the first and after the last waypoint, starting and stopping smoothly.
  EXPECT_EQ(t.pose(0.0).position, m.waypoints.front().position);
  EXPECT_EQ(t.pose(9.0).position, m.waypoints.back().position);
  EXPECT_LT(t.velocity(0.5 + 1e-12).norm(), 1e-10);
  EXPECT_LT(t.velocity(4.0 - 1e-12).norm(), 1e-10);
  EXPECT_EQ(t.velocity(0.2), Eigen::Vector3d::Zero());
  EXPECT_EQ(t.end_time(), 4.0);
}

TEST(Trajectory, CubicIsTwiceContinuouslyDifferentiable) {
  TrajectoryModel m;
  m.waypoints = {waypoint(0, {0, 0, 0}), waypoint(1, {1, 2, 0}), waypoint(1.7, {3, 2, 1}),
                 waypoint(3, {4, 0, 0})};
  const Trajectory t(m);
  for (double knot : {1.0, 1.7}) {
    const double e = 1e-9;
    // Across a knot the velocity and acceleration change only by O(e).
    EXPECT_LT((t.velocity(knot + e) - t.velocity(knot - e)).norm(), 1e-7) << knot;
    EXPECT_LT((t.acceleration(knot + e) - t.acceleration(knot - e)).norm(), 1e-7) << knot;
  }
  // velocity and acceleration are the derivatives of position (central differences, h = 1e-4:
  // truncation ~ h² |p'''| ≈ 1e-7).
  for (double s : {0.3, 1.2, 2.5}) {
    const double h = 1e-4;
    const Eigen::Vector3d dp = (t.pose(s + h).position - t.pose(s - h).position) / (2 * h);
    const Eigen::Vector3d ddp =
        (t.pose(s + h).position - 2 * t.pose(s).position + t.pose(s - h).position) / (h * h);
    EXPECT_LT((dp - t.velocity(s)).norm(), 1e-6) << s;
    EXPECT_LT((ddp - t.acceleration(s)).norm(), 1e-4) << s;
  }
}

TEST(Trajectory, TwoWaypointCubicIsTheSmoothstep) {
  // The clamped spline through two points with zero end velocities is p0 + Δp (3u² - 2u³).
  TrajectoryModel m;
  m.waypoints = {waypoint(1, {1, 2, 3}), waypoint(3, {5, 0, 3})};
  const Trajectory t(m);
  for (double s : {1.0, 1.3, 2.0, 2.9, 3.0}) {
    const double u = (s - 1) / 2;
    const Eigen::Vector3d expected =
        Eigen::Vector3d(1, 2, 3) + Eigen::Vector3d(4, -2, 0) * (3 * u * u - 2 * u * u * u);
    EXPECT_LT((t.pose(s).position - expected).norm(), 1e-14) << s;
  }
}

TEST(Trajectory, LinearMovesAtConstantVelocityAndRate) {
  TrajectoryModel m;
  m.interpolation = Interpolation::kLinear;
  m.waypoints = {waypoint(0, {0, 0, 0}, {0, 0, 0}), waypoint(2, {4, 2, -2}, {0, 0, 1})};
  const Trajectory t(m);
  for (double s : {0.1, 0.7, 1.9}) {
    EXPECT_LT((t.pose(s).position - Eigen::Vector3d(2, 1, -1) * s).norm(), 1e-15);
    EXPECT_LT((t.velocity(s) - Eigen::Vector3d(2, 1, -1)).norm(), 1e-15);
    EXPECT_EQ(t.acceleration(s), Eigen::Vector3d::Zero());
    EXPECT_NEAR(planar_yaw(t.pose(s).orientation), 0.5 * s, 1e-15);
    EXPECT_LT((t.angular_velocity(s) - Eigen::Vector3d(0, 0, 0.5)).norm(), 1e-15);
  }
}

TEST(Trajectory, SquadKeepsAConstantRateRotationExact) {
  // Evenly spaced waypoints of a rotation at a constant rate about a tilted axis: squad's control
  // points coincide with the waypoints, so every instant is exactly on the rotation.
  const Eigen::Vector3d axis = Eigen::Vector3d(1, -2, 3).normalized();
  const double rate = 0.8;
  TrajectoryModel m;
  for (int i = 0; i <= 4; ++i) {
    const Eigen::Quaterniond q(Eigen::AngleAxisd(rate * i, axis));
    const Eigen::Vector3d ypr = q.toRotationMatrix().eulerAngles(2, 1, 0);
    m.waypoints.push_back(waypoint(i, {0, 0, 0}, {ypr[2], ypr[1], ypr[0]}));
  }
  const Trajectory t(m);
  for (double s = 0.0; s <= 4.0; s += 0.13) {
    const Eigen::Quaterniond expected(Eigen::AngleAxisd(rate * s, axis));
    EXPECT_LT(angle_between(t.pose(s).orientation, expected), 1e-12) << s;
  }
  EXPECT_LT((t.angular_velocity(1.5) - rate * axis).norm(), 1e-8);
}

TEST(Trajectory, LoopRepeatsSmoothly) {
  TrajectoryModel m;
  m.loop = true;
  m.waypoints = {waypoint(1, {1, 0, 1}, {0, 0, 0}), waypoint(2, {0, 1, 1}, {0, 0, 1}),
                 waypoint(3, {-1, 0, 1}, {0, 0, 2}), waypoint(4, {0, -1, 1}, {0, 0, -2}),
                 waypoint(5, {1, 0, 1}, {0, 0, 0})};
  const Trajectory t(m);
  EXPECT_TRUE(std::isinf(t.end_time()));
  // Periodic spline: the velocity is continuous across the seam, and not zero there.
  EXPECT_LT((t.velocity(5 - 1e-9) - t.velocity(1 + 1e-9)).norm(), 1e-7);
  EXPECT_GT(t.velocity(1 + 1e-9).norm(), 0.5);
  for (double s : {1.25, 2.6, 4.9}) {
    EXPECT_LT((t.pose(s + 4).position - t.pose(s).position).norm(), 1e-12);
    EXPECT_LT(angle_between(t.pose(s + 8).orientation, t.pose(s).orientation), 1e-12);
  }
}

TEST(Trajectory, BallisticFlight) {
  TrajectoryModel m;
  m.ballistic = BallisticModel{{1, 2, 30}, {3, -1, 4}, {0.1, 0.2, 0.3}, {0, 0.5, 1}};
  const Trajectory t(m);
  for (double s : {0.0, 0.5, 2.0}) {
    const Eigen::Vector3d p(1 + 3 * s, 2 - s, 30 + 4 * s - 0.5 * kGravity * s * s);
    EXPECT_LT((t.pose(s).position - p).norm(), 1e-13);
    EXPECT_LT((t.velocity(s) - Eigen::Vector3d(3, -1, 4 - kGravity * s)).norm(), 1e-14);
    EXPECT_EQ(t.acceleration(s), Eigen::Vector3d(0, 0, -kGravity));
    // Constant body rate: R(s) = R0 exp(ω s).
    const Eigen::Quaterniond q =
        rotation_from_rpy(0.1, 0.2, 0.3) *
        Eigen::AngleAxisd(s * std::sqrt(1.25), Eigen::Vector3d(0, 0.5, 1).normalized());
    EXPECT_LT(angle_between(t.pose(s).orientation, q), 1e-14);
    EXPECT_LT((t.angular_velocity(s) - q * Eigen::Vector3d(0, 0.5, 1)).norm(), 1e-14);
  }
  EXPECT_EQ(kGravity, 9.81);
}

TEST(WorldPose3d, PlanarObjectsStandAtTheirHeightAndTilt) {
  World w = make_world(R"(
robot:
  - kinematics: {name: diff}
    state: [1, 2, 0.5]
    z: 0.7
    roll: 0.1
    pitch: -0.2
)");
  const Pose3d p = w.pose3d(0);
  EXPECT_EQ(p.position, Eigen::Vector3d(1, 2, 0.7));
  EXPECT_EQ(w.base_z(0), 0.7);
  EXPECT_LT(angle_between(p.orientation, rotation_from_rpy(0.1, -0.2, 0.5)), 1e-15);
  EXPECT_EQ(w.trajectory(0), nullptr);
}

TEST(WorldPose3d, TrajectoryObjectsAreMovedAndMirroredInThePlane) {
  World w = make_world(R"(
world: {step_time: 0.1}
robot:
  - shape: {name: circle, radius: 0.3}
    trajectory:
      interpolation: linear
      waypoints:
        - {t: 0, position: [0, 0, 1], rpy: [0, 0, 0]}
        - {t: 1, position: [2, 1, 1.5], rpy: [0.2, 0.1, 1]}
obstacle:
  - shape: {name: circle, radius: 0.3}
    state: [1.6, 0.8, 0]
)");
  ASSERT_NE(w.trajectory(0), nullptr);
  EXPECT_EQ(w.pose3d(0).position, Eigen::Vector3d(0, 0, 1));
  for (int k = 1; k <= 12; ++k) {
    w.step();
    const double t = std::min(0.1 * k, 1.0);
    // The world evaluates the trajectory at its exact (integer-nanosecond) time.
    const Pose3d expected = w.trajectory(0)->pose(nanos_to_seconds(w.time_ns()));
    EXPECT_LT((w.pose3d(0).position - expected.position).norm(), 1e-15);
    EXPECT_LT((w.pose3d(0).position - Eigen::Vector3d(2 * t, t, 1 + 0.5 * t)).norm(), 1e-12);
    const std::vector<double>& s = w.object(0).state;
    EXPECT_EQ(s[0], expected.position.x());
    EXPECT_EQ(s[1], expected.position.y());
    EXPECT_NEAR(s[2], planar_yaw(expected.orientation), 1e-15);
    // Done when the trajectory has ended (so `ubot run` can stop).
    EXPECT_EQ(w.object(0).arrive, k >= 10) << k;
    EXPECT_FALSE(w.object(0).stop);  // collides with the obstacle near the end, keeps going
  }
  EXPECT_TRUE(w.object(0).collision);
  EXPECT_TRUE(w.done());
  // World-frame planar velocity for others (RVO, FMCW lidars); zero once it rests.
  EXPECT_EQ(w.velocity_xy(0), Eigen::Vector2d::Zero());
}

TEST(WorldPose3d, TrajectoryVelocityIsReportedWhileMoving) {
  World w = make_world(R"(
obstacle:
  - trajectory: {ballistic: {position: [0, 0, 5], velocity: [2, 1, 0], angular_velocity: [0, 0, 0.5]}}
)");
  w.step();
  EXPECT_LT((w.velocity_xy(0) - Eigen::Vector2d(2, 1)).norm(), 1e-15);
  EXPECT_NEAR(w.angular_velocity(0), 0.5, 1e-15);
  EXPECT_NEAR(w.pose3d(0).position.z(), 5 - 0.5 * kGravity * 0.01, 1e-15);
  EXPECT_EQ(w.base_z(0), w.pose3d(0).position.z());
}

}  // namespace
}  // namespace ubot
