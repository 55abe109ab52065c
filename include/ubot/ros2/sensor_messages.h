#pragma once
// Sensor outputs as ROS 2 messages. The inputs are plain structs so that any sensor (lidar3d,
// imu, cameras) can be published by filling one and calling a Bridge hook.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "ubot/core/frame_header.h"
#include "ubot/core/time.h"
#include "ubot/ros2/messages.h"

namespace ubot {
class Lidar2d;
}

namespace ubot::ros2 {

// One 3D lidar point in the sensor frame: the XYZIRT layout (x, y, z, intensity, ring, time
// offset from the start of the sweep in s) that LIO-SAM and most 3D lidar drivers use.
struct CloudPoint {
  float x = 0, y = 0, z = 0, intensity = 0;
  std::uint16_t ring = 0;
  float time = 0;
};

struct PointCloudData {
  FrameHeader header;
  std::vector<CloudPoint> points;
};

// An IMU sample (SPEC §7) in the sensor frame. Unset variances (and an unset orientation) are
// published as ROS's "not provided": covariance[0] = -1.
struct ImuData {
  FrameHeader header;
  std::optional<Eigen::Quaterniond> orientation;  // world frame
  std::optional<Eigen::Vector3d> orientation_variance;
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();  // rad/s
  std::optional<Eigen::Vector3d> angular_velocity_variance;
  Eigen::Vector3d linear_acceleration = Eigen::Vector3d::Zero();  // specific force, m/s²
  std::optional<Eigen::Vector3d> linear_acceleration_variance;
};

struct ImageData {
  FrameHeader header;
  std::uint32_t width = 0, height = 0;
  std::string encoding;    // sensor_msgs/image_encodings: rgb8, rgba8, mono8, 16UC1, 32FC1, ...
  std::uint32_t step = 0;  // bytes per row
  std::vector<std::uint8_t> data;
};

// Pinhole intrinsics of a camera (no rectification: R = I, P = [K | 0]).
struct CameraIntrinsics {
  std::uint32_t width = 0, height = 0;
  double fx = 0, fy = 0, cx = 0, cy = 0;
  std::string distortion_model = "plumb_bob";
  std::vector<double> d = {0, 0, 0, 0, 0};
};

Time to_time(Nanos t);
Header to_header(const FrameHeader& header);
Quaternion yaw_quaternion(double yaw);

// Field layout of to_point_cloud2: x, y, z, intensity float32 at 0, 4, 8, 12; ring uint16 at 16;
// time float32 at 20; 24 bytes per point, little-endian.
constexpr std::uint32_t kCloudPointStep = 24;
// Fills `out` (reusing its buffers): height 1, width N, is_dense when every coordinate is finite.
void to_point_cloud2(const PointCloudData& cloud, PointCloud2& out);
Imu to_imu(const ImuData& imu);
// Fills `out`, whose data views image.data (no copy of the pixels: publish `out` while `image`
// lives and is unchanged); the returning form is a one-off message that owns its pixels.
void to_image(const ImageData& image, Image& out);
Image to_image(const ImageData& image);
CameraInfo to_camera_info(const Header& header, const CameraIntrinsics& intrinsics);
// The latest scan of a lidar2d / fmcw_lidar2d; `use_inf`: REP 117 ranges.
LaserScan to_laser_scan(const Lidar2d& lidar, bool use_inf);

}  // namespace ubot::ros2
