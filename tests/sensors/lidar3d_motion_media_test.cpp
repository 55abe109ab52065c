// lidar3d motion distortion against the analytic sweep, and media cuts (SPEC §4, §8): a point at
// the entry distance with intensity 0, compared with an independent brute force.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>

#include "sensor_test_support.h"
#include "ubot/core/numbers.h"
#include "ubot/core/random.h"
#include "ubot/sensors/lidar3d/lidar3d.h"

namespace ubot {
namespace {

using testing_support::make_sim;

const Lidar3d& motion_lidar3d(const Simulation& sim, int i = 0) {
  return testing_support::sensor_as<Lidar3d>(sim, i);
}

double motion_range_of(const LidarPoint& p) { return std::sqrt(p.x * p.x + p.y * p.y + p.z * p.z); }

// A robot following a linear trajectory from (0, 0, 1) with yaw 0 to (dx, 0, 1) with yaw `turn`
// in 10 s, carrying a one-channel horizontal lidar3d (`keys`); a 10 m tall wall at x = 20.
std::string moving_world(double dx, double turn, const std::string& keys) {
  return fmt::format(R"(
world: {{width: 100, height: 100, offset: [-50, -50], step_time: 0.1}}
robot:
  - shape: {{name: circle, radius: 0.2}}
    trajectory:
      interpolation: linear
      waypoints:
        - {{t: 0, position: [0, 0, 1]}}
        - {{t: 10, position: [{}, 0, 1], rpy: [0, 0, {}]}}
    sensors:
      - {{name: lidar3d, vertical_angles: [0], number: 720, {}}}
obstacle:
  - {{shape: {{name: linestring, vertices: [[20, -100], [20, 100]]}}, state: [0, 0, 0], height: 10}}
)",
                     dx, turn, keys);
}

// Checks every point of the forward half against the wall x = 20 seen from the trajectory's pose
// at its column's firing time t: x(t) = dx t / 10, yaw(t) = turn t / 10, and before the start
// (t < 0) the pose at t = 0.
void expect_analytic_sweep(const Lidar3d& l, double dx, double turn, bool distorted) {
  const LidarSweep& s = l.sweep();
  const double stamp = nanos_to_seconds(l.header().stamp);
  int forward = 0;
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const LidarPoint& p = s.points[i];
    const std::size_t c = static_cast<std::size_t>(std::lround(p.time / l.column_time(1)));
    ASSERT_NEAR(p.time, l.column_time(c), 1e-7);
    const double t =
        std::max(0.0, distorted ? stamp - (l.sweep_duration() - l.column_time(c)) : stamp);
    const double x = dx * t / 10.0, yaw = turn * t / 10.0;
    const double psi = yaw + l.azimuths()[c];  // the ray's world heading
    if (std::cos(psi) < 0.3) continue;
    ++forward;
    EXPECT_NEAR(motion_range_of(p), (20.0 - x) / std::cos(psi), 1e-5) << "column " << c;
    // The point, in the sensor frame of its firing time, along the column's azimuth.
    EXPECT_NEAR(std::atan2(p.y, p.x), l.azimuths()[c], 1e-6);
    // The world view puts every point back on the wall.
    EXPECT_NEAR(s.points_world[i].x(), 20.0, 1e-9) << "column " << c;
  }
  EXPECT_GT(forward, 200);
}

TEST(Lidar3dMotion, TranslationSkewsTheSweepAsTheAnalyticOne) {
  // 1 m/s along x: over the 0.1 s sweep the first columns are 10 cm further from the wall.
  Simulation sim = make_sim(moving_world(10, 0, "motion_distortion: true"));
  for (int k = 0; k < 5; ++k) {
    sim.step();
    expect_analytic_sweep(motion_lidar3d(sim), 10, 0, true);
  }
  EXPECT_NEAR(motion_lidar3d(sim).sweep().pose.position.x(), 0.5, 1e-12);
  // Without distortion every column sees the wall from the pose at the stamp.
  Simulation still = make_sim(moving_world(10, 0, "motion_distortion: false"));
  for (int k = 0; k < 5; ++k) still.step();
  expect_analytic_sweep(motion_lidar3d(still), 10, 0, false);
}

TEST(Lidar3dMotion, TurningAndMovingSkewsTheSweepAsTheAnalyticOne) {
  // 0.2 rad/s while moving at 0.5 m/s: each column's heading is yaw(t_i) + azimuth_i.
  Simulation sim = make_sim(moving_world(5, 2, "motion_distortion: true"));
  for (int k = 0; k < 8; ++k) {
    sim.step();
    expect_analytic_sweep(motion_lidar3d(sim), 5, 2, true);
  }
  // The first sweep reaches back to the start, before which the robot stood still at t = 0.
  Simulation first = make_sim(moving_world(5, 2, "motion_distortion: true"));
  first.step();
  expect_analytic_sweep(motion_lidar3d(first), 5, 2, true);
}

TEST(Lidar3dMotion, SweepsLongerThanAStepInterpolateBetweenSteps) {
  // step 0.02 s, 10 Hz rotation: one sweep spans five steps, sampled every fifth step (and at
  // the first step, whose sweep reaches back before the start).
  std::string yaml = moving_world(10, 1, "motion_distortion: true");
  yaml.replace(yaml.find("step_time: 0.1"), 14, "step_time: 0.02");
  Simulation sim = make_sim(yaml);
  int samples = 0;
  for (int k = 0; k < 25; ++k) {
    sim.step();
    if (sim.sampled().empty()) continue;
    ++samples;
    expect_analytic_sweep(motion_lidar3d(sim), 10, 1, true);
  }
  EXPECT_EQ(samples, 6);
}

// ---- media ----------------------------------------------------------------------------------

