#pragma once
// The parameters of the imu sensor type (its YAML keys), read by src/sensors/imu/imu_config.cpp.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

namespace ubot {

struct SensorCommon;
namespace config {
class Mapping;
}

// IMU (`imu`, SPEC §7). Noise is given per sample (the seed document's units) or as Kalibr
// densities; see the README for the conversion.
struct ImuModel {
  // Its `type:` names in the world file (the first type's first is the default type).
  static constexpr std::array<std::string_view, 1> kTypeNames{{"imu"}};
  const char* type_name() const { return "imu"; }
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();  // mounting position [x, y, z] on the body
  Eigen::Vector3d rpy = Eigen::Vector3d::Zero();     // mounting rotation [roll, pitch, yaw]
  // White noise: per-sample σ (m/s², rad/s), or Kalibr's continuous-time densities
  // (m/s²/√Hz, rad/s/√Hz), which replace them: σ = density / √Δt.
  double accelerometer_noise_std = 0.0;
  double gyroscope_noise_std = 0.0;
  std::optional<double> accelerometer_noise_density;
  std::optional<double> gyroscope_noise_density;
  Eigen::Vector3d accelerometer_bias = Eigen::Vector3d::Zero();  // m/s², sensor frame
  Eigen::Vector3d gyroscope_bias = Eigen::Vector3d::Zero();      // rad/s, sensor frame
  // Bias random walk (m/s²/√s, rad/s/√s; Kalibr's *_random_walk is the same quantity):
  // each sample adds N(0, σ√Δt) to the bias.
  double accelerometer_bias_random_walk_std = 0.0;
  double gyroscope_bias_random_walk_std = 0.0;
  bool low_pass = false;
  double low_pass_cutoff_hz = 20.0;  // at least 0.1
  bool clamp = false;
  double max_linear_acceleration = 100.0;  // m/s²
  double max_angular_velocity = 50.0;      // rad/s
  double teleport_distance = 5.0;          // m between consecutive samples
  double teleport_angle_deg = 120.0;       // degrees between consecutive samples
  double max_sample_dt = 0.5;              // s
};

inline constexpr double kImuDefaultRateHz = 100.0;
inline constexpr std::uint64_t kImuDefaultSeed = 1337;

namespace config {
// Reads a sensor entry of one of ImuModel::kTypeNames (`type`): its common properties into
// `common` and its own into `params`.
void read_sensor(Mapping& m, std::string_view type, SensorCommon& common, ImuModel& params);
}  // namespace config

}  // namespace ubot
