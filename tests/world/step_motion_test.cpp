// The pose of an object at an instant inside a step (World::pose3d_at, StepMotion): exact at both
// ends of the step, the constant-twist arc in between, at rest when the world did not move it
// (static, stopped after a collision), and the trajectory itself for scripted objects.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "ubot/core/error.h"
#include "ubot/world/step_motion.h"
#include "ubot/world/world.h"
#include "world_test_support.h"

namespace ubot {
namespace {

using testing_support::make_world;

constexpr Nanos kStep = 100'000'000;  // step_time 0.1

void expect_same(const Pose3d& a, const Pose3d& b, const std::string& what) {
  EXPECT_EQ(a.position, b.position) << what;
  EXPECT_EQ(a.orientation.coeffs(), b.orientation.coeffs()) << what;
}

// Three robots that keep moving (collisions only set flags), and a static obstacle.
const char* kRobots = R"(
world: {step_time: 0.1, collision_mode: unobstructed}
robot:
  - kinematics: {name: diff}
    state: [1, 2, 3.0]
    vel_max: [5, 5]
    acce: [100, 100]
    z: 0.2
    roll: 0.1
  - kinematics: {name: omni}
    state: [0, 0, 0.5]
    vel_min: [-5, -5]
    vel_max: [5, 5]
    acce: [100, 100]
  - kinematics: {name: acker, wheelbase: 2}
    state: [0, 5, -3.0, 0.2]
    vel_max: [5, 1]
    acce: [100, 100]
obstacle:
  - state: [9, 9, 0]
    static: true
)";

TEST(StepMotion, ExactAtBothEndsOfEveryStep) {
  World w = make_world(kRobots);
  const std::vector<Command> commands = {Eigen::Vector2d(1.0, 2.0), Eigen::Vector2d(0.7, -0.4),
                                         Eigen::Vector2d(1.5, 0.5)};
  for (int id = 0; id < 4; ++id) expect_same(w.pose3d_at(id, 0), w.pose3d(id), "before");
  for (int k = 0; k < 40; ++k) {  // headings wrap through ±π
    std::vector<Pose3d> before;
    for (int id = 0; id < 4; ++id) before.push_back(w.pose3d(id));
    w.step(commands);
    for (int id = 0; id < 4; ++id) {
      const std::string what = "object " + std::to_string(id) + " step " + std::to_string(k);
      expect_same(w.pose3d_at(id, w.time_ns()), w.pose3d(id), what + " end");
      expect_same(w.pose3d_at(id, w.time_ns() - kStep), before[id], what + " start");
      // Just inside the ends, the pose is next to them (continuity).
      const Pose3d early = w.pose3d_at(id, w.time_ns() - kStep + 1);
      const Pose3d late = w.pose3d_at(id, w.time_ns() - 1);
      EXPECT_LT((early.position - before[id].position).norm(), 1e-7) << what;
      EXPECT_LT((late.position - w.pose3d(id).position).norm(), 1e-7) << what;
    }
  }
}

// Diff at (v, w): the step ends lie on a circle of radius R = vΔt / (2 sin(wΔt/2)); inside a step
// the body stays on it, at constant speed, its heading turning at w.
TEST(StepMotion, DiffMovesOnTheCircleThroughTheEulerSteps) {
  World w = make_world(kRobots);
  const double v = 1.0, rate = 2.0, dt = 0.1;
  const double radius = v * dt / (2.0 * std::sin(rate * dt / 2.0));
  const std::vector<Command> commands = {Eigen::Vector2d(v, rate)};
  // The centre: from the first vertex, perpendicular to the first chord, at the chord's middle.
  w.step(commands);
  const Eigen::Vector2d p0(1, 2), p1 = w.pose3d(0).position.head<2>();
  const Eigen::Vector2d chord = p1 - p0, mid = 0.5 * (p0 + p1);
  const Eigen::Vector2d normal = Eigen::Vector2d(-chord.y(), chord.x()).normalized();
  const Eigen::Vector2d centre =
      mid + std::sqrt(radius * radius - chord.squaredNorm() / 4) * normal;
  for (int k = 1; k < 30; ++k) {
    w.step(commands);
    const Nanos start = w.time_ns() - kStep;
    const double yaw0 = 3.0 + rate * dt * k;
    for (Nanos t = start; t <= w.time_ns(); t += 5'000'000) {
      const Pose3d p = w.pose3d_at(0, t);
      EXPECT_NEAR((p.position.head<2>() - centre).norm(), radius, 1e-12);
      EXPECT_EQ(p.position.z(), 0.2);
      const double yaw = yaw0 + rate * nanos_to_seconds(t - start);
      const Eigen::Quaterniond expected =
          rotation_from_rpy(0.0, 0.0, yaw) * rotation_from_rpy(0.1, 0, 0);
      EXPECT_LT(rotation_angle(p.orientation.conjugate() * expected), 1e-12);
    }
  }
}

TEST(StepMotion, OmniMovesOnTheStraightLine) {
  World w = make_world(kRobots);
  const std::vector<Command> commands = {std::nullopt, Eigen::Vector2d(0.7, -0.4)};
  const double c = std::cos(0.5), s = std::sin(0.5);
  const Eigen::Vector2d velocity(0.7 * c + 0.4 * s, 0.7 * s - 0.4 * c);
  for (int k = 0; k < 5; ++k) w.step(commands);
  for (Nanos t = 4 * kStep; t <= 5 * kStep; t += 1'000'000) {
    const Eigen::Vector2d expected = velocity * nanos_to_seconds(t);
    EXPECT_LT((w.pose3d_at(1, t).position.head<2>() - expected).norm(), 1e-14);
  }
}

// A collision never cuts a step short: the step that ends overlapping moved the robot the whole
// way (pre -> post state); from the next step it is stopped and rests at every instant.
TEST(StepMotion, CollisionStepMovesThenTheStoppedRobotRests) {
  World w = make_world(R"(
world: {collision_mode: stop}
robot:
  - kinematics: {name: diff}
    shape: {name: circle, radius: 0.5}
    state: [0, 0, 0]
    goal: [10, 0, 0]
    behavior: {name: dash}
obstacle:
  - shape: {name: circle, radius: 1.0}
    state: [3.05, 0, 0]
)");
  for (int k = 1; k <= 16; ++k) w.step();
  ASSERT_TRUE(w.object(0).stop);
  // Step 16 took the robot from x = 1.5 to 1.6 (dash at 1 m/s).
  EXPECT_NEAR(w.pose3d_at(0, w.time_ns() - kStep / 2).position.x(), 1.55, 1e-12);
  w.step();
  for (Nanos t = w.time_ns() - kStep; t <= w.time_ns(); t += 10'000'000) {
    expect_same(w.pose3d_at(0, t), w.pose3d(0), "stopped at " + std::to_string(t));
  }
}

TEST(StepMotion, StaticAndScriptedObjects) {
  World w = make_world(R"(
world: {step_time: 0.1}
obstacle:
  - state: [9, 9, 1]
    static: true
  - trajectory:
      ballistic: {position: [0, 0, 10], velocity: [1, 2, 3]}
)");
  for (int k = 0; k < 3; ++k) w.step();
  const Trajectory& flight = *w.trajectory(1);
  for (Nanos t = 2 * kStep; t <= 3 * kStep; t += 7'000'000) {
    expect_same(w.pose3d_at(0, t), w.pose3d(0), "static");
    expect_same(w.pose3d_at(1, t), flight.pose(nanos_to_seconds(t)), "trajectory");
  }
  expect_same(w.pose3d_at(1, w.time_ns()), w.pose3d(1), "trajectory end");
}

// The twist inverts the SE(2) exponential: a body carried by body velocity (vx, vy) and yaw rate
// w for one unit of time, from any start, is back at the given end pose.
TEST(StepMotion, ConstantTwistBetweenAnyTwoPoses) {
  const double turn = 2.5, vx = 0.8, vy = -0.3, yaw0 = -2.9;
  const double x1 = 1 + (vx * std::sin(turn) - vy * (1 - std::cos(turn))) / turn;  // yaw0 = 0
  const double y1 = 2 + (vx * (1 - std::cos(turn)) + vy * std::sin(turn)) / turn;
  // Rotate that body-frame displacement by yaw0 for the world.
  const Eigen::Rotation2Dd r0(yaw0);
  const Eigen::Vector2d end = Eigen::Vector2d(1, 2) + r0 * Eigen::Vector2d(x1 - 1, y1 - 2);
  const StepMotion m(1, 2, yaw0, end.x(), end.y(), yaw0 + turn - 2 * std::numbers::pi);
  for (double s : {0.25, 0.5, 1.0}) {
    Eigen::Vector2d p;
    Eigen::Quaterniond q;
    m.at(s, p, q);
    const double a = s * turn;
    const Eigen::Vector2d d((vx * std::sin(a) - vy * (1 - std::cos(a))) / turn,
                            (vx * (1 - std::cos(a)) + vy * std::sin(a)) / turn);
    EXPECT_LT((p - (Eigen::Vector2d(1, 2) + r0 * d)).norm(), 1e-14) << s;
    EXPECT_LT(rotation_angle(q.conjugate() * rotation_from_rpy(0, 0, yaw0 + a)), 1e-14) << s;
  }
}

// Only tracked objects' motion within a step is made: an untracked one's pose3d_at() is refused
// (not a stale answer), and tracking started later begins at rest at the current pose, then
// follows the steps as if it had always been on.
TEST(StepMotion, OnlyTrackedObjectsHaveAMotionWithinTheStep) {
  World tracked_all = make_world(kRobots);
  World w = make_world(kRobots);
  w.track_motion_within_steps({false, true, false, false});
  const std::vector<Command> commands = {Eigen::Vector2d(1.0, 2.0), Eigen::Vector2d(0.7, -0.4),
                                         Eigen::Vector2d(1.5, 0.5)};
  for (int k = 0; k < 3; ++k) {
    w.step(commands);
    tracked_all.step(commands);
  }
  const Nanos mid = w.time_ns() - kStep / 2;
  EXPECT_THROW(w.pose3d_at(0, mid), Error);
  EXPECT_THROW(w.pose3d_at(3, mid), Error);
  expect_same(w.pose3d_at(1, mid), tracked_all.pose3d_at(1, mid), "tracked");
  expect_same(w.pose3d(0), tracked_all.pose3d(0), "the step itself is unchanged");
  w.track_motion_within_steps({true, true, false, false});
  expect_same(w.pose3d_at(0, mid), w.pose3d(0), "just tracked: at rest");
  w.step(commands);
  tracked_all.step(commands);
  expect_same(w.pose3d_at(0, w.time_ns() - kStep / 3),
              tracked_all.pose3d_at(0, tracked_all.time_ns() - kStep / 3), "then as always");
  EXPECT_THROW(w.track_motion_within_steps({true}), Error);
}

}  // namespace
}  // namespace ubot
