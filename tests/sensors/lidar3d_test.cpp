// lidar3d (SPEC §4): XYZIRT layout, channel tables and presets, analytic ranges of 3D rays
// against the ground, primitives and meshes, range limits, noise, media cuts, motion distortion.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <numbers>

#include "sensor_test_support.h"
#include "ubot/sensors/lidar3d/lidar3d.h"

namespace ubot {
namespace {

using testing_support::make_sim;
constexpr double kPi = std::numbers::pi;
constexpr double kDeg = kPi / 180.0;

const Lidar3d& lidar3d(const Simulation& sim, int i = 0) {
  return testing_support::sensor_as<Lidar3d>(sim, i);
}

// A static robot at the origin carrying one lidar3d (`keys`), above a ground plane at z = 0,
// with `obstacles` (an `obstacle:` list body) around it.
std::string lidar3d_world(const std::string& keys, const std::string& obstacles = "",
                          const std::string& extra = "ground: {z: 0}\n") {
  return testing_support::static_robot_world("name: lidar3d, " + keys, obstacles, extra);
}

// The direction of ring k, column c in the sensor frame.
Eigen::Vector3d direction(const Lidar3d& l, std::size_t k, std::size_t c) {
  const double e = l.vertical_angles()[k], a = l.azimuths()[c];
  return {std::cos(e) * std::cos(a), std::cos(e) * std::sin(a), std::sin(e)};
}

double range_of(const LidarPoint& p) { return std::sqrt(p.x * p.x + p.y * p.y + p.z * p.z); }

TEST(Lidar3dLayout, PointsAreXyzirtRecordsOf24Bytes) {
  EXPECT_EQ(sizeof(LidarPoint), 24u);
  EXPECT_EQ(offsetof(LidarPoint, x), 0u);
  EXPECT_EQ(offsetof(LidarPoint, y), 4u);
  EXPECT_EQ(offsetof(LidarPoint, z), 8u);
  EXPECT_EQ(offsetof(LidarPoint, intensity), 12u);
  EXPECT_EQ(offsetof(LidarPoint, ring), 16u);
  EXPECT_EQ(offsetof(LidarPoint, time), 20u);
}

TEST(Lidar3dChannels, ExplicitListsAreSortedIntoRingsAndFovsSpreadEvenly) {
  Simulation a = make_sim(lidar3d_world("vertical_angles_deg: [10, -30, 0, 2.5], number: 8"));
  EXPECT_EQ(lidar3d(a).vertical_angles(),
            (std::vector<double>{-30 * kDeg, 0.0, 2.5 * kDeg, 10 * kDeg}));
  Simulation b = make_sim(lidar3d_world("vertical_angles: [0.1, -0.2], number: 8"));
  EXPECT_EQ(lidar3d(b).vertical_angles(), (std::vector<double>{-0.2, 0.1}));
  Simulation c = make_sim(lidar3d_world("channels: 5, vertical_fov: [-0.4, 0.2], number: 8"));
  const std::vector<double>& v = lidar3d(c).vertical_angles();
  ASSERT_EQ(v.size(), 5u);
  for (int k = 0; k < 5; ++k) EXPECT_NEAR(v[k], -0.4 + 0.15 * k, 1e-15);
  EXPECT_EQ(v.front(), -0.4);
  EXPECT_EQ(v.back(), 0.2);
  Simulation d = make_sim(lidar3d_world("channels: 3, vertical_fov_deg: [-20, 20], number: 8"));
  EXPECT_NEAR(lidar3d(d).vertical_angles()[0], -20 * kDeg, 1e-15);
  EXPECT_NEAR(lidar3d(d).vertical_angles()[1], 0.0, 1e-15);
  // Horizontal: a full circle of N distinct columns 2π/N apart, or a sector with its ends.
  Simulation e = make_sim(lidar3d_world("channels: 1, horizontal_resolution_deg: 0.2"));
  ASSERT_EQ(lidar3d(e).columns(), 1800u);
  EXPECT_EQ(lidar3d(e).azimuths().front(), -kPi);
  EXPECT_NEAR(lidar3d(e).azimuths()[1] - lidar3d(e).azimuths()[0], 0.2 * kDeg, 1e-15);
  Simulation f =
      make_sim(lidar3d_world("channels: 1, angle_range: 1.0, horizontal_resolution: 0.25"));
  EXPECT_EQ(lidar3d(f).azimuths(), (std::vector<double>{-0.5, -0.25, 0.0, 0.25, 0.5}));
}

TEST(Lidar3dPresets, PublishedLayouts) {
  Simulation vlp = make_sim(lidar3d_world("preset: VLP-16"));
  const Lidar3d& l = lidar3d(vlp);
  ASSERT_EQ(l.channels(), 16u);
  for (int k = 0; k < 16; ++k) EXPECT_NEAR(l.vertical_angles()[k], (-15.0 + 2 * k) * kDeg, 1e-15);
  EXPECT_EQ(l.columns(), 1800u);
  EXPECT_EQ(l.params().range_max, 100.0);
  EXPECT_EQ(l.params().rotation_rate_hz, 10.0);
  // VLP-32C: the manual's non-uniform table, -25 to +15 degrees, densest near the horizon.
  Simulation v32 = make_sim(lidar3d_world("preset: VLP-32C"));
  const std::vector<double>& a = lidar3d(v32).vertical_angles();
  ASSERT_EQ(a.size(), 32u);
  EXPECT_NEAR(a.front(), -25 * kDeg, 1e-15);
  EXPECT_NEAR(a[1], -15.639 * kDeg, 1e-15);
  EXPECT_NEAR(a.back(), 15 * kDeg, 1e-15);
  EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
  EXPECT_EQ(lidar3d(v32).params().range_max, 200.0);
  // Ouster OS1 (rev 6/7): 45 degrees, uniform; Gen 1 64-channel: 33.2 degrees.
  for (const auto& [preset, channels, half] :
       {std::tuple{"OS1-32", 32, 22.5}, std::tuple{"OS1-64", 64, 22.5},
        std::tuple{"OS1-128", 128, 22.5}, std::tuple{"OS1-64-Gen1", 64, 16.6},
        std::tuple{"OS1-16-Gen1", 16, 16.6}}) {
    Simulation os = make_sim(lidar3d_world(fmt::format("preset: {}", preset)));
    const std::vector<double>& v = lidar3d(os).vertical_angles();
    ASSERT_EQ(v.size(), static_cast<std::size_t>(channels)) << preset;
    for (int k = 0; k < channels; ++k) {
      EXPECT_NEAR(v[k], (-half + 2 * half * k / (channels - 1)) * kDeg, 1e-15) << preset;
    }
    EXPECT_EQ(lidar3d(os).columns(), 1024u);
    EXPECT_EQ(lidar3d(os).params().range_max, 120.0);
  }
  // Keys given override the preset's.
  Simulation o = make_sim(lidar3d_world("preset: OS1-64, number: 512, range_max: 50, channels: 3"));
  EXPECT_EQ(lidar3d(o).columns(), 512u);
  EXPECT_EQ(lidar3d(o).params().range_max, 50.0);
  EXPECT_EQ(lidar3d(o).vertical_angles(), (std::vector<double>{-22.5 * kDeg, 0.0, 22.5 * kDeg}));
}

TEST(Lidar3dRanges, DownwardChannelsMeetTheGroundAtHeightOverSine) {
  // Sensor 1.2 m above the ground (object z 0.2 + mount 1.0), turned by the robot's yaw.
  Simulation sim = make_sim(R"(
world: {width: 100, height: 100, offset: [-50, -50]}
ground: {z: 0}
robot:
  - kinematics: {name: diff}
    state: [3, -2, 0.7]
    z: 0.2
    static: true
    sensors: [{name: lidar3d, preset: VLP-16, offset: [0.1, 0, 1.0]}]
)");
  sim.step();
  const Lidar3d& l = lidar3d(sim);
  const LidarSweep& s = l.sweep();
  ASSERT_EQ(s.points.size(), 8u * 1800u);  // the 8 downward channels, every column
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const LidarPoint& p = s.points[i];
    ASSERT_LT(p.ring, 8);
    const double expected = 1.2 / std::sin(-l.vertical_angles()[p.ring]);
    EXPECT_NEAR(range_of(p), expected, 2e-6 * expected);  // float coordinates
    EXPECT_NEAR(p.z, -1.2, 1e-5);
    EXPECT_EQ(p.intensity, 1.0f);
    EXPECT_EQ(s.hit_object[i], -1);                  // the ground is no object
    EXPECT_NEAR(s.points_world[i].z(), 0.0, 1e-12);  // the world view, in double
  }
  EXPECT_NEAR(s.pose.position.x(), 3 + 0.1 * std::cos(0.7), 1e-15);
  EXPECT_NEAR(s.pose.position.z(), 1.2, 1e-15);
}

TEST(Lidar3dRanges, BoxesSpheresCylindersAndMeshesAtTheAnalyticDistance) {
  // One horizontal channel at z = 0.5, looking along +x, +y, -x, -y at four shapes.
  const std::string mesh = std::string(UBOT_SOURCE_DIR) + "/examples/meshes/cube.obj";
  Simulation sim = make_sim(
      lidar3d_world("vertical_angles: [0], number: 4, offset: [0, 0, 0.5]", fmt::format(R"(
  - {{shape: {{name: box, size: [1, 2, 1]}}, state: [5, 0, 0]}}
  - {{shape: {{name: sphere, radius: 0.5}}, state: [0, 7, 0]}}
  - {{shape: {{name: cylinder, radius: 0.25, height: 0.6}}, state: [-4, 0, 0]}}
  - {{shape: {{name: mesh, file: {}, scale: 2}}, state: [0, -6, 0.3]}}
)",
                                                                                        mesh)));
  sim.step();
  const Lidar3d& l = lidar3d(sim);
  ASSERT_EQ(l.azimuths(), (std::vector<double>{-kPi, -kPi / 2, 0.0, kPi / 2}));
  const LidarSweep& s = l.sweep();
  ASSERT_EQ(s.points.size(), 4u);
  EXPECT_NEAR(range_of(s.points[0]), 4.0 - 0.25, 1e-6);  // -x: cylinder (z 0..0.6)
  EXPECT_EQ(s.hit_object[0], 3);
  // -y: a 2 m cube mesh [-1, 1]^2 x [0, 2] turned by 0.3 rad: the face x' = 1 or y' = 1.
  const double c = std::cos(0.3), sn = std::sin(0.3);
  EXPECT_NEAR(range_of(s.points[1]), 6.0 - 1.0 / std::max(std::abs(c), std::abs(sn)), 1e-6);
  EXPECT_EQ(s.hit_object[1], 4);
  EXPECT_NEAR(range_of(s.points[2]), 4.5, 1e-6);  // +x: box face at x = 4.5
  EXPECT_EQ(s.hit_object[2], 1);
  EXPECT_NEAR(range_of(s.points[3]), 7.0 - std::sqrt(0.25 - 0.0), 1e-6);  // +y: sphere equator
  EXPECT_EQ(s.hit_object[3], 2);
  for (std::size_t i = 0; i < 4; ++i) {
    const Eigen::Vector3d p(s.points[i].x, s.points[i].y, s.points[i].z);
    EXPECT_NEAR((s.points_world[i] - (s.pose.position + p)).norm(), 0.0, 1e-5);
  }
}