std::string smoke_world(const std::string& lidar_keys, const std::string& media) {
  return R"(
world: {width: 60, height: 60, offset: [-30, -30]}
robot:
  - kinematics: {name: diff}
    state: [0, 0, 0]
    static: true
    sensors:
      - {name: lidar3d, offset: [0, 0, 1], )" +
         lidar_keys + R"(}
obstacle:
  - {shape: {name: linestring, vertices: [[12, -10], [12, 10]]}, state: [0, 0, 0], height: 10}
media:
)" + media;
}

TEST(Lidar3dMedia, SeedExampleGivesAPointAtTheEntryWithIntensityZero) {
  const std::string cell = "  - cells: [{position: [8, 0, 1], radius: 3, density: 0.8}]\n";
  Simulation sim = make_sim(smoke_world("vertical_angles: [0], number: 4", cell));
  sim.step();
  const LidarSweep& s = motion_lidar3d(sim).sweep();
  ASSERT_EQ(s.points.size(), 1u);         // only +x meets anything
  EXPECT_NEAR(s.points[0].x, 5.0, 1e-6);  // 8 - 3, not the wall at 12
  EXPECT_EQ(s.points[0].intensity, 0.0f);
  EXPECT_EQ(s.hit_object[0], -1);
  EXPECT_EQ(s.hit_medium[0], 0);
  EXPECT_NEAR((s.points_world[0] - Eigen::Vector3d(5, 0, 1)).norm(), 0.0, 1e-12);
  // Entry closer than range_min: the ray is blocked and gives no point (not the wall).
  Simulation blind = make_sim(smoke_world("vertical_angles: [0], number: 4, range_min: 6", cell));
  blind.step();
  EXPECT_TRUE(motion_lidar3d(blind).sweep().points.empty());
  // Thin smoke (below the threshold) or interference off: the wall, intensity 1.
  Simulation thin = make_sim(smoke_world("vertical_angles: [0], number: 4",
                                         "  - cells: [{position: [8, 0, 1], radius: 3, "
                                         "density: 0.04}]\n"));
  thin.step();
  ASSERT_EQ(motion_lidar3d(thin).sweep().points.size(), 1u);
  EXPECT_NEAR(motion_lidar3d(thin).sweep().points[0].x, 12.0, 1e-6);
  EXPECT_EQ(motion_lidar3d(thin).sweep().points[0].intensity, 1.0f);
  // Inside a cell: entry 0, a point at the sensor (range_min 0).
  Simulation inside = make_sim(smoke_world("vertical_angles: [0], number: 4",
                                           "  - cells: [{position: [0, 0, 1], radius: 1, "
                                           "density: 1}]\n"));
  inside.step();
  ASSERT_EQ(motion_lidar3d(inside).sweep().points.size(), 4u);
  for (const LidarPoint& p : motion_lidar3d(inside).sweep().points) {
    EXPECT_EQ(motion_range_of(p), 0.0);
    EXPECT_EQ(p.intensity, 0.0f);
  }
}

TEST(Lidar3dMedia, TiltedSensorAmongRandomCellsMatchesABruteForce) {
  RandomStream rng(42);
  std::string cells = "  - cells:\n";
  std::vector<std::pair<Eigen::Vector3d, double>> spheres;
  for (int k = 0; k < 40; ++k) {
    const Eigen::Vector3d c(rng.uniform(-15, 15), rng.uniform(-15, 15), rng.uniform(-1, 4));
    const double r = rng.uniform(0.2, 2.0);
    cells += fmt::format("      - {{position: [{}, {}, {}], radius: {}, density: 1}}\n", c.x(),
                         c.y(), c.z(), r);
    spheres.emplace_back(c, r);
  }
  const std::string yaml = std::string("ground: {z: 0}\n") + R"(
world: {width: 60, height: 60, offset: [-30, -30]}
robot:
  - kinematics: {name: diff}
    state: [0.5, -0.25, 0.4]
    static: true
    sensors:
      - {name: lidar3d, channels: 12, vertical_fov: [-0.4, 0.3], number: 360, range_min: 0.5,
         range_max: 14, offset: [0.2, 0.1, 1.5], rpy: [0.15, -0.2, 0.3]}
media:
)" + cells;
  Simulation sim = make_sim(yaml);
  sim.step();
  const Lidar3d& l = motion_lidar3d(sim);
  const Pose3d& pose = l.sweep().pose;
  const Eigen::Matrix3d r = pose.orientation.toRotationMatrix();
  std::size_t next = 0, cut = 0;
  for (std::size_t c = 0; c < l.columns(); ++c) {
    for (std::size_t k = 0; k < l.channels(); ++k) {
      const double e = l.vertical_angles()[k], a = l.azimuths()[c];
      const Eigen::Vector3d d =
          r * Eigen::Vector3d(std::cos(e) * std::cos(a), std::cos(e) * std::sin(a), std::sin(e));
      const Eigen::Vector3d& o = pose.position;
      const double ground = d.z() < 0 ? -o.z() / d.z() : kInf;
      double smoke = kInf;
      for (const auto& [center, radius] : spheres) {
        smoke = std::min(smoke, media::entry_distance(o, d, center, radius));
      }
      const double t = std::min(ground, smoke);
      if (!(t >= 0.5 && t <= 14.0)) continue;
      ASSERT_LT(next, l.sweep().points.size());
      const LidarPoint& p = l.sweep().points[next++];
      ASSERT_EQ(p.ring, k);
      ASSERT_NEAR(motion_range_of(p), t, 1e-5);
      ASSERT_EQ(p.intensity, smoke <= ground ? 0.0f : 1.0f);
      cut += smoke <= ground;
    }
  }
  EXPECT_EQ(next, l.sweep().points.size());
  EXPECT_GT(cut, 100u);
}

}  // namespace
}  // namespace ubot
