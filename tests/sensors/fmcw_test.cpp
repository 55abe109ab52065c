// fmcw_lidar2d (SPEC §3): radial velocities against analytic ground truth, IR-SIM's rules for
// invalid beams, motion compensation and velocity noise, and beams cut by media.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sensor_test_support.h"

namespace ubot {
namespace {

using testing_support::lidar;
using testing_support::make_sim;

// A diff robot at the origin with an FMCW lidar (41 beams over 1 rad), an omni circle of radius
// 1 at (8, 0.5), and a wall at x = 15; both movers are driven by commands.
std::string fmcw_world(const std::string& fmcw_keys, const std::string& extra = "") {
  return R"(
world: {width: 60, height: 60, offset: [-30, -30]}
robot:
  - kinematics: {name: diff}
    shape: {name: circle, radius: 0.3}
    state: [0, 0, 0]
    vel_min: [-5, -5]
    vel_max: [5, 5]
    sensors:
      - {name: fmcw_lidar2d, range_max: 20, angle_range: 1.0, number: 41, )" +
         fmcw_keys + R"(}
obstacle:
  - kinematics: {name: omni}
    shape: {name: circle, radius: 1}
    state: [8, 0.5, 0]
    vel_min: [-5, -5]
    vel_max: [5, 5]
  - {shape: {name: linestring, vertices: [[15, -30], [15, 30]]}, state: [0, 0, 0]}
)" + extra;
}

Eigen::Vector2d beam_dir(const Lidar2d& l, std::size_t i) {
  const double yaw = l.scan().origin.z() + l.angles()[i];
  return {std::cos(yaw), std::sin(yaw)};
}

// Steps with the robot driving [v, w] and the obstacle moving at world velocity `v_obj`.
void drive(Simulation& sim, const Eigen::Vector2d& robot, const Eigen::Vector2d& v_obj, int n) {
  const std::vector<Command> commands = {robot, v_obj};
  for (int k = 0; k < n; ++k) sim.step(commands);
}

TEST(Fmcw, RadialVelocityOfAnObstacleMovingAtAKnownVelocity) {
  // Static sensor: every beam on the obstacle reads dot(v_obj, dir); the wall reads 0.
  Simulation sim = make_sim(fmcw_world("motion_compensate: false"));
  const Eigen::Vector2d v_obj(-0.8, 0.3);
  drive(sim, {0, 0}, v_obj, 3);
  const Lidar2d& l = lidar(sim);
  int on_obstacle = 0;
  for (std::size_t i = 0; i < l.angles().size(); ++i) {
    ASSERT_TRUE(l.scan().valid[i]);
    const double expected = l.scan().hit_object[i] == 1 ? v_obj.dot(beam_dir(l, i)) : 0.0;
    on_obstacle += l.scan().hit_object[i] == 1;
    EXPECT_NEAR(l.scan().radial_velocity[i], expected, 1e-12) << i;
  }
  EXPECT_GT(on_obstacle, 5);
  // Positive = moving away.
  Simulation away = make_sim(fmcw_world(""));
  drive(away, {0, 0}, {0.5, 0}, 1);
  EXPECT_NEAR(lidar(away).scan().radial_velocity[20], 0.5 * beam_dir(lidar(away), 20).x(), 1e-12);
  EXPECT_GT(lidar(away).scan().radial_velocity[20], 0.0);
}

TEST(Fmcw, MotionCompensationRemovesTheSensorsOwnMotion) {
  const Eigen::Vector2d v_obj(-0.5, 0.2), robot(1.2, 0.0);  // robot drives along +x
  for (const bool compensate : {false, true}) {
    Simulation sim =
        make_sim(fmcw_world(compensate ? "motion_compensate: true" : "motion_compensate: false"));
    drive(sim, robot, v_obj, 2);
    const Lidar2d& l = lidar(sim);
    const Eigen::Vector2d v_sensor(1.2, 0.0);
    for (std::size_t i = 0; i < l.angles().size(); ++i) {
      const Eigen::Vector2d target =
          l.scan().hit_object[i] == 1 ? v_obj : Eigen::Vector2d::Zero();  // wall: still
      const Eigen::Vector2d rel = compensate ? target : target - v_sensor;
      EXPECT_NEAR(l.scan().radial_velocity[i], rel.dot(beam_dir(l, i)), 1e-12) << i;
    }
  }
}

TEST(Fmcw, RotationAddsTheVelocityOfTheHitPointAndOfTheSensorMount) {
  // ubot measures the velocity of the points involved: v + w x r for a turning target and for a
  // sensor mounted off the turning body's centre (IR-SIM uses translational velocities only;
  // the two agree whenever nothing turns).
  Simulation sim = make_sim(R"(
robot:
  - kinematics: {name: diff}
    state: [0, 0, 0]
    vel_min: [-5, -5]
    vel_max: [5, 5]
    sensors: [{name: fmcw_lidar2d, range_max: 20, angle_range: 0.6, number: 13, offset: [0.5, 0.2, 0]}]
obstacle:
  - kinematics: {name: diff}
    shape: {name: rectangle, length: 2, width: 6}
    state: [8, 0, 0]
    vel_min: [-5, -5]
    vel_max: [5, 5]
)");
  const double w_robot = 0.4, w_obj = -0.7, v_obj = 0.3;
  const std::vector<Command> commands = {Eigen::Vector2d(0, w_robot),
                                         Eigen::Vector2d(v_obj, w_obj)};
  sim.step(commands);
  const Lidar2d& l = lidar(sim);
  const auto& robot = sim.world().object(0).state;
  const auto& obj = sim.world().object(1).state;
  const Eigen::Vector2d sensor(l.scan().origin.x(), l.scan().origin.y());
  const Eigen::Vector2d r_s = sensor - Eigen::Vector2d(robot[0], robot[1]);
  const Eigen::Vector2d v_s = w_robot * Eigen::Vector2d(-r_s.y(), r_s.x());
  int hits = 0;
  for (std::size_t i = 0; i < l.angles().size(); ++i) {
    if (!l.scan().valid[i]) continue;
    ++hits;
    const Eigen::Vector2d d = beam_dir(l, i);
    const Eigen::Vector2d p = sensor + l.scan().ranges[i] * d;
    const Eigen::Vector2d r = p - Eigen::Vector2d(obj[0], obj[1]);
    const Eigen::Vector2d v_p = v_obj * Eigen::Vector2d(std::cos(obj[2]), std::sin(obj[2])) +
                                w_obj * Eigen::Vector2d(-r.y(), r.x());
    EXPECT_NEAR(l.scan().radial_velocity[i], (v_p - v_s).dot(d), 1e-12) << i;
  }
  EXPECT_EQ(hits, 13);
}

TEST(Fmcw, InvalidBeamsReportZero) {
  // Misses, and hits in the blind zone (range_min), report 0 however fast things move.
  Simulation sim = make_sim(R"(
robot:
  - kinematics: {name: diff}
    state: [0, 0, 0]
    vel_min: [-5, -5]
    vel_max: [5, 5]
    sensors: [{name: fmcw_lidar2d, range_min: 1.5, range_max: 9, angle_range: 3.0, number: 61}]
obstacle:
  - kinematics: {name: omni}
    shape: {name: circle, radius: 1}
    state: [6, 0, 0]
    vel_min: [-5, -5]
    vel_max: [5, 5]
  - kinematics: {name: omni}
    shape: {name: circle, radius: 0.3}
    state: [0, 1, 0]
    vel_min: [-5, -5]
    vel_max: [5, 5]
)");
  const std::vector<Command> commands = {Eigen::Vector2d(0.7, 0), Eigen::Vector2d(-1, 0.5),
                                         Eigen::Vector2d(0.5, 2.0)};
  sim.step(commands);
  const LaserScan& s = lidar(sim).scan();
  int misses = 0, blind = 0, valid = 0;
  for (std::size_t i = 0; i < s.ranges.size(); ++i) {
    if (s.valid[i]) {
      ++valid;
      continue;
    }
    EXPECT_EQ(s.radial_velocity[i], 0.0) << i;
    (s.hit[i] ? blind : misses)++;
  }
  EXPECT_GT(misses, 0);
  EXPECT_GT(blind, 0);
  EXPECT_GT(valid, 0);
}

TEST(Fmcw, VelocityNoiseHasTheConfiguredSigmaOverOneHundredThousandSamples) {
  // As IR-SIM, velocity_noise_std adds Gaussian noise whenever it is > 0 (with or without
  // `noise`, which switches range noise). 1000 beams on a still wall: true value 0.
  for (const char* noise : {"noise: false", "noise: true, std: 0.01"}) {
    Simulation sim = make_sim(std::string(R"(
robot:
  - kinematics: {name: diff}
    state: [0, 0, 0]
    static: true
    sensors:
      - {name: fmcw_lidar2d, range_max: 10, angle_range: 0.2, number: 1000,
         velocity_noise_std: 0.25, )") +
                              noise + R"(}
obstacle:
  - {shape: {name: linestring, vertices: [[5, -10], [5, 10]]}, state: [0, 0, 0]}
)");
    double sum = 0, sum2 = 0;
    int n = 0;
    for (int k = 0; k < 100; ++k) {
      sim.step();
      for (double v : lidar(sim).scan().radial_velocity) {
        sum += v;
        sum2 += v * v;
        ++n;
      }
    }
    ASSERT_EQ(n, 100000);
    const double mean = sum / n, sd = std::sqrt(sum2 / n - mean * mean);
    EXPECT_NEAR(mean, 0.0, 5 * 0.25 / std::sqrt(n)) << noise;
    EXPECT_NEAR(sd, 0.25, 0.25 * 0.02) << noise;
  }
}

// --- Beams cut by media ----------------------------------------------------------------------

// A still cell straight ahead of the robot (entry at 3 m), in front of the moving obstacle.
const char* kStillSmoke = "media:\n  - cells: [{position: [4, 0], radius: 1, density: 1}]\n";

TEST(Fmcw, StillSmokeLooksLikeAStillSurface) {
  // A still sensor sees still smoke at 0 m/s; a moving one sees its own motion unless it
  // compensates, as for a wall.
  for (const bool compensate : {false, true}) {
    Simulation sim = make_sim(fmcw_world(compensate ? "motion_compensate: true" : "", kStillSmoke));
    drive(sim, {0, 0}, {-1, 0}, 1);
    EXPECT_EQ(lidar(sim).scan().hit_medium[20], 0);
    EXPECT_EQ(lidar(sim).scan().radial_velocity[20], 0.0);
    drive(sim, {0.9, 0}, {-1, 0}, 1);
    const Lidar2d& l = lidar(sim);
    ASSERT_EQ(l.scan().hit_medium[20], 0);
    EXPECT_NEAR(l.scan().ranges[20], 3.0 - 0.09, 1e-12);
    EXPECT_NEAR(l.scan().radial_velocity[20], compensate ? 0.0 : -0.9, 1e-12);
    EXPECT_NEAR(l.scan().radial_velocity[19], compensate ? 0.0 : -0.9 * beam_dir(l, 19).x(), 1e-12);
  }
}

TEST(Fmcw, MovingSmokeReportsItsCellVelocity) {
  // Drifting by keyframes: (0.6, -0.4) m/s. Attached to the moving obstacle: its velocity.
  Simulation drift = make_sim(fmcw_world("", R"(media:
  - cells: [{position: [4, 0], radius: 1, density: 1}]
    keyframes: [{t: 0}, {t: 10, position_offset: [6, -4]}]
)"));
  drive(drift, {0, 0}, {0, 0}, 2);
  const Lidar2d& l = lidar(drift);
  int cut = 0;
  for (std::size_t i = 0; i < l.angles().size(); ++i) {
    if (l.scan().hit_medium[i] < 0) continue;
    ++cut;
    EXPECT_NEAR(l.scan().radial_velocity[i], Eigen::Vector2d(0.6, -0.4).dot(beam_dir(l, i)), 1e-12);
  }
  EXPECT_GT(cut, 5);
  Simulation attached = make_sim(fmcw_world("", R"(media:
  - attach: obstacle_1
    cells: [{position: [-2.5, -0.5], radius: 0.8, density: 1}]
)"));
  drive(attached, {0, 0}, {-0.7, 0.2}, 3);
  const Lidar2d& a = lidar(attached);
  ASSERT_EQ(a.scan().hit_medium[20], 0);
  EXPECT_NEAR(a.scan().radial_velocity[20], Eigen::Vector2d(-0.7, 0.2).dot(beam_dir(a, 20)), 1e-12);
}

}  // namespace
}  // namespace ubot