TEST(Lidar3dRanges, MovingSpheresMeshesAndBoxesAreSeenWhereTheyAre) {
  // Three obstacles drive away from the sensor along +x, -x and +y at 1 m/s (omni, world
  // frame); a horizontal channel 0.5 m up sees each at its distance after every step.
  const std::string mesh = std::string(UBOT_SOURCE_DIR) + "/examples/meshes/cube.obj";
  Simulation sim = make_sim(
      lidar3d_world("vertical_angles: [0], number: 4, offset: [0, 0, 0.5]", fmt::format(R"(
  - {{shape: {{name: sphere, radius: 0.5}}, state: [5, 0, 0], kinematics: {{name: omni}},
     velocity: [1, 0], behavior: {{name: dash}}, goal: [40, 0, 0], vel_max: [1, 1]}}
  - {{shape: {{name: mesh, file: {}}}, state: [-5, 0, 3.141592653589793],
     kinematics: {{name: omni}}, behavior: {{name: dash}}, goal: [-40, 0, 0], vel_max: [1, 1]}}
  - {{shape: {{name: box, size: [1, 1, 1]}}, state: [0, 5, 1.5707963267948966],
     kinematics: {{name: omni}}, behavior: {{name: dash}}, goal: [0, 40, 0], vel_max: [1, 1]}}
)",
                                                                                        mesh)));
  for (int k = 1; k <= 5; ++k) {
    sim.step();
    const LidarSweep& s = lidar3d(sim).sweep();
    ASSERT_EQ(s.points.size(), 3u) << "step " << k;
    double x[3];
    for (int i = 0; i < 3; ++i) x[i] = sim.world().object(i + 1).state[i == 2 ? 1 : 0];
    EXPECT_GT(x[0], 5.0 + 0.05 * k);                        // they move
    EXPECT_NEAR(range_of(s.points[0]), -x[1] - 0.5, 1e-6);  // -x: the mesh cube
    EXPECT_NEAR(range_of(s.points[1]), x[0] - 0.5, 1e-6);   // +x: the sphere
    EXPECT_NEAR(range_of(s.points[2]), x[2] - 0.5, 1e-6);   // +y: the box
  }
}

