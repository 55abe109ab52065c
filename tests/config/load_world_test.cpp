#include "ubot/config/load_world.h"
#include "ubot/viz/plot_config.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace ubot {
namespace {

// The IR-SIM example worlds, unchanged copies of IR-SIM's usage/ files.
const std::string kWorlds = std::string(UBOT_SOURCE_DIR) + "/examples/";

TEST(LoadWorld, LidarWorld) {
  const WorldModel m = load_world(kWorlds + "lidar_world.yaml");
  EXPECT_EQ(m.world.name, "lidar_world");
  EXPECT_DOUBLE_EQ(m.world.step_time, 0.1);
  EXPECT_EQ(m.world.collision_mode, CollisionMode::kStop);
  ASSERT_EQ(m.objects.size(), 5u);
  const ObjectModel& robot = m.objects[0];
  EXPECT_EQ(robot.name, "robot_0");
  EXPECT_EQ(robot.role, Role::kRobot);
  EXPECT_EQ(robot.kinematics.kind, KinematicsKind::kDiff);
  EXPECT_EQ(robot.behavior.name, "dash");
  EXPECT_EQ(robot.state, (std::vector<double>{1, 1, 0}));
  ASSERT_EQ(robot.goals.size(), 1u);
  EXPECT_EQ(robot.goals[0], (std::vector<double>{9, 9, 0}));
  EXPECT_EQ(robot.vel_max, (std::vector<double>{1, 1}));
  EXPECT_TRUE(std::isinf(robot.acce[0]));
  ASSERT_EQ(robot.sensors.size(), 1u);
  const auto& lidar = std::get<Lidar2dModel>(robot.sensors[0].params);
  EXPECT_EQ(robot.sensors[0].common.name, "lidar2d_0");
  EXPECT_DOUBLE_EQ(lidar.range_max, 5.0);
  EXPECT_DOUBLE_EQ(lidar.angle_range, 3.14);
  EXPECT_EQ(lidar.number, 200);
  EXPECT_DOUBLE_EQ(lidar.angle_std, 0.2);
  EXPECT_TRUE(lidar.offset.isApprox(Eigen::Vector3d(0.1, 0.1, 0.5)));
  // IR-SIM: an object without fov borrows its first lidar's range and angle.
  EXPECT_DOUBLE_EQ(*robot.fov, 3.14);
  EXPECT_DOUBLE_EQ(*robot.fov_radius, 5.0);

  // Obstacle ids continue after the robots: obstacle_1 .. obstacle_4.
  EXPECT_EQ(m.objects[1].name, "obstacle_1");
  EXPECT_EQ(m.objects[1].shape.kind, ShapeKind::kCircle);
  EXPECT_TRUE(m.objects[1].shape.center.isApprox(Eigen::Vector2d(1, 1)));
  EXPECT_TRUE(m.objects[1].unobstructed);
  EXPECT_TRUE(m.objects[1].is_static);
  EXPECT_EQ(m.objects[2].shape.kind, ShapeKind::kRectangle);
  EXPECT_EQ(m.objects[2].state, (std::vector<double>{6, 5, 1}));
  ASSERT_EQ(m.objects[2].shape.vertices.size(), 4u);
  EXPECT_TRUE(m.objects[2].shape.vertices[0].isApprox(Eigen::Vector2d(-0.75, -0.6)));
  EXPECT_TRUE(m.objects[2].shape.vertices[2].isApprox(Eigen::Vector2d(0.75, 0.6)));
  EXPECT_EQ(m.objects[3].shape.kind, ShapeKind::kLinestring);
  EXPECT_TRUE(m.objects[4].plot->dashed);
}

TEST(LoadWorld, CircleDistribution) {
  const WorldModel m = load_world(kWorlds + "collision_avoidance.yaml");
  ASSERT_EQ(m.objects.size(), 10u);
  for (int i = 0; i < 10; ++i) {
    const ObjectModel& o = m.objects[i];
    const double theta = 2.0 * std::numbers::pi * i / 10;
    EXPECT_EQ(o.name, "robot_" + std::to_string(i));
    EXPECT_DOUBLE_EQ(o.state[0], 5 + 4 * std::cos(theta));
    EXPECT_DOUBLE_EQ(o.state[1], 5 + 4 * std::sin(theta));
    EXPECT_DOUBLE_EQ(o.state[2], theta - std::numbers::pi);
    EXPECT_DOUBLE_EQ(o.goals[0][0], 5 - 4 * std::cos(theta));
    EXPECT_DOUBLE_EQ(o.goals[0][1], 5 - 4 * std::sin(theta));
    EXPECT_EQ(o.behavior.name, "rvo");
    EXPECT_DOUBLE_EQ(o.behavior.vxmax, 1.0);
    EXPECT_DOUBLE_EQ(o.behavior.factor, 2.0);
    EXPECT_DOUBLE_EQ(o.behavior.neighbor_threshold, 5.0);
    EXPECT_TRUE(o.behavior.loop);
    EXPECT_DOUBLE_EQ(o.goal_threshold, 0.2);
    EXPECT_DOUBLE_EQ(o.shape.radius, 0.2);
  }
  // Per-object colours: 11 given for 10 robots, the extra one dropped with a warning.
  EXPECT_EQ(m.objects[0].color, "royalblue");
  EXPECT_EQ(m.objects[9].color, "pink");
  ASSERT_FALSE(m.warnings.empty());
}

TEST(LoadWorld, RandomDistributionIsSeededAndSpaced) {
  const WorldModel a = load_world(kWorlds + "fov_world.yaml", {.seed = 5});
  const WorldModel b = load_world(kWorlds + "fov_world.yaml", {.seed = 5});
  const WorldModel c = load_world(kWorlds + "fov_world.yaml", {.seed = 6});
  ASSERT_EQ(a.objects.size(), 11u);
  EXPECT_EQ(a.objects[0].state, (std::vector<double>{10, 10, 0}));  // [10,10,0,0] truncated
  bool differs = false;
  for (std::size_t i = 1; i < a.objects.size(); ++i) {
    EXPECT_EQ(a.objects[i].state, b.objects[i].state);
    differs |= a.objects[i].state != c.objects[i].state;
    for (int k = 0; k < 2; ++k) {
      EXPECT_GE(a.objects[i].state[k], 10.0);
      EXPECT_LT(a.objects[i].state[k], 40.0);
    }
    for (std::size_t j = 1; j < i; ++j) {
      EXPECT_GE(std::hypot(a.objects[i].state[0] - a.objects[j].state[0],
                           a.objects[i].state[1] - a.objects[j].state[1]),
                1.0);
    }
    EXPECT_EQ(a.objects[i].behavior.mode, RvoMode::kVo);
    EXPECT_DOUBLE_EQ(*a.objects[i].fov, 1.57);
    EXPECT_DOUBLE_EQ(*a.objects[i].fov_radius, 5.0);
  }
  EXPECT_TRUE(differs);
  EXPECT_TRUE(a.objects[0].behavior.wander);
}

TEST(LoadWorld, FmcwAndCollisionWorlds) {
  const WorldModel f = load_world(kWorlds + "fmcw_lidar_world.yaml");
  ASSERT_EQ(f.objects.size(), 5u);
  EXPECT_TRUE(f.objects[0].is_static);
  const auto& lidar = std::get<Lidar2dModel>(f.objects[0].sensors[0].params);
  EXPECT_TRUE(lidar.fmcw);
  EXPECT_EQ(lidar.number, 121);
  EXPECT_EQ(f.objects[0].sensors[0].type_name(), std::string("fmcw_lidar2d"));
  EXPECT_EQ(f.objects[1].kinematics.kind, KinematicsKind::kOmni);
  EXPECT_EQ(f.objects[1].color, "orangered");
  const WorldModel c = load_world(kWorlds + "collision_world.yaml");
  ASSERT_EQ(c.objects.size(), 2u);
  EXPECT_DOUBLE_EQ(c.objects[1].shape.radius, 1.0);
  // No goal given: IR-SIM's factory default.
  EXPECT_EQ(c.objects[1].goals[0], (std::vector<double>{1, 9, 0}));
}

TEST(LoadWorld, WaypointsNeedOneMoreListAsInIrSim) {
  const WorldModel m = load_world_from_string(R"(
robot:
  - kinematics: {name: diff}
    goal: [[[9, 9, 0], [2, 4, 1]]]
)",
                                              "w.yaml");
  ASSERT_EQ(m.objects[0].goals.size(), 2u);
  EXPECT_EQ(m.objects[0].goals[1], (std::vector<double>{2, 4, 1}));
}

