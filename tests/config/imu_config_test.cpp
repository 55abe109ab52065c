// The `imu` sensor entry and the 3D object keys (`roll`, `pitch`, `trajectory`): defaults as
// SPEC §7 lists them, Kalibr's alternatives, and precise errors.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <numbers>
#include <string>

#include "load_error.h"
#include "ubot/config/load_world.h"
#include "ubot/core/error.h"

namespace ubot {
namespace {

std::string imu_error(const std::string& yaml) { return testing_support::load_error(yaml); }

const SensorModel& first_sensor(const WorldModel& w) { return w.objects.at(0).sensors.at(0); }

TEST(ImuConfig, DefaultsAreTheSpecs) {
  const WorldModel w = load_world_from_string("robot:\n  - sensors: [{name: imu}]\n", "w.yaml");
  const SensorModel& s = first_sensor(w);
  EXPECT_STREQ(s.type_name(), "imu");
  EXPECT_EQ(s.common.name, "imu_0");
  EXPECT_EQ(s.common.update_rate_hz, 100.0);
  EXPECT_EQ(s.common.seed, 1337u);
  EXPECT_FALSE(s.common.noise);
  EXPECT_TRUE(s.common.enabled);
  EXPECT_TRUE(s.common.auto_start);
  const ImuModel& p = std::get<ImuModel>(s.params);
  EXPECT_EQ(p.offset, Eigen::Vector3d::Zero());
  EXPECT_EQ(p.rpy, Eigen::Vector3d::Zero());
  EXPECT_EQ(p.accelerometer_noise_std, 0.0);
  EXPECT_EQ(p.gyroscope_noise_std, 0.0);
  EXPECT_FALSE(p.accelerometer_noise_density);
  EXPECT_FALSE(p.gyroscope_noise_density);
  EXPECT_EQ(p.accelerometer_bias, Eigen::Vector3d::Zero());
  EXPECT_EQ(p.gyroscope_bias, Eigen::Vector3d::Zero());
  EXPECT_EQ(p.accelerometer_bias_random_walk_std, 0.0);
  EXPECT_EQ(p.gyroscope_bias_random_walk_std, 0.0);
  EXPECT_FALSE(p.low_pass);
  EXPECT_EQ(p.low_pass_cutoff_hz, 20.0);
  EXPECT_FALSE(p.clamp);
  EXPECT_EQ(p.max_linear_acceleration, 100.0);
  EXPECT_EQ(p.max_angular_velocity, 50.0);
  EXPECT_EQ(p.teleport_distance, 5.0);
  EXPECT_EQ(p.teleport_angle_deg, 120.0);
  EXPECT_EQ(p.max_sample_dt, 0.5);
}

TEST(ImuConfig, EveryKeyIsRead) {
  const WorldModel w = load_world_from_string(R"(
robot:
  - sensors:
      - name: imu
        update_rate_hz: 200
        noise: true
        seed: 7
        enabled: false
        auto_start: false
        offset: [0.1, -0.2, 0.3]
        rpy: [0.01, 0.02, 0.03]
        accelerometer_noise_std: 0.05
        gyroscope_noise_std: 0.004
        accelerometer_bias: [0.1, 0.2, 0.3]
        gyroscope_bias: [0.01, 0.02, 0.03]
        accelerometer_bias_random_walk_std: 0.001
        gyroscope_bias_random_walk_std: 0.0001
        low_pass: true
        low_pass_cutoff_hz: 0.1
        clamp: true
        max_linear_acceleration: 16
        max_angular_velocity: 4
        teleport_distance: 2
        teleport_angle_deg: 90
        max_sample_dt: 0.25
)",
                                              "w.yaml");
  const SensorModel& s = first_sensor(w);
  EXPECT_EQ(s.common.update_rate_hz, 200.0);
  EXPECT_EQ(s.common.seed, 7u);
  EXPECT_TRUE(s.common.noise);
  EXPECT_FALSE(s.common.enabled);
  EXPECT_FALSE(s.common.auto_start);
  const ImuModel& p = std::get<ImuModel>(s.params);
  EXPECT_EQ(p.offset, Eigen::Vector3d(0.1, -0.2, 0.3));
  EXPECT_EQ(p.rpy, Eigen::Vector3d(0.01, 0.02, 0.03));
  EXPECT_EQ(p.accelerometer_noise_std, 0.05);
  EXPECT_EQ(p.gyroscope_noise_std, 0.004);
  EXPECT_EQ(p.accelerometer_bias, Eigen::Vector3d(0.1, 0.2, 0.3));
  EXPECT_EQ(p.gyroscope_bias, Eigen::Vector3d(0.01, 0.02, 0.03));
  EXPECT_EQ(p.accelerometer_bias_random_walk_std, 0.001);
  EXPECT_EQ(p.gyroscope_bias_random_walk_std, 0.0001);
  EXPECT_TRUE(p.low_pass);
  EXPECT_EQ(p.low_pass_cutoff_hz, 0.1);  // the minimum is allowed
  EXPECT_TRUE(p.clamp);
  EXPECT_EQ(p.max_linear_acceleration, 16.0);
  EXPECT_EQ(p.max_angular_velocity, 4.0);
  EXPECT_EQ(p.teleport_distance, 2.0);
  EXPECT_EQ(p.teleport_angle_deg, 90.0);
  EXPECT_EQ(p.max_sample_dt, 0.25);
}

TEST(ImuConfig, KalibrKeys) {
  // A Kalibr imu.yaml's four numbers (here an ADIS16448's) go in under their own names.
  const WorldModel w = load_world_from_string(R"(
robot:
  - sensors:
      - name: imu
        accelerometer_noise_density: 0.0028
        gyroscope_noise_density: 0.00016
        accelerometer_random_walk: 0.00086
        gyroscope_random_walk: 0.000022
)",
                                              "w.yaml");
  const ImuModel& p = std::get<ImuModel>(first_sensor(w).params);
  EXPECT_EQ(p.accelerometer_noise_density, 0.0028);
  EXPECT_EQ(p.gyroscope_noise_density, 0.00016);
  // Kalibr's random walk and the seed's bias random walk σ are the same quantity and unit.
  EXPECT_EQ(p.accelerometer_bias_random_walk_std, 0.00086);
  EXPECT_EQ(p.gyroscope_bias_random_walk_std, 0.000022);
}

