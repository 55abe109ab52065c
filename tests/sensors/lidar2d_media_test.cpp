// lidar2d in smoke (SPEC §2, §8): beams are cut where they enter a medium cell.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>

#include "sensor_test_support.h"
#include "ubot/core/numbers.h"
#include "ubot/core/random.h"

namespace ubot {
namespace {

using testing_support::lidar;
using testing_support::make_sim;

// "k: v, k: v" lidar keys over the defaults (keys given win).
std::string lidar_keys_over_defaults(const std::string& keys) {
  std::string out = keys;
  for (const char* d : {"range_max: 20", "angle_range: 0.2", "number: 3"}) {
    const std::string key = std::string(d).substr(0, std::string(d).find(':') + 1);
    if (keys.find(key) == std::string::npos) out += (out.empty() ? "" : ", ") + std::string(d);
  }
  return out;
}

// The seed's set-up: a static lidar at the origin facing +x (by default 3 beams, the centre one
// straight ahead), a wall 12 m ahead, and `media` (a `media:` list) / lidar keys / obstacles.
std::string media_world(const std::string& media, const std::string& lidar_keys = "",
                        const std::string& obstacles = "") {
  return R"(
world: {width: 40, height: 40, offset: [-20, -20]}
robot:
  - kinematics: {name: diff}
    shape: {name: circle, radius: 0.3}
    state: [0, 0, 0]
    static: true
    sensors:
      - {name: lidar2d, )" +
         lidar_keys_over_defaults(lidar_keys) + R"(}
obstacle:
  - {shape: {name: linestring, vertices: [[12, -10], [12, 10]]}, state: [0, 0, 0]}
)" + obstacles +
         (media.empty() ? "" : "media:\n" + media);
}

const char* kSeedSmoke =
    "  - cells: [{position: [8, 0, 0], radius: 3.0, density: 0.8, edge_factor: 1.0}]\n";

double centre_range(const std::string& yaml) {
  Simulation sim = make_sim(yaml);
  sim.step();
  return lidar(sim).scan().ranges[1];
}

TEST(Lidar2dMedia, SeedWorkedExampleCutsAtTheEntryPoint) {
  Simulation sim = make_sim(media_world(kSeedSmoke));
  sim.step();
  const LaserScan& s = lidar(sim).scan();
  EXPECT_EQ(s.ranges[1], 5.0);  // 8 - 3, not the wall at 12
  EXPECT_TRUE(s.hit[1]);
  EXPECT_TRUE(s.valid[1]);
  EXPECT_EQ(s.intensities[1], 0.0f);
  EXPECT_EQ(s.hit_object[1], -1);
  EXPECT_EQ(s.hit_medium[1], 0);
  bool hit = false;
  EXPECT_EQ(lidar(sim).range(1, &hit), 5.0);  // uBot-style access
  EXPECT_TRUE(hit);
  EXPECT_FLOAT_EQ(lidar(sim).to_message().intensities[1], 0.0f);
  // The side beams (±0.1 rad) enter the sphere obliquely: |t d - (8, 0)| = 3.
  const double b = 8 * std::cos(0.1), expected = b - std::sqrt(b * b - 55.0);
  EXPECT_NEAR(s.ranges[0], expected, 1e-12);
  EXPECT_NEAR(s.ranges[2], expected, 1e-12);
  // Without smoke the wall is seen, with intensity 1.
  Simulation clear = make_sim(media_world(""));
  clear.step();
  EXPECT_EQ(lidar(clear).scan().ranges[1], 12.0);
  EXPECT_EQ(lidar(clear).scan().intensities[1], 1.0f);
  EXPECT_EQ(lidar(clear).scan().hit_medium[1], -1);
  EXPECT_EQ(lidar(clear).scan().hit_object[1], 1);
}

TEST(Lidar2dMedia, SpecRulesDecideWhichCellsCut) {
  auto cell = [](const std::string& keys) {
    return "  - cells: [{position: [8, 0, 0], radius: 3.0, " + keys + "}]\n";
  };
  // Effective density = density x edge_factor, against the threshold (0.05 by default).
  EXPECT_EQ(centre_range(media_world(cell("density: 0.04"))), 12.0);
  EXPECT_EQ(centre_range(media_world(cell("density: 0.05"))), 5.0);
  EXPECT_EQ(centre_range(media_world(cell("density: 0.8, edge_factor: 0.05"))), 12.0);
  EXPECT_EQ(centre_range(media_world(kSeedSmoke, "smoke_density_threshold: 0.9")), 12.0);
  // Radius scale 0.5: radius 1.5 -> 6.5 m; the scale is at least 0.01, a radius at least 1 cm.
  EXPECT_EQ(centre_range(media_world(kSeedSmoke, "smoke_cell_radius_scale: 0.5")), 6.5);
  EXPECT_NEAR(centre_range(media_world(kSeedSmoke, "smoke_cell_radius_scale: 0")), 8.0 - 0.03,
              1e-12);
  EXPECT_NEAR(
      centre_range(media_world("  - cells: [{position: [8, 0], radius: 0.001, density: 1}]\n")),
      8.0 - 0.01, 1e-12);
  // Inactive media, media without cells, and switched-off interference: the wall.
  EXPECT_EQ(centre_range(media_world(
                "  - {active: false, cells: [{position: [8, 0], radius: 3, density: 0.8}]}\n")),
            12.0);
  EXPECT_EQ(centre_range(media_world("  - {cells: []}\n")), 12.0);
  EXPECT_EQ(centre_range(media_world(kSeedSmoke, "enable_smoke_interference: false")), 12.0);
}

TEST(Lidar2dMedia, NearestOfSurfaceAndMediumWins) {
  // Smoke behind the wall does nothing; smoke straddling the wall cuts in front of it.
  EXPECT_EQ(centre_range(media_world("  - cells: [{position: [16, 0], radius: 3, density: 1}]\n")),
            12.0);
  EXPECT_EQ(centre_range(media_world("  - cells: [{position: [13, 0], radius: 2, density: 1}]\n")),
            11.0);
  // Several cells: the first entered.
  EXPECT_EQ(centre_range(media_world("  - cells: [{position: [9, 0], radius: 1, density: 1},\n"
                                     "              {position: [6, 0], radius: 1, density: 1}]\n")),
            5.0);
  // Beyond range_max: no return at all.
  Simulation far = make_sim(media_world(kSeedSmoke, "range_max: 4.5"));
  far.step();
  EXPECT_EQ(lidar(far).scan().ranges[1], 4.5);
  EXPECT_FALSE(lidar(far).scan().hit[1]);
  EXPECT_FALSE(lidar(far).scan().valid[1]);
}

TEST(Lidar2dMedia, SensorInsideACellReadsZeroThenTheRangeMinRule) {
  const std::string inside = "  - cells: [{position: [0.5, 0], radius: 2, density: 1}]\n";
  Simulation blind = make_sim(media_world(inside, "range_min: 0.2"));
  blind.step();
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(lidar(blind).scan().ranges[i], 0.2);  // entry 0 < range_min: reads range_min...
    EXPECT_FALSE(lidar(blind).scan().valid[i]);     // ...invalid...
    EXPECT_TRUE(lidar(blind).scan().hit[i]);        // ...and blocked
  }
  EXPECT_EQ(lidar(blind).to_message(true).ranges[1], -std::numeric_limits<float>::infinity());
  Simulation zero = make_sim(media_world(inside));
  zero.step();
  EXPECT_EQ(lidar(zero).scan().ranges[1], 0.0);
  EXPECT_TRUE(lidar(zero).scan().valid[1]);
  EXPECT_EQ(lidar(zero).scan().intensities[1], 0.0f);
}