TEST(Lidar3dRanges, HeightlessObjectsAreOneMetreTallFor3dSensorsOnly) {
  // A rectangle without `height`: lidar2d scans at 3 m see it (it reaches every scan plane),
  // lidar3d rays at 0.5 m see it, at 1.5 m pass over it. With height 2 the 1.5 m ray sees it and
  // the 3 m scan passes over it.
  for (const auto& [height, seen_high] : {std::pair{"", false}, std::pair{", height: 2", true}}) {
    Simulation sim = make_sim(fmt::format(R"(
world: {{width: 40, height: 40, offset: [-20, -20]}}
robot:
  - kinematics: {{name: diff}}
    state: [0, 0, 0]
    static: true
    height: 0.3
    sensors:
      - {{name: lidar3d, vertical_angles: [0], number: 1, offset: [0, 0, 0.5]}}
      - {{name: lidar3d, vertical_angles: [0], number: 1, offset: [0, 0, 1.5]}}
      - {{name: lidar2d, number: 1, z: 3}}
obstacle:
  - {{shape: {{name: rectangle, length: 1, width: 1}}, state: [5, 0, 0]{}}}
)",
                                          height));
    sim.step();
    ASSERT_EQ(lidar3d(sim, 0).sweep().points.size(), 1u);
    EXPECT_NEAR(range_of(lidar3d(sim, 0).sweep().points[0]), 4.5, 1e-6);
    EXPECT_EQ(lidar3d(sim, 1).sweep().points.size(), seen_high ? 1u : 0u) << height;
    EXPECT_EQ(testing_support::lidar(sim, 2).scan().ranges[0], seen_high ? 10.0 : 4.5);
    EXPECT_EQ(&sim.scene3d() != &sim.scene(), !seen_high);  // a 3D scene only when it differs
  }
}