// The IMU seed's property names in snake_case (README "IMU", aliases table), each with the ubot
// key it stands for, a value other than the default, and the model field both fill.
struct SeedAlias {
  const char* key;
  const char* alias;
  const char* value;
  double expected;
  std::function<double(const SensorModel&)> field;
};

const ImuModel& imu(const SensorModel& s) { return std::get<ImuModel>(s.params); }

const SeedAlias kSeedAliases[] = {
    {"enabled", "sensor_enabled", "false", 0.0, [](auto& s) { return s.common.enabled; }},
    {"noise", "noise_enabled", "true", 1.0, [](auto& s) { return s.common.noise; }},
    {"seed", "random_seed", "42", 42.0, [](auto& s) { return double(*s.common.seed); }},
    {"accelerometer_noise_std", "accelerometer_noise_std_dev", "0.07", 0.07,
     [](auto& s) { return imu(s).accelerometer_noise_std; }},
    {"gyroscope_noise_std", "gyroscope_noise_std_dev", "0.003", 0.003,
     [](auto& s) { return imu(s).gyroscope_noise_std; }},
    {"accelerometer_bias_random_walk_std", "accelerometer_bias_random_walk_std_dev", "0.002", 0.002,
     [](auto& s) { return imu(s).accelerometer_bias_random_walk_std; }},
    {"gyroscope_bias_random_walk_std", "gyroscope_bias_random_walk_std_dev", "0.0002", 0.0002,
     [](auto& s) { return imu(s).gyroscope_bias_random_walk_std; }},
    {"low_pass", "low_pass_filter_enabled", "true", 1.0, [](auto& s) { return imu(s).low_pass; }},
    {"clamp", "clamp_output", "true", 1.0, [](auto& s) { return imu(s).clamp; }},
    {"teleport_distance", "teleport_distance_meters", "2.5", 2.5,
     [](auto& s) { return imu(s).teleport_distance; }},
    {"teleport_angle_deg", "teleport_angle_degrees", "45", 45.0,
     [](auto& s) { return imu(s).teleport_angle_deg; }},
    {"max_sample_dt", "max_sample_delta_seconds", "0.3", 0.3,
     [](auto& s) { return imu(s).max_sample_dt; }},
};

