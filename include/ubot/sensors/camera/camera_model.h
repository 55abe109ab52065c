#pragma once
// The parameters of the camera sensor type (its YAML keys), read by
// src/sensors/camera/camera_config.cpp.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "ubot/config/sensor_media.h"

namespace ubot {

struct SensorCommon;
namespace config {
class Mapping;
}

// Pinhole cameras (`depth_camera`, `rgb_camera`; SPEC §5, §6). The camera link frame sits at
// `offset` / `rpy` on the body (x forward, y left, z up, like every sensor frame); images are in
// its optical frame (z forward, x right, y down; ROS REP 103 "_optical"). Pixel (u, v) (column,
// row; integer coordinates at pixel centres, OpenCV / ROS CameraInfo convention) looks along
// ((u - cx) / fx, (v - cy) / fy, 1) in the optical frame.
struct CameraModel {
  // Its `type:` names in the world file (the first type's first is the default type).
  static constexpr std::array<std::string_view, 2> kTypeNames{{"depth_camera", "rgb_camera"}};
  const char* type_name() const { return depth ? "depth_camera" : "rgb_camera"; }
  bool depth = false;  // depth_camera (true) or rgb_camera
  int width = 640;
  int height = 480;
  // Intrinsics in pixels. From `horizontal_fov` (default 90°): fx = fy = width / (2 tan(fov/2)),
  // cx = (width - 1) / 2, cy = (height - 1) / 2; or given as fx, fy, cx, cy.
  double fx = 320.0, fy = 320.0, cx = 319.5, cy = 239.5;
  // Depth range (m, along the optical axis): depth_camera's min_depth / max_depth, rgb_camera's
  // near_clip / far_clip (what it sees; farther is sky).
  double min_depth = 0.1;
  double max_depth = 10.0;
  // Depth noise (depth_camera, when noise is on): N(0, sigma) with sigma = std + std_quadratic
  // * depth^2 (m; std_quadratic in 1/m), the model of structured-light and stereo sensors
  // (Nguyen, Izadi, Lovell 2012 fit a Kinect's axial noise as 0.0012 + 0.0019 (z - 0.4)^2).
  double std = 0.0;
  double std_quadratic = 0.0;
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();  // mounting position [x, y, z] on the body
  Eigen::Vector3d rpy = Eigen::Vector3d::Zero();     // mounting rotation [roll, pitch, yaw]
  // rgb_camera media (SPEC §6): the tint of legacy-tag media, opacity per cell
  // min(effective density x scale, max), the distance along the pixel ray media are looked for
  // (default: the far clip), and whether surfaces hide the media behind them.
  media::Tint smoke_interference_tint{0.48, 0.50, 0.52};
  double smoke_interference_opacity_scale = 0.75;
  double max_smoke_interference_opacity = 0.85;
  double preview_distance = 10.0;
  bool media_occlusion = false;
};

namespace config {
// Reads a sensor entry of one of CameraModel::kTypeNames (`type`): its common properties into
// `common` and its own into `params`.
void read_sensor(Mapping& m, std::string_view type, SensorCommon& common, CameraModel& params);
}  // namespace config

}  // namespace ubot