TEST(Lidar2dMedia, ScanPlaneHeightMeetsTheCellInASmallerDisc) {
  // SPEC §1: the plane z = 0.5 (sensor z) meets a cell centred at height 2.5 with radius 3 in a
  // disc of radius sqrt(9 - 4) = sqrt(5).
  const std::string high = "  - cells: [{position: [8, 0, 2.5], radius: 3, density: 1}]\n";
  EXPECT_NEAR(centre_range(media_world(high, "z: 0.5")), 8.0 - std::sqrt(5.0), 1e-12);
  EXPECT_EQ(centre_range(media_world(high, "z: -0.51")), 12.0);  // plane below the sphere
}

TEST(Lidar2dMedia, RangeNoiseAppliesToMediaCutsAsToSurfaces) {
  Simulation sim = make_sim(media_world(kSeedSmoke, "noise: true, std: 0.1, number: 1"));
  double sum = 0, sum2 = 0;
  const int n = 20000;
  for (int k = 0; k < n; ++k) {
    sim.step();
    ASSERT_EQ(lidar(sim).scan().hit_medium[0], 0);
    const double e = lidar(sim).scan().ranges[0] - 5.0;
    sum += e;
    sum2 += e * e;
  }
  const double mean = sum / n, sd = std::sqrt(sum2 / n - mean * mean);
  EXPECT_NEAR(mean, 0.0, 5 * 0.1 / std::sqrt(n));
  EXPECT_NEAR(sd, 0.1, 0.1 * 0.03);
}