SensorModel imu_with(const std::string& key, const std::string& value) {
  const std::string yaml = "robot:\n  - sensors: [{name: imu, " + key + ": " + value + "}]\n";
  return first_sensor(load_world_from_string(yaml, "w.yaml"));
}

TEST(ImuConfig, SeedPropertyNamesReadIntoTheSameFieldsAsTheirKeys) {
  const SensorModel defaults = imu_with("update_rate_hz", "100");
  for (const SeedAlias& a : kSeedAliases) {
    const SensorModel by_key = imu_with(a.key, a.value);
    const SensorModel by_alias = imu_with(a.alias, a.value);
    EXPECT_EQ(a.field(by_key), a.expected) << a.key;
    EXPECT_EQ(a.field(by_alias), a.expected) << a.alias;
    EXPECT_NE(a.field(defaults), a.expected) << a.key << ": pick a value other than the default";
  }
}

TEST(ImuConfig, SeedPropertyNameAndItsKeyTogetherIsAnErrorNamingBoth) {
  for (const SeedAlias& a : kSeedAliases) {
    const std::string line = std::string("  - sensors: [{name: imu, ") + a.key + ": " + a.value +
                             ", " + a.alias + ": " + a.value + "}]";
    const std::size_t column = line.find(std::string(a.alias) + ": ") + std::strlen(a.alias) + 3;
    EXPECT_EQ(imu_error("robot:\n" + line + "\n"),
              "bad.yaml:2:" + std::to_string(column) + ": robot[0].sensors[0]." + a.alias +
                  ": give either " + a.key + " or " + a.alias + ", not both")
        << a.alias;
  }
}

TEST(ImuConfig, SeedNamesMeetKalibrNamesAndTyposAsBefore) {
  // The error is at the seed's (or Kalibr's) name, wherever it stands in the entry.
  EXPECT_EQ(imu_error("robot:\n  - sensors: [{name: imu, clamp_output: true, clamp: false}]\n"),
            "bad.yaml:2:41: robot[0].sensors[0].clamp_output: give either clamp or clamp_output, "
            "not both");
  EXPECT_EQ(imu_error("robot:\n  - sensors: [{name: imu, gyroscope_noise_std_dev: 1,\n"
                      "               gyroscope_noise_density: 1}]\n"),
            "bad.yaml:3:41: robot[0].sensors[0].gyroscope_noise_density: give either "
            "gyroscope_noise_std_dev or gyroscope_noise_density, not both");
  EXPECT_EQ(imu_error("robot:\n  - sensors: [{name: imu, gyroscope_random_walk: 1,\n"
                      "               gyroscope_bias_random_walk_std_dev: 1}]\n"),
            "bad.yaml:2:50: robot[0].sensors[0].gyroscope_random_walk: give either "
            "gyroscope_bias_random_walk_std_dev or gyroscope_random_walk, not both");
  EXPECT_EQ(imu_error("robot:\n  - sensors: [{name: imu, clamp_outptu: true}]\n"),
            "bad.yaml:2:27: robot[0].sensors[0].clamp_outptu: unknown key 'clamp_outptu' (did you "
            "mean 'clamp_output'?)");
  // The aliases are the IMU's: a lidar does not take them.
  EXPECT_EQ(imu_error("robot:\n  - sensors: [{name: lidar2d, noise_enabled: true}]\n"),
            "bad.yaml:2:31: robot[0].sensors[0].noise_enabled: unknown key 'noise_enabled'");
}