TEST(LoadWorld, AckerStateIsPaddedAndShapesHaveBoundingRadius) {
  const WorldModel m = load_world_from_string(R"(
robot:
  - kinematics: {name: acker}
    shape: {name: rectangle, length: 4, width: 2, wheelbase: 2.5}
    state: [5, 5, 0]
)",
                                              "w.yaml");
  EXPECT_EQ(m.objects[0].state, (std::vector<double>{5, 5, 0, 0}));
  EXPECT_DOUBLE_EQ(m.objects[0].kinematics.wheelbase, 2.5);  // the shape's, as IR-SIM
  EXPECT_TRUE(m.objects[0].shape.vertices[0].isApprox(Eigen::Vector2d(-0.75, -1)));
  EXPECT_NEAR(m.objects[0].shape.bounding_radius(), std::hypot(2.0, 1.0), 1e-12);
}

// IR-SIM 2.12.0's KinematicsFactory: `kinematics.wheelbase` when given, else the shape's
// wheelbase `or 1.0` (none or 0 means 1). The shape's still places the body on the rear axle.
TEST(LoadWorld, AckerWheelbaseComesFromTheKinematicsElseTheShapeElseOne) {
  const WorldModel m = load_world_from_string(R"(
robot:
  - kinematics: {name: acker}
    shape: {name: circle, radius: 0.3, wheelbase: 0.4}
  - kinematics: {name: acker, wheelbase: 2}
    shape: {name: rectangle, length: 3, width: 1}
  - kinematics: {name: acker}
    shape: {name: rectangle, length: 3, width: 1}
  - kinematics: {name: acker}
    shape: {name: rectangle, length: 3, width: 1, wheelbase: 0}
  - kinematics: {name: diff}
    shape: {name: polygon, vertices: [[0, 0], [1, 0], [0, 1]], wheelbase: 0.7}
  - kinematics: {name: acker, wheelbase: 2}
    shape: {name: rectangle, length: 3, width: 1, wheelbase: 1.5}
)",
                                              "w.yaml");
  EXPECT_EQ(m.objects[0].kinematics.wheelbase, 0.4);
  EXPECT_TRUE(m.objects[0].shape.center.isApprox(Eigen::Vector2d(0.2, 0.0)));
  EXPECT_EQ(m.objects[1].kinematics.wheelbase, 2.0);
  EXPECT_EQ(m.objects[2].kinematics.wheelbase, 1.0);
  EXPECT_EQ(m.objects[3].kinematics.wheelbase, 1.0);
  EXPECT_TRUE(m.objects[3].shape.vertices[0].isApprox(Eigen::Vector2d(-1.5, -0.5)));
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_EQ(m.warnings[0],
            "w.yaml:10:62: robot[3].shape.wheelbase: 0 reads as no wheelbase (as in IR-SIM): the "
            "acker kinematics use 1.0");
  EXPECT_EQ(m.objects[4].kinematics.kind, KinematicsKind::kDiff);  // a shape key, no kinematics
  // Both: the kinematics' wins; the shape's places the body (rear axle at the origin).
  EXPECT_EQ(m.objects[5].kinematics.wheelbase, 2.0);
  EXPECT_TRUE(m.objects[5].shape.vertices[0].isApprox(Eigen::Vector2d(-0.75, -0.5)));
}

