// lidar2d against analytic ground truth (SPEC §2).
#include "ubot/sensors/lidar2d/lidar2d.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "sensor_test_support.h"
#include "ubot/core/angles.h"

namespace ubot {
namespace {

using testing_support::lidar;
using testing_support::make_sim;

// A static robot at the origin facing +x with one lidar; `extra` adds obstacles.
std::string world(const std::string& lidar_keys, const std::string& obstacles) {
  return R"(
world: {width: 40, height: 40, offset: [-20, -20]}
robot:
  - kinematics: {name: diff}
    shape: {name: circle, radius: 0.3}
    state: [0, 0, 0]
    static: true
    sensors:
      - {name: lidar2d, )" +
         lidar_keys + R"(}
obstacle:
)" + obstacles;
}

TEST(Lidar2d, BeamAnglesFollowIrSimLinspace) {
  Simulation sim = make_sim(world("range_max: 5, angle_range: 3.14, number: 200", "  []\n"));
  const auto& a = lidar(sim).angles();
  ASSERT_EQ(a.size(), 200u);
  EXPECT_EQ(a.front(), -1.57);
  EXPECT_EQ(a.back(), 1.57);
  const double step = 3.14 / 199;
  for (int i = 0; i < 200; ++i) EXPECT_NEAR(a[i], -1.57 + i * step, 1e-15);
  EXPECT_NEAR(lidar(sim).angle_increment(), step, 1e-15);
}

TEST(Lidar2d, FullCircleHasDistinctBeams) {
  Simulation sim = make_sim(world("angle_range: 6.283185307179586, number: 360", "  []\n"));
  const auto& a = lidar(sim).angles();
  ASSERT_EQ(a.size(), 360u);
  EXPECT_NEAR(a.front(), -kPi, 1e-15);
  EXPECT_NEAR(a.back() - a.front(), 2 * kPi - 2 * kPi / 360, 1e-12);  // no repeated beam
  EXPECT_NEAR(lidar(sim).angle_increment(), 2 * kPi / 360, 1e-15);
  EXPECT_NEAR(lidar(sim).to_message().angle_increment, 2 * kPi / 360, 1e-6);
  Simulation one = make_sim(world("number: 1", "  []\n"));
  EXPECT_EQ(lidar(one).angles(), std::vector<double>{0.0});
}

// Lidars of one beam pattern share one table of directions (a VectorEnv's copies hold one);
// another pattern has its own, and sharing changes no reading.
TEST(Lidar2d, LidarsOfOnePatternShareTheirBeamTable) {
  const std::string obstacles = "  - {shape: {name: circle, radius: 1.0}, state: [4, 1, 0]}\n";
  Simulation a = make_sim(world("range_max: 10, angle_range: 2.5, number: 77", obstacles));
  Simulation b = make_sim(world("range_max: 10, angle_range: 2.5, number: 77", obstacles));
  Simulation other = make_sim(world("range_max: 10, angle_range: 2.5, number: 78", obstacles));
  EXPECT_EQ(&lidar(a).angles(), &lidar(b).angles());
  EXPECT_NE(&lidar(a).angles(), &lidar(other).angles());
  EXPECT_EQ(lidar(other).angles().size(), 78u);
  a.step();
  b.step();
  EXPECT_EQ(lidar(a).scan().ranges, lidar(b).scan().ranges);
  int hits = 0;
  for (const std::uint8_t v : lidar(a).scan().valid) hits += v;
  EXPECT_GT(hits, 5);
}

TEST(Lidar2d, RangesMatchAnalyticGeometry) {
  // Circle of radius 1 at (6, 0); box 2x2 centred at (0, 7); a wall segment x = -4.
  Simulation sim = make_sim(world("range_max: 10, angle_range: 6.283185307179586, number: 4",
                                  R"(  - {shape: {name: circle, radius: 1.0}, state: [6, 0, 0]}
  - {shape: {name: rectangle, length: 2, width: 2}, state: [0, 7, 0]}
  - {shape: {name: linestring, vertices: [[-4, -10], [-4, 10]]}, state: [0, 0, 0]}
)"));
  sim.step();
  const LaserScan& s = lidar(sim).scan();
  // Beams at -pi (backwards), -pi/2, 0, pi/2.
  EXPECT_NEAR(s.ranges[0], 4.0, 1e-12);  // wall
  EXPECT_EQ(s.ranges[1], 10.0);          // nothing below: range_max, invalid
  EXPECT_FALSE(s.valid[1]);
  EXPECT_FALSE(s.hit[1]);
  EXPECT_NEAR(s.ranges[2], 5.0, 1e-12);  // circle entry point
  EXPECT_NEAR(s.ranges[3], 6.0, 1e-12);  // box face
  EXPECT_EQ(s.hit_object[2], 1);
  EXPECT_EQ(s.hit_object[3], 2);
  EXPECT_EQ(s.hit_object[0], 3);
  EXPECT_TRUE(s.valid[0] && s.valid[2] && s.valid[3]);
  EXPECT_EQ(s.intensities[2], 1.0f);
  EXPECT_EQ(s.intensities[1], 0.0f);
}

TEST(Lidar2d, ObliqueBeamsHitCirclesAtTheEntryDistance) {
  Simulation sim = make_sim(world("range_max: 20, angle_range: 1.0, number: 101",
                                  "  - {shape: {name: circle, radius: 2.0}, state: [8, 1, 0]}\n"));
  sim.step();
  const Lidar2d& l = lidar(sim);
  int hits = 0;
  for (std::size_t i = 0; i < l.angles().size(); ++i) {
    const double a = l.angles()[i];
    // |t d - c|^2 = r^2 with d = (cos a, sin a), c = (8, 1).
    const double b = 8 * std::cos(a) + 1 * std::sin(a);
    const double disc = b * b - (65 - 4);
    if (disc < 0) {
      EXPECT_FALSE(l.scan().valid[i]) << i;
      continue;
    }
    ++hits;
    EXPECT_NEAR(l.scan().ranges[i], b - std::sqrt(disc), 1e-9) << i;
  }
  EXPECT_GT(hits, 20);
}

TEST(Lidar2d, RangeMinIsABlindZone) {
  Simulation sim =
      make_sim(world("range_min: 2, range_max: 10, angle_range: 0.1, number: 3",
                     "  - {shape: {name: circle, radius: 0.5}, state: [1.5, 0, 0]}\n"));
  sim.step();
  const LaserScan& s = lidar(sim).scan();
  EXPECT_EQ(s.ranges[1], 2.0);  // hit at 1.0 < range_min: reads range_min...
  EXPECT_FALSE(s.valid[1]);     // ...and is invalid...
  EXPECT_TRUE(s.hit[1]);        // ...but the beam is blocked
  EXPECT_TRUE(lidar(sim).points().empty());
  const LaserScanMessage inf = lidar(sim).to_message(true);
  EXPECT_EQ(inf.ranges[1], -std::numeric_limits<float>::infinity());  // REP 117: too close
  EXPECT_EQ(lidar(sim).to_message(false).ranges[1], 2.0f);
}

TEST(Lidar2d, LaserScanMessageAndPoints) {
  Simulation sim = make_sim(world("range_max: 10, angle_range: 1.5707963267948966, number: 3",
                                  "  - {shape: {name: circle, radius: 1}, state: [5, 0, 0]}\n"));
  sim.step();
  const Lidar2d& l = lidar(sim);
  const LaserScanMessage m = l.to_message(true);
  EXPECT_FLOAT_EQ(m.angle_min, -kPi / 4);
  EXPECT_FLOAT_EQ(m.angle_max, kPi / 4);
  EXPECT_FLOAT_EQ(m.angle_increment, kPi / 4);
  EXPECT_EQ(m.ranges[0], std::numeric_limits<float>::infinity());  // no return
  EXPECT_FLOAT_EQ(m.ranges[1], 4.0f);
  EXPECT_EQ(l.to_message(false).ranges[0], 10.0f);
  const auto points = l.points();
  ASSERT_EQ(points.size(), 1u);
  EXPECT_TRUE(points[0].isApprox(Eigen::Vector2d(4, 0)));
  bool hit = false;
  EXPECT_DOUBLE_EQ(l.range(1, &hit), 4.0);
  EXPECT_TRUE(hit);
}

TEST(Lidar2d, OffsetMovesAndTurnsTheSensor) {
  // Robot at (1, 1) heading pi/2; lidar offset 0.5 m forward, turned -pi/2: it looks along +x
  // from (1, 1.5). A wall at x = 4 is 3 m ahead.
  Simulation sim = make_sim(R"(
robot:
  - kinematics: {name: diff}
    state: [1, 1, 1.5707963267948966]
    static: true
    sensors:
      - {name: lidar2d, range_max: 10, angle_range: 0.2, number: 3, offset: [0.5, 0, -1.5707963267948966]}
obstacle:
  - {shape: {name: linestring, vertices: [[4, -10], [4, 10]]}, state: [0, 0, 0]}
)");
  sim.step();
  const LaserScan& s = lidar(sim).scan();
  EXPECT_NEAR(s.origin.x(), 1.0, 1e-15);
  EXPECT_NEAR(s.origin.y(), 1.5, 1e-15);
  EXPECT_NEAR(s.origin.z(), 0.0, 1e-15);
  EXPECT_NEAR(s.ranges[1], 3.0, 1e-12);
  EXPECT_NEAR(s.ranges[0], 3.0 / std::cos(0.1), 1e-12);
}

TEST(Lidar2d, OwnBodyNeverSeenOtherRobotsAndNotUnobstructed) {
  Simulation sim = make_sim(R"(
robot:
  - kinematics: {name: diff}
    shape: {name: rectangle, length: 2, width: 2}
    state: [0, 0, 0]
    static: true
    sensors: [{name: lidar2d, range_max: 10, angle_range: 6.283185307179586, number: 4}]
  - kinematics: {name: diff}
    shape: {name: circle, radius: 0.5}
    state: [3, 0, 0]
    static: true
obstacle:
  - {shape: {name: circle, radius: 0.5}, state: [0, 3, 0], unobstructed: true}
  - {shape: {name: circle, radius: 0.5}, state: [0, 6, 0]}
)");
  sim.step();
  const LaserScan& s = lidar(sim).scan();
  EXPECT_NEAR(s.ranges[2], 2.5, 1e-12);  // the other robot, not our own box
  EXPECT_EQ(s.hit_object[2], 1);
  EXPECT_NEAR(s.ranges[3], 5.5, 1e-12);  // through the unobstructed one to the next
  EXPECT_EQ(s.hit_object[3], 3);
  EXPECT_FALSE(s.valid[0]);
}

TEST(Lidar2d, ReadingsNeverLagThePosesOfTheSameStep) {
  // The robot drives at 1 m/s towards a wall 10 m ahead; each scan sees the post-move pose.
  Simulation sim = make_sim(R"(
robot:
  - kinematics: {name: diff}
    state: [0, 0, 0]
    goal: [20, 0, 0]
    behavior: {name: dash}
    sensors: [{name: lidar2d, range_max: 20, angle_range: 0.1, number: 1}]
obstacle:
  - {shape: {name: linestring, vertices: [[10, -5], [10, 5]]}, state: [0, 0, 0]}
)");
  for (int k = 1; k <= 30; ++k) {
    sim.step();
    ASSERT_NEAR(lidar(sim).scan().ranges[0], 10.0 - sim.world().object(0).state[0], 1e-12);
    ASSERT_EQ(lidar(sim).header().sequence, static_cast<std::uint64_t>(k - 1));
    ASSERT_EQ(lidar(sim).header().stamp, sim.world().time_ns());
  }
}

TEST(Lidar2d, UpdateRateSamplesOnItsOwnGrid) {
  Simulation sim = make_sim(world("number: 3, update_rate_hz: 4", "  []\n"));
  int samples = 0;
  std::vector<Nanos> stamps;
  for (int k = 1; k <= 20; ++k) {
    sim.step();
    samples += static_cast<int>(sim.sampled().size());
    if (!sim.sampled().empty()) stamps.push_back(lidar(sim).header().stamp);
  }
  // 4 Hz grid 0, 0.25, ..., 2.0 s; each grid point is sampled at the first step at or after it.
  EXPECT_EQ(samples, 9);
  const std::vector<Nanos> expected = {100'000'000,   300'000'000,   500'000'000,
                                       800'000'000,   1'000'000'000, 1'300'000'000,
                                       1'500'000'000, 1'800'000'000, 2'000'000'000};
  EXPECT_EQ(stamps, expected);
  Simulation fast = make_sim(world("number: 3, update_rate_hz: 50", "  []\n"));
  for (int k = 1; k <= 10; ++k) {
    fast.step();
    EXPECT_EQ(fast.sampled().size(), 1u);  // at most once per step
  }
}

TEST(Lidar2d, DisabledSensorReportsDisabled) {
  Simulation sim = make_sim(world("number: 3, enabled: false", "  []\n"));
  sim.step();
  EXPECT_EQ(lidar(sim).header().status, SampleStatus::kDisabled);
  EXPECT_FALSE(lidar(sim).header().valid);
  EXPECT_EQ(lidar(sim).header().sensor_id, "robot_0/lidar2d_0");
}

}  // namespace
}  // namespace ubot