TEST(Lidar3dRanges, OwnBodyIsInvisibleAndRangeLimitsDropPoints) {
  // The robot's own 2 m tall body surrounds the sensor; walls at 3 m and 8 m, 2 m tall.
  const std::string walls = R"(
  - {shape: {name: linestring, vertices: [[3, -50], [3, 50]]}, state: [0, 0, 0], height: 2}
  - {shape: {name: linestring, vertices: [[-8, -50], [-8, 50]]}, state: [0, 0, 0], height: 2}
)";
  Simulation sim =
      make_sim(lidar3d_world("vertical_angles: [0], number: 2, offset: [0, 0, 1], range_min: 4, "
                             "range_max: 10",
                             walls, ""));
  sim.step();
  const LidarSweep& s = lidar3d(sim).sweep();
  ASSERT_EQ(s.points.size(), 1u);  // -x at 8 m; +x at 3 m < range_min: blocked, no point
  EXPECT_NEAR(s.points[0].x, -8.0, 1e-6);
  Simulation near =
      make_sim(lidar3d_world("vertical_angles: [0], number: 2, offset: [0, 0, 1], "
                             "range_max: 7.5",
                             walls, ""));
  near.step();
  ASSERT_EQ(lidar3d(near).sweep().points.size(), 1u);  // -x at 8 m > range_max: no return
  EXPECT_NEAR(lidar3d(near).sweep().points[0].x, 3.0, 1e-6);
}