// A group's `sensors` list is read for its first object and copied for the others (issue 45,
// start-up): every object still gets the whole list, and a sensor without name or type still
// warns once per object, in object order, as when each object read the list itself.
TEST(LoadWorld, AGroupsSensorsAreEveryObjectsWithTheirWarnings) {
  const WorldModel m = load_world_from_string(R"(
robot:
  - number: 3
    distribution: {name: circle}
    behavior: {name: dash, angle_tolerance: 0.2}
    sensors:
      - {range_max: 3, number: 7}
      - {type: imu, update_rate_hz: 50}
      - {type: lidar2d, angle_range: 1.5}
)",
                                              "w.yaml");
  ASSERT_EQ(m.objects.size(), 3u);
  for (const ObjectModel& o : m.objects) {
    ASSERT_EQ(o.sensors.size(), 3u) << o.name;
    EXPECT_EQ(o.sensors[0].common.name, "lidar2d_0");
    EXPECT_EQ(std::get<Lidar2dModel>(o.sensors[0].params).number, 7);
    EXPECT_EQ(std::get<Lidar2dModel>(o.sensors[0].params).range_max, 3.0);
    EXPECT_EQ(o.sensors[1].common.name, "imu_0");
    EXPECT_EQ(o.sensors[1].common.update_rate_hz, 50.0);
    EXPECT_EQ(o.sensors[2].common.name, "lidar2d_1");
    EXPECT_EQ(std::get<Lidar2dModel>(o.sensors[2].params).angle_range, 1.5);
    EXPECT_EQ(o.fov, 3.141592653589793);  // the first lidar's, IR-SIM's default angle_range
  }
  // Each object's warnings in the order its keys are read: the shape's, then the sensors'.
  std::vector<std::string> expected;
  for (const char* name : {"robot_0", "robot_1", "robot_2"}) {
    expected.push_back(std::string(name) +
                       ": no shape given; using IR-SIM's default circle of radius 1");
    expected.push_back(
        "w.yaml:7:9: robot[0].sensors[0]: no name or type: read as a lidar2d (IR-SIM's default)");
  }
  EXPECT_EQ(m.warnings, expected);
}