TEST(Lidar2dMedia, LegacyTaggedObjectsAreOneCellFromTheirShape) {
  // An unobstructed 2 x 1 box tagged as a smoke volume, 8 m ahead: its bounding circle (radius
  // sqrt(1.25)) cuts the beam, with the object's density.
  const std::string box =
      "  - {shape: {name: rectangle, length: 2, width: 1}, state: [8, 0, 0], unobstructed: true,\n"
      "     tags: [AgentSensor.SmokeVolume], density: %}\n";
  auto with_density = [&](const char* d) {
    std::string b = box;
    b.replace(b.find('%'), 1, d);
    return b;
  };
  const double entry = 8.0 - std::sqrt(1.25);
  EXPECT_NEAR(centre_range(media_world("", "", with_density("0.8"))), entry, 1e-12);
  EXPECT_EQ(centre_range(media_world("", "", with_density("0.01"))), 12.0);  // below the threshold
  // smoke_volume_tag names the tag; "" (or None) switches only the legacy path off.
  EXPECT_EQ(centre_range(media_world("", "smoke_volume_tag: ''", with_density("0.8"))), 12.0);
  EXPECT_EQ(centre_range(media_world(kSeedSmoke, "smoke_volume_tag: None", with_density("0.8"))),
            5.0);
  EXPECT_EQ(centre_range(media_world("", "smoke_volume_tag: Fog", with_density("0.8"))), 12.0);
  std::string fog = with_density("0.8");
  fog.replace(fog.find("AgentSensor.SmokeVolume"), 23, "Fog");
  EXPECT_NEAR(centre_range(media_world("", "smoke_volume_tag: Fog", fog)), entry, 1e-12);
  EXPECT_EQ(centre_range(media_world("", "", fog)), 12.0);
  // A moving tagged object carries its cell along.
  Simulation sim =
      make_sim(media_world("", "",
                           "  - {kinematics: {name: omni}, shape: {name: circle, radius: 1},"
                           " state: [9, 0, 0], goal: [3, 0, 0], vel_max: [1, 1],"
                           " behavior: {name: dash}, unobstructed: true,"
                           " tags: [AgentSensor.SmokeVolume], density: 0.5}\n"));
  for (int k = 1; k <= 10; ++k) {
    sim.step();
    ASSERT_NEAR(lidar(sim).scan().ranges[1], 9.0 - 0.1 * k - 1.0, 1e-12) << k;
    ASSERT_EQ(sim.media().size(), 1u);
    EXPECT_EQ(sim.media()[0].legacy_tag, "AgentSensor.SmokeVolume");
    EXPECT_EQ(sim.media()[0].name, "obstacle_2");
  }
}

TEST(Lidar2dMedia, AnObjectFoundByBothPathsCountsOnce) {
  // The tagged object (bounding radius 1, entry at 7) also carries an attached medium of radius
  // 0.5 (entry at 7.5): the attached medium wins and the legacy cell is not collected.
  const std::string object =
      "  - {name: puff, shape: {name: circle, radius: 1}, state: [8, 0, 0], unobstructed: true,"
      " tags: [AgentSensor.SmokeVolume], density: 1}\n";
  EXPECT_EQ(centre_range(media_world("", "", object)), 7.0);
  Simulation sim = make_sim(media_world(
      "  - {attach: puff, cells: [{position: [0, 0], radius: 0.5, density: 1}]}\n", "", object));
  sim.step();
  EXPECT_EQ(lidar(sim).scan().ranges[1], 7.5);
  ASSERT_EQ(sim.media().size(), 1u);
  EXPECT_EQ(sim.media()[0].source_object, 2);
  EXPECT_TRUE(sim.media()[0].legacy_tag.empty());
  // Even an inactive attached medium speaks for its object (the seed: an actor implementing the
  // interface is ignored when its snapshot is inactive, not collected by tag instead).
  EXPECT_EQ(centre_range(media_world("  - {attach: puff, active: false, cells: []}\n", "", object)),
            12.0);
}

TEST(Lidar2dMedia, KeyframedSmokeDriftsAcrossTheBeam) {
  // A cell crossing the beam from y = -3 to y = 3 in 6 s: the centre beam is cut while
  // |y| < 1 (entry 8 - sqrt(1 - y^2)).
  Simulation sim =
      make_sim(media_world("  - cells: [{position: [8, -3], radius: 1, density: 1}]\n"
                           "    keyframes: [{t: 0}, {t: 6, position_offset: [0, 6]}]\n"));
  for (int k = 1; k <= 70; ++k) {
    sim.step();
    const double y = std::min(-3.0 + 0.1 * k, 3.0);
    const double r = lidar(sim).scan().ranges[1];
    if (std::abs(y) < 1.0 - 1e-9) {
      ASSERT_NEAR(r, 8.0 - std::sqrt(1.0 - y * y), 1e-9) << k;
    } else if (std::abs(y) > 1.0 + 1e-9) {
      ASSERT_EQ(r, 12.0) << k;
    }
  }
}

