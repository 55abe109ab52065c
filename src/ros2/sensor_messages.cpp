#include "ubot/ros2/sensor_messages.h"

#include <cmath>
#include <cstring>
#include <utility>

#include "ubot/sensors/lidar2d/lidar2d.h"

namespace ubot::ros2 {
namespace {

template <class T>
void put(std::uint8_t* dst, T value) {
  std::memcpy(dst, &value, sizeof(T));  // x86-64 and aarch64 are little-endian, as announced
}

// Diagonal covariance from per-axis variances, or "not provided" (-1 in element 0).
std::array<double, 9> covariance(const std::optional<Eigen::Vector3d>& variance) {
  std::array<double, 9> c{};
  if (!variance) {
    c[0] = -1.0;
    return c;
  }
  c[0] = (*variance)[0];
  c[4] = (*variance)[1];
  c[8] = (*variance)[2];
  return c;
}

Vector3 vec(const Eigen::Vector3d& v) { return {v.x(), v.y(), v.z()}; }

}  // namespace

Time to_time(Nanos t) {
  return {static_cast<std::int32_t>(t / kNanosPerSecond),
          static_cast<std::uint32_t>(t % kNanosPerSecond)};
}

Header to_header(const FrameHeader& header) { return {to_time(header.stamp), header.frame_id}; }

Quaternion yaw_quaternion(double yaw) {
  return {0.0, 0.0, std::sin(yaw / 2.0), std::cos(yaw / 2.0)};
}

void to_point_cloud2(const PointCloudData& cloud, PointCloud2& out) {
  out.header = to_header(cloud.header);
  out.height = 1;
  out.width = static_cast<std::uint32_t>(cloud.points.size());
  out.fields = {{"x", 0, PointField::FLOAT32, 1},    {"y", 4, PointField::FLOAT32, 1},
                {"z", 8, PointField::FLOAT32, 1},    {"intensity", 12, PointField::FLOAT32, 1},
                {"ring", 16, PointField::UINT16, 1}, {"time", 20, PointField::FLOAT32, 1}};
  out.is_bigendian = false;
  out.point_step = kCloudPointStep;
  out.row_step = kCloudPointStep * out.width;
  out.data.assign(static_cast<std::size_t>(out.row_step), 0);  // padding bytes are zero
  bool dense = true;
  std::uint8_t* p = out.data.data();
  for (const CloudPoint& q : cloud.points) {
    put(p, q.x);
    put(p + 4, q.y);
    put(p + 8, q.z);
    put(p + 12, q.intensity);
    put(p + 16, q.ring);
    put(p + 20, q.time);
    dense = dense && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
    p += kCloudPointStep;
  }
  out.is_dense = dense;
}

Imu to_imu(const ImuData& imu) {
  Imu m;
  m.header = to_header(imu.header);
  if (imu.orientation) {
    const Eigen::Quaterniond& q = *imu.orientation;
    m.orientation = {q.x(), q.y(), q.z(), q.w()};
    m.orientation_covariance = covariance(imu.orientation_variance);
  } else {
    m.orientation = {0, 0, 0, 1};
    m.orientation_covariance = covariance(std::nullopt);
  }
  m.angular_velocity = vec(imu.angular_velocity);
  m.angular_velocity_covariance = covariance(imu.angular_velocity_variance);
  m.linear_acceleration = vec(imu.linear_acceleration);
  m.linear_acceleration_covariance = covariance(imu.linear_acceleration_variance);
  return m;
}

void to_image(const ImageData& image, Image& out) {
  out.header = to_header(image.header);
  out.height = image.height;
  out.width = image.width;
  out.encoding = image.encoding;
  out.is_bigendian = 0;
  out.step = image.step;
  out.data.view(image.data);  // published from the camera's buffer, not a copy
}

Image to_image(const ImageData& image) {
  Image m;
  to_image(image, m);
  m.data.own();  // a message of its own: it may outlive `image`
  return m;
}

CameraInfo to_camera_info(const Header& header, const CameraIntrinsics& c) {
  CameraInfo m;
  m.header = header;
  m.height = c.height;
  m.width = c.width;
  m.distortion_model = c.distortion_model;
  m.d = c.d;
  m.k = {c.fx, 0, c.cx, 0, c.fy, c.cy, 0, 0, 1};
  m.r = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  m.p = {c.fx, 0, c.cx, 0, 0, c.fy, c.cy, 0, 0, 0, 1, 0};
  return m;
}

LaserScan to_laser_scan(const Lidar2d& lidar, bool use_inf) {
  LaserScanMessage s = lidar.to_message(use_inf);
  LaserScan m;
  m.header = to_header(lidar.header());
  m.angle_min = s.angle_min;
  m.angle_max = s.angle_max;
  m.angle_increment = s.angle_increment;
  m.time_increment = s.time_increment;
  m.scan_time = s.scan_time;
  m.range_min = s.range_min;
  m.range_max = s.range_max;
  m.ranges = std::move(s.ranges);
  m.intensities = std::move(s.intensities);
  return m;
}

}  // namespace ubot::ros2
