#pragma once
// The parameters of the lidar2d sensor type (its YAML keys), read by
// src/sensors/lidar2d/lidar2d_config.cpp.
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

// lidar2d and fmcw_lidar2d (SPEC §2, §3).
struct Lidar2dModel {
  // Its `type:` names in the world file (the first type's first is the default type).
  static constexpr std::array<std::string_view, 2> kTypeNames{{"lidar2d", "fmcw_lidar2d"}};
  const char* type_name() const { return fmcw ? "fmcw_lidar2d" : "lidar2d"; }
  bool fmcw = false;
  double range_min = 0.0;
  double range_max = 10.0;
  double angle_range = 3.141592653589793;
  int number = 100;
  double std = 0.2;                                  // range noise sigma (used when noise is on)
  double angle_std = 0.0;                            // per-beam direction noise sigma
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();  // [x, y, yaw] on the body
  double z = 0.0;                                    // mount height of the scan plane
  double scan_time = 0.1;                            // LaserScan metadata
  // lidar2d: also report the world-frame velocity of the object each beam hits (IR-SIM's
  // has_velocity; fmcw_lidar2d reports radial velocities instead).
  bool has_velocity = false;
  // fmcw_lidar2d
  bool motion_compensate = false;
  double velocity_noise_std = 0.0;
};

namespace config {
// Reads a sensor entry of one of Lidar2dModel::kTypeNames (`type`): its common properties into
// `common` and its own into `params`.
void read_sensor(Mapping& m, std::string_view type, SensorCommon& common, Lidar2dModel& params);
}  // namespace config

}  // namespace ubot
