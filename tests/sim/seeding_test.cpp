// The one seeding rule (core/random.h, docs/determinism.md): every random stream is derived
// from the world seed and its stable id, a sensor's explicit `seed:` mixed in, never replacing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ubot/config/load_world.h"
#include "ubot/core/random.h"
#include "ubot/sensors/camera/camera.h"
#include "ubot/sensors/contact2d/contact2d.h"
#include "ubot/sensors/imu/imu.h"
#include "ubot/sensors/lidar2d/lidar2d.h"
#include "ubot/sensors/lidar3d/lidar3d.h"
#include "ubot/sim/simulation.h"

namespace ubot {
namespace {

// One robot with a noisy sensor of every kind (`keys`: each one's flow-map keys) in front of a
// wall.
std::string world(const std::vector<std::string>& keys) {
  std::string sensors;
  for (const std::string& k : keys) sensors += "      - {" + k + "}\n";
  return R"(
world: {width: 20, height: 20, step_time: 0.1}
robot:
  - name: rover
    kinematics: {name: diff}
    state: [2, 5, 0]
    static: true
    sensors:
)" + sensors +
         R"(
obstacle:
  - shape: {name: rectangle, length: 1, width: 8}
    state: [8, 5, 0]
    height: 3
)";
}

const std::vector<std::string> kSensors = {
    "name: lidar2d, range_max: 10, angle_range: 1, number: 9, noise: true, std: 0.05",
    "name: lidar2d, range_max: 10, angle_range: 1, number: 9, noise: true, std: 0.05, seed: 7",
    "name: lidar2d, range_max: 10, angle_range: 1, number: 9, noise: true, std: 0.05, seed: 7",
    "name: imu, noise: true, accelerometer_noise_std: 0.1, gyroscope_noise_std: 0.1",
    "name: imu, noise: true, accelerometer_noise_std: 0.1, gyroscope_noise_std: 0.1, seed: 7",
    "name: lidar3d, preset: VLP-16, noise: true, std: 0.05, seed: 7, offset: [0, 0, 1]",
    "name: depth_camera, width: 8, height: 6, noise: true, std: 0.05, seed: 7, "
    "offset: [0, 0, 1]",
};

// Sensor i's measurement after the first step: what its noise changes.
std::vector<double> measurement(const Simulation& sim, std::size_t i) {
  std::vector<double> out;
  visit_sensor(*sim.sensors()[i], Overloaded{[&](const Lidar2d& s) { out = s.scan().ranges; },
                                             [&](const Imu& s) {
                                               const ImuSample& d = s.data();
                                               for (int k = 0; k < 3; ++k) {
                                                 out.push_back(d.linear_acceleration[k]);
                                                 out.push_back(d.angular_velocity[k]);
                                               }
                                             },
                                             [&](const Lidar3d& s) {
                                               for (const LidarPoint& p : s.sweep().points) {
                                                 out.insert(out.end(), {p.x, p.y, p.z});
                                               }
                                             },
                                             [&](const Camera& s) {
                                               for (float d : s.image().depth) out.push_back(d);
                                             },
                                             [&](const Contact2d& s) {  // noiseless
                                               out.push_back(s.reading().force.x());
                                             }});
  return out;
}

// Every sensor's measurements over three steps (the IMUs warm up over their first two).
std::vector<std::vector<double>> run(const std::vector<std::string>& keys, std::uint64_t seed) {
  Simulation sim(load_world_from_string(world(keys), "seeding.yaml", {.seed = seed}));
  std::vector<std::vector<double>> out(keys.size());
  for (int k = 0; k < 3; ++k) {
    sim.step();
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const std::vector<double> m = measurement(sim, i);
      out[i].insert(out[i].end(), m.begin(), m.end());
    }
  }
  for (const auto& m : out) EXPECT_FALSE(m.empty());
  return out;
}

TEST(Seeding, TheWorldSeedChangesEverySensorsNoiseEvenWithAnExplicitSeed) {
  const auto a = run(kSensors, 1), b = run(kSensors, 2);
  for (std::size_t i = 0; i < kSensors.size(); ++i) EXPECT_NE(a[i], b[i]) << kSensors[i];
}

TEST(Seeding, SensorsWithTheSameExplicitSeedHaveDifferentNoise) {
  const auto a = run(kSensors, 1);
  EXPECT_NE(a[1], a[2]);  // two lidars with seed: 7 on one robot
}

TEST(Seeding, TheSameWorldAndSeedGiveTheSameNoise) {
  EXPECT_EQ(run(kSensors, 5), run(kSensors, 5));  // bit for bit
}

TEST(Seeding, ChangingOneSensorsSeedChangesOnlyThatSensor) {
  std::vector<std::string> changed = kSensors;
  changed[2] = kSensors[2].substr(0, kSensors[2].find("seed: 7")) + "seed: 8";
  const auto a = run(kSensors, 3), b = run(changed, 3);
  for (std::size_t i = 0; i < kSensors.size(); ++i) {
    if (i == 2) {
      EXPECT_NE(a[i], b[i]);
    } else {
      EXPECT_EQ(a[i], b[i]) << kSensors[i];
    }
  }
}

TEST(Seeding, TheRuleIsDocumentedMixing) {
  // stream_seed without an explicit seed is derive_seed; with one, that seed is mixed in.
  EXPECT_EQ(stream_seed(3, "rover/lidar2d_0"), derive_seed(3, "rover/lidar2d_0"));
  EXPECT_EQ(stream_seed(3, "rover/lidar2d_0", 7),
            derive_seed(derive_seed(3, "rover/lidar2d_0"), "seed/7"));
  EXPECT_NE(stream_seed(3, "rover/lidar2d_0", 7), stream_seed(4, "rover/lidar2d_0", 7));
  EXPECT_NE(stream_seed(3, "rover/lidar2d_0", 7), stream_seed(3, "rover/lidar2d_1", 7));
  EXPECT_NE(stream_seed(3, "rover/lidar2d_0", 7), stream_seed(3, "rover/lidar2d_0", 8));
}

// Motion noise and wander goals follow the world seed too.
TEST(Seeding, TheWorldSeedChangesMotionNoiseAndWanderGoals) {
  const std::string yaml = R"(
world: {width: 20, height: 20, step_time: 0.1}
robot:
  - name: noisy
    kinematics: {name: diff, noise: true}
    state: [2, 2, 0]
    goal: [18, 18, 0]
    behavior: {name: dash}
  - name: wanderer
    kinematics: {name: omni}
    state: [10, 10, 0]
    behavior: {name: rvo, wander: true, range_low: [0, 0, -3.14], range_high: [20, 20, 3.14]}
)";
  auto poses = [&](std::uint64_t seed) {
    Simulation sim(load_world_from_string(yaml, "motion.yaml", {.seed = seed}));
    std::vector<std::vector<double>> out(2);
    for (int k = 0; k < 20; ++k) sim.step();
    for (int id = 0; id < 2; ++id) {
      out[id] = sim.world().object(id).state;
      const auto& g = sim.world().object(id).goals.front();
      out[id].insert(out[id].end(), g.begin(), g.end());
    }
    return out;
  };
  const auto a = poses(1), b = poses(2), c = poses(1);
  EXPECT_EQ(a, c);
  EXPECT_NE(a[0], b[0]);  // kinematic noise
  EXPECT_NE(a[1], b[1]);  // wander goal
}

}  // namespace
}  // namespace ubot