TEST(Lidar2dMedia, ManyCellsGiveThePerRayAnswerWithNoisyBeamDirections) {
  // 400 cells around a full-circle lidar with angle noise: every beam must read exactly what a
  // plain all-cells test along that beam gives (the culling loses nothing). The beams' actual
  // yaws are recovered from the points of a cell-free twin with the same noise stream.
  std::string media = "  - cells:\n";
  RandomStream rng(3);
  for (int i = 0; i < 400; ++i) {
    media += fmt::format("      - {{position: [{}, {}, {}], radius: {}, density: 1}}\n",
                         rng.uniform(-30, 30), rng.uniform(-30, 30), rng.uniform(-1, 1),
                         rng.uniform(0.1, 1.5));
  }
  const std::string keys =
      "range_max: 15, angle_range: 6.283185307179586, number: 720, noise: true, std: 0, "
      "angle_std: 0.01, seed: 4";
  Simulation sim = make_sim(media_world(media, keys));
  sim.step();
  const LaserScan& s = lidar(sim).scan();
  const std::vector<media::MediumSnapshot> snaps(sim.media().begin(), sim.media().end());
  const media::MediaView all(snaps, {});
  // The sensor's stream (core/random.h's rule: world seed 0, its id, its `seed: 4` mixed in):
  // the same angle draws.
  RandomStream noise(stream_seed(0, lidar(sim).header().sensor_id, 4));
  int cut = 0;
  for (std::size_t i = 0; i < s.ranges.size(); ++i) {
    const double yaw = lidar(sim).angles()[i] + noise.gaussian(0.01);
    const Eigen::Vector3d d(std::cos(yaw), std::sin(yaw), 0.0);
    const double wall = std::cos(yaw) > 0 ? 12.0 / std::cos(yaw) : kInf;
    const double t = all.entry_distance(Eigen::Vector3d::Zero(), d, std::min(15.0, wall));
    if (s.hit_medium[i] >= 0) {
      ++cut;
      ASSERT_EQ(s.ranges[i], t) << i;
    } else {
      ASSERT_EQ(t, kInf) << i;
    }
  }
  EXPECT_GT(cut, 100);
}

// A scan reads its hits sparsely where no medium is near and beam by beam where one is
// (Lidar2d::fill_ranges): a medium that cuts no beam must change no reading, noise draws
// included.
TEST(Lidar2dMedia, AMediumThatCutsNoBeamChangesNoReading) {
  const std::string keys =
      "range_max: 20, angle_range: 6.283185307179586, number: 360, noise: true, std: 0.05, "
      "range_min: 0.5";
  const std::string obstacles =
      "  - {shape: {name: circle, radius: 1.0}, state: [0, 6, 0]}\n"
      "  - {shape: {name: rectangle, length: 2, width: 2}, state: [-5, -5, 0.3]}\n"
      "  - {shape: {name: circle, radius: 0.6}, state: [0, -0.7, 0]}\n";  // inside range_min
  // Behind the wall at x = 12: within range_max, so the scan looks at it, but every beam
  // meets the wall first.
  const char* hidden = "  - cells: [{position: [15, 0, 0], radius: 2.0, density: 0.8}]\n";
  Simulation plain = make_sim(media_world("", keys, obstacles));
  Simulation smoky = make_sim(media_world(hidden, keys, obstacles));
  for (int step = 0; step < 5; ++step) {
    plain.step();
    smoky.step();
    const LaserScan& a = lidar(plain).scan();
    const LaserScan& b = lidar(smoky).scan();
    ASSERT_EQ(a.ranges, b.ranges) << step;
    ASSERT_EQ(a.valid, b.valid) << step;
    ASSERT_EQ(a.hit, b.hit) << step;
    ASSERT_EQ(a.intensities, b.intensities) << step;
    ASSERT_EQ(a.hit_object, b.hit_object) << step;
    ASSERT_EQ(a.hit_medium, b.hit_medium) << step;
    int hits = 0, blind = 0;
    for (std::size_t i = 0; i < a.ranges.size(); ++i) {
      hits += a.valid[i];
      blind += a.hit[i] && !a.valid[i];
    }
    EXPECT_GT(hits, 60) << step;   // the wall, the circle and the box
    EXPECT_GT(blind, 10) << step;  // the circle within range_min
  }
}

}  // namespace
}  // namespace ubot