TEST(LoadWorld, SeedFromWorldOrOptions) {
  const std::string yaml = "world: {seed: 17}\n";
  EXPECT_EQ(load_world_from_string(yaml, "w.yaml").seed, 17u);
  EXPECT_EQ(load_world_from_string(yaml, "w.yaml", {.seed = 3}).seed, 3u);
}

// Issue 27: Welzl's algorithm in a polygon's own order was cubic (200 000 vertices of a circle:
// 16 s); past 64 vertices it visits them in a fixed pseudo-random order, which must give the
// same smallest circle.
ShapeModel polygon_of(std::vector<Eigen::Vector2d> vertices) {
  ShapeModel s;
  s.kind = ShapeKind::kPolygon;
  s.vertices = std::move(vertices);
  return s;
}

TEST(BoundingCircle, TheVerticesOfACircleInOrderGiveThatCircle) {
  std::vector<Eigen::Vector2d> ring;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double a = 2 * std::numbers::pi * i / n;
    ring.emplace_back(5 + 3 * std::cos(a), 5 + 3 * std::sin(a));
  }
  const ShapeModel::Circle k = polygon_of(ring).bounding_circle();
  EXPECT_NEAR(k.radius, 3.0, 1e-9);
  EXPECT_NEAR((k.center - Eigen::Vector2d(5, 5)).norm(), 0.0, 1e-9);
}

TEST(BoundingCircle, ShuffledOrderMatchesTheSmallestCircleOfEveryPairAndTriple) {
  // 80 points (past the threshold), checked against the brute force: the smallest circle
  // through 2 or 3 of them that holds them all.
  std::vector<Eigen::Vector2d> p;
  std::uint64_t x = 12345;
  auto next = [&] {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(x >> 11) / 9007199254740992.0;
  };
  for (int i = 0; i < 80; ++i) p.emplace_back(4 * next() - 2, 3 * next() - 1);
  auto holds = [&](const Eigen::Vector2d& c, double r) {
    for (const Eigen::Vector2d& q : p) {
      if ((q - c).norm() > r + 1e-9) return false;
    }
    return true;
  };
  double best = 1e300;
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (std::size_t j = i + 1; j < p.size(); ++j) {
      const Eigen::Vector2d c = (p[i] + p[j]) / 2;
      if (holds(c, (p[i] - c).norm())) best = std::min(best, (p[i] - c).norm());
      for (std::size_t m = j + 1; m < p.size(); ++m) {
        const Eigen::Vector2d ab = p[j] - p[i], ac = p[m] - p[i];
        const double d = 2 * (ab.x() * ac.y() - ab.y() * ac.x());
        if (std::abs(d) < 1e-12) continue;
        const Eigen::Vector2d u((ac.y() * ab.squaredNorm() - ab.y() * ac.squaredNorm()) / d,
                                (ab.x() * ac.squaredNorm() - ac.x() * ab.squaredNorm()) / d);
        if (u.norm() < best && holds(p[i] + u, u.norm())) best = u.norm();
      }
    }
  }
  const ShapeModel::Circle k = polygon_of(p).bounding_circle();
  EXPECT_NEAR(k.radius, best, 1e-9);
  EXPECT_TRUE(holds(k.center, k.radius));
  // The same on every call: the order is fixed, not drawn.
  const ShapeModel::Circle again = polygon_of(p).bounding_circle();
  EXPECT_EQ(again.radius, k.radius);
  EXPECT_EQ(again.center, k.center);
}

}  // namespace
}  // namespace ubot