TEST(Lidar3dRanges, FourColumnsOfOneChannelFillAQuarterOfAPacket) {
  // 4 rays make one 16-lane Embree packet with 12 lanes unused, which Embree's AVX2 and SSE
  // kernels read whatever the valid mask says (issue 10: garbage there asserted or crashed).
  // The per-ISA test runs and `make valgrind-test` run this with those kernels.
  const std::string walls = R"(
  - {shape: {name: linestring, vertices: [[3, -50], [3, 50]]}, state: [0, 0, 0], height: 2}
  - {shape: {name: linestring, vertices: [[-50, 4], [50, 4]]}, state: [0, 0, 0], height: 2}
  - {shape: {name: linestring, vertices: [[-5, -50], [-5, 50]]}, state: [0, 0, 0], height: 2}
  - {shape: {name: linestring, vertices: [[-50, -6], [50, -6]]}, state: [0, 0, 0], height: 2}
)";
  Simulation sim = make_sim(lidar3d_world(
      "vertical_angles: [0], number: 4, offset: [0, 0, 1], range_max: 20", walls, ""));
  sim.step();
  const Lidar3d& l = lidar3d(sim);
  ASSERT_EQ(l.columns(), 4u);
  const LidarSweep& s = l.sweep();
  ASSERT_EQ(s.points.size(), 4u);
  const double range[4] = {5, 6, 3, 4};  // the walls at -x, -y, +x, +y
  for (std::size_t c = 0; c < 4; ++c) {
    const double a = -kPi + kPi / 2 * static_cast<double>(c);
    ASSERT_NEAR(l.azimuths()[c], a, 1e-15);
    EXPECT_NEAR(range_of(s.points[c]), range[c], 1e-6) << "column " << c;
    EXPECT_NEAR(s.points[c].x, range[c] * std::cos(a), 1e-6) << "column " << c;
    EXPECT_NEAR(s.points[c].y, range[c] * std::sin(a), 1e-6) << "column " << c;
    EXPECT_NEAR(s.points[c].z, 0.0, 1e-6) << "column " << c;
  }
}

TEST(Lidar3dTiming, RingsAndTimesDescribeTheSweep) {
  Simulation sim =
      make_sim(lidar3d_world("preset: VLP-16, rotation_rate_hz: 20, offset: [0, 0, 1]"));
  sim.step();
  const Lidar3d& l = lidar3d(sim);
  const double period = 0.05;
  EXPECT_NEAR(l.sweep_duration(), period * 1799 / 1800, 1e-15);
  EXPECT_EQ(l.header().stamp, seconds_to_nanos(0.1));
  EXPECT_EQ(l.sweep().sweep_start, seconds_to_nanos(0.1 - period * 1799 / 1800));
  const LidarSweep& s = l.sweep();
  std::size_t i = 0;
  for (std::size_t c = 0; c < l.columns(); ++c) {
    for (std::uint16_t ring = 0; ring < 8; ++ring, ++i) {  // downward rings hit the ground
      ASSERT_EQ(s.points[i].ring, ring);
      ASSERT_FLOAT_EQ(s.points[i].time, static_cast<float>(period * c / 1800));
      // The point lies along ring `ring`'s direction in column c.
      const Eigen::Vector3d d = direction(l, ring, c);
      const Eigen::Vector3d p(s.points[i].x, s.points[i].y, s.points[i].z);
      ASSERT_NEAR((p.normalized() - d).norm(), 0.0, 1e-6);
    }
  }
  EXPECT_EQ(i, s.points.size());
}

TEST(Lidar3dNoise, RangeNoiseHasTheConfiguredSigmaOverOneHundredThousandSamples) {
  const double sigma = 0.04;
  Simulation sim =
      make_sim(lidar3d_world(fmt::format("preset: VLP-16, noise: true, std: {}, "
                                         "offset: [0, 0, 2]",
                                         sigma)));
  std::vector<double> errors;
  while (errors.size() < 100000) {
    sim.step();
    const Lidar3d& l = lidar3d(sim);
    for (const LidarPoint& p : l.sweep().points) {
      errors.push_back(range_of(p) - 2.0 / std::sin(-l.vertical_angles()[p.ring]));
    }
  }
  double mean = 0, ss = 0;
  for (double e : errors) mean += e;
  mean /= errors.size();
  for (double e : errors) ss += (e - mean) * (e - mean);
  const double stddev = std::sqrt(ss / (errors.size() - 1));
  EXPECT_NEAR(stddev, sigma, 0.02 * sigma);
  EXPECT_NEAR(mean, 0.0, 5 * sigma / std::sqrt(errors.size()));
  // Same seed, same points.
  Simulation again =
      make_sim(lidar3d_world(fmt::format("preset: VLP-16, noise: true, std: {}, "
                                         "offset: [0, 0, 2]",
                                         sigma)));
  again.step();
  Simulation first =
      make_sim(lidar3d_world(fmt::format("preset: VLP-16, noise: true, std: {}, "
                                         "offset: [0, 0, 2]",
                                         sigma)));
  first.step();
  EXPECT_EQ(0,
            std::memcmp(lidar3d(again).sweep().points.data(), lidar3d(first).sweep().points.data(),
                        lidar3d(first).sweep().points.size() * sizeof(LidarPoint)));
}

}  // namespace
}  // namespace ubot