TEST(ImuConfig, ObjectTiltAndTrajectory) {
  const WorldModel w = load_world_from_string(R"(
robot:
  - state: [1, 2, 0.5]
    z: 0.4
    roll: 0.1
    pitch: -0.2
obstacle:
  - trajectory:
      waypoints:
        - {t: 0, position: [1, 2, 3], rpy: [0, 0, 1]}
        - {t: 2, position: [4, 5, 6]}
      interpolation: linear
  - trajectory: {ballistic: {position: [0, 0, 10], velocity: [1, 0, 0], rpy: [0, 0, -0.5],
                 angular_velocity: [0, 0, 2]}}
  - trajectory:
      loop: true
      waypoints:
        - {t: 1, position: [0, 0, 1]}
        - {t: 2, position: [1, 0, 1]}
        - {t: 3, position: [0, 0, 1]}
)",
                                              "w.yaml");
  const ObjectModel& robot = w.objects[0];
  EXPECT_EQ(robot.z, 0.4);
  EXPECT_EQ(robot.roll, 0.1);
  EXPECT_EQ(robot.pitch, -0.2);
  EXPECT_FALSE(robot.trajectory);

  const ObjectModel& a = w.objects[1];
  ASSERT_TRUE(a.trajectory);
  EXPECT_FALSE(a.is_static);
  EXPECT_TRUE(a.goals.empty());
  EXPECT_EQ(a.trajectory->interpolation, Interpolation::kLinear);
  ASSERT_EQ(a.trajectory->waypoints.size(), 2u);
  EXPECT_EQ(a.trajectory->waypoints[1].t, 2.0);
  EXPECT_EQ(a.trajectory->waypoints[1].position, Eigen::Vector3d(4, 5, 6));
  EXPECT_EQ(a.trajectory->waypoints[1].rpy, Eigen::Vector3d::Zero());
  EXPECT_EQ(a.state, (std::vector<double>{1, 2, 1}));  // starts at the first waypoint

  const ObjectModel& b = w.objects[2];
  ASSERT_TRUE(b.trajectory && b.trajectory->ballistic);
  EXPECT_EQ(b.trajectory->ballistic->velocity, Eigen::Vector3d(1, 0, 0));
  EXPECT_EQ(b.trajectory->ballistic->angular_velocity, Eigen::Vector3d(0, 0, 2));
  EXPECT_NEAR(b.state[2], -0.5, 1e-15);

  const ObjectModel& c = w.objects[3];
  EXPECT_TRUE(c.trajectory->loop);
  EXPECT_EQ(c.trajectory->interpolation, Interpolation::kCubic);  // the default
}

using testing_support::BadCase;

