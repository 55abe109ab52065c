#pragma once
// The parameters of the lidar3d sensor type (its YAML keys), read by
// src/sensors/lidar3d/lidar3d_config.cpp.
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

// 3D spinning lidar (`lidar3d`, SPEC §4). Channels fire together, column by column, while the
// head turns counter-clockwise at rotation_rate_hz; a sweep ends at the sample's time.
struct Lidar3dModel {
  // Its `type:` names in the world file (the first type's first is the default type).
  static constexpr std::array<std::string_view, 1> kTypeNames{{"lidar3d"}};
  const char* type_name() const { return "lidar3d"; }
  std::string preset;                      // the preset it started from, "" for none
  std::vector<double> vertical_angles;     // rad, ascending: ring 0 is the lowest channel
  double angle_range = 6.283185307179586;  // horizontal, rad, centred on the sensor's x axis
  int number = 1800;                       // columns per sweep
  double range_min = 0.0;
  double range_max = 100.0;
  double std = 0.02;               // range noise sigma (used when noise is on)
  double rotation_rate_hz = 10.0;  // sweep period = 1 / rotation_rate_hz
  bool motion_distortion = false;  // columns cast from the pose at their firing time
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();  // mounting position [x, y, z] on the body
  Eigen::Vector3d rpy = Eigen::Vector3d::Zero();     // mounting rotation [roll, pitch, yaw]
};

namespace config {
// Reads a sensor entry of one of Lidar3dModel::kTypeNames (`type`): its common properties into
// `common` and its own into `params`.
void read_sensor(Mapping& m, std::string_view type, SensorCommon& common, Lidar3dModel& params);
}  // namespace config

}  // namespace ubot