const BadCase kImuCases[] = {
    {"misspelt imu key", "robot:\n  - sensors: [{name: imu, acelerometer_noise_std: 1}]\n",
     "bad.yaml:2:27: robot[0].sensors[0].acelerometer_noise_std: unknown key "
     "'acelerometer_noise_std' (did you mean 'accelerometer_noise_std'?)"},
    {"σ and density together",
     "robot:\n  - sensors: [{name: imu, gyroscope_noise_std: 1, gyroscope_noise_density: 1}]\n",
     "bad.yaml:2:76: robot[0].sensors[0].gyroscope_noise_density: give either "
     "gyroscope_noise_std or gyroscope_noise_density, not both"},
    {"both random walk names",
     "robot:\n  - sensors: [{name: imu, accelerometer_bias_random_walk_std: 1,\n"
     "               accelerometer_random_walk: 1}]\n",
     "bad.yaml:3:43: robot[0].sensors[0].accelerometer_random_walk: give either "
     "accelerometer_bias_random_walk_std or accelerometer_random_walk, not both"},
    {"cutoff below 0.1 Hz", "robot:\n  - sensors: [{name: imu, low_pass_cutoff_hz: 0.05}]\n",
     "bad.yaml:2:47: robot[0].sensors[0].low_pass_cutoff_hz: must be at least 0.1 Hz"},
    {"negative noise", "robot:\n  - sensors: [{name: imu, accelerometer_noise_std: -1}]\n",
     "bad.yaml:2:52: robot[0].sensors[0].accelerometer_noise_std: must not be negative, got -1"},
    {"offset of two numbers", "robot:\n  - sensors: [{name: imu, offset: [1, 2]}]\n",
     "bad.yaml:2:35: robot[0].sensors[0].offset: expected 3 numbers, got 2"},
    {"zero max_sample_dt", "robot:\n  - sensors: [{name: imu, max_sample_dt: 0}]\n",
     "bad.yaml:2:42: robot[0].sensors[0].max_sample_dt: must be greater than 0, got 0"},
    {"waypoint times not increasing",
     "obstacle:\n  - trajectory: {waypoints: [{t: 1, position: [0, 0, 0]},\n"
     "                              {t: 1, position: [1, 0, 0]}]}\n",
     "bad.yaml:3:35: obstacle[0].trajectory.waypoints[1].t: waypoint times must increase, got 1 "
     "after 1"},
    {"one waypoint", "obstacle:\n  - trajectory: {waypoints: [{t: 0, position: [0, 0, 0]}]}\n",
     "bad.yaml:2:29: obstacle[0].trajectory.waypoints: expected a list of at least 2 waypoints"},
    {"waypoint without position",
     "obstacle:\n  - trajectory: {waypoints: [{t: 0}, {t: 1, position: [0, 0, 0]}]}\n",
     "bad.yaml:2:30: obstacle[0].trajectory.waypoints[0]: missing required key 'position'"},
    {"open loop",
     "obstacle:\n  - trajectory: {loop: true, waypoints: [{t: 0, position: [0, 0, 0]},\n"
     "      {t: 1, position: [1, 0, 0]}, {t: 2, position: [1, 1, 0]}]}\n",
     "bad.yaml:2:24: obstacle[0].trajectory.loop: a looping trajectory must end where it starts "
     "(same position and rpy)"},
    {"waypoints and ballistic",
     "obstacle:\n  - trajectory: {waypoints: [], ballistic: {position: [0, 0, 0]}}\n",
     "bad.yaml:2:44: obstacle[0].trajectory.ballistic: give either waypoints or ballistic, not "
     "both"},
    {"empty trajectory", "obstacle:\n  - trajectory: {interpolation: linear}\n",
     "bad.yaml:2:17: obstacle[0].trajectory: a trajectory needs `waypoints` or `ballistic`"},
    {"unknown interpolation",
     "obstacle:\n  - trajectory: {interpolation: spline, waypoints: [{t: 0, position: [0, 0, "
     "0]}, {t: 1, position: [1, 0, 0]}]}\n",
     "bad.yaml:2:33: obstacle[0].trajectory.interpolation: unknown value 'spline' (expected one "
     "of: cubic, linear)"},
    {"kinematics with a trajectory",
     "robot:\n  - kinematics: {name: diff}\n    trajectory: {ballistic: {position: [0, 0, 0]}}\n",
     "bad.yaml:2:17: robot[0].kinematics: 'kinematics' does not apply to an object that follows "
     "a trajectory"},
    {"state with a trajectory",
     "robot:\n  - state: [1, 1, 0]\n    trajectory: {ballistic: {position: [0, 0, 0]}}\n",
     "bad.yaml:2:12: robot[0].state: 'state' does not apply to an object that follows a "
     "trajectory"},
    {"loop on a ballistic flight",
     "obstacle:\n  - trajectory: {loop: true, ballistic: {position: [0, 0, 0]}}\n",
     "bad.yaml:2:24: obstacle[0].trajectory.loop: applies to waypoints, not to a ballistic "
     "flight"},
};

TEST(ImuConfig, BadInputHasAPreciseMessage) {
  for (const BadCase& c : kImuCases) {
    EXPECT_EQ(imu_error(c.yaml), c.message) << c.what;
  }
}

}  // namespace
}  // namespace ubot
