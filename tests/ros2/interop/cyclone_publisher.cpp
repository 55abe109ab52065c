// ubot side of the interop test: publishes the synthetic LaserScan, PointCloud2, Imu and Image
// of interop_data.h with ubot's CycloneDDS transport and message builders, repeatedly (volatile
// topics: the subscriber takes whatever arrives after discovery), until --seconds have passed.
//   usage: ros2_interop_cyclone [--seconds S] [--domain D]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "interop_data.h"
#include "ubot/ros2/cyclone_transport.h"
#include "ubot/ros2/sensor_messages.h"

using namespace ubot;
using namespace ubot::ros2;

int main(int argc, char** argv) {
  double seconds = 30;
  int domain = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--seconds")) seconds = std::atof(argv[i + 1]);
    if (!std::strcmp(argv[i], "--domain")) domain = std::atoi(argv[i + 1]);
  }
  auto transport = make_cyclone_transport({.domain_id = domain});
  const Qos qos = default_sensor_qos();
  auto scan_writer = make_writer<LaserScan>(*transport, "/interop/scan", qos);
  auto cloud_writer = make_writer<PointCloud2>(*transport, "/interop/points", qos);
  auto imu_writer = make_writer<Imu>(*transport, "/interop/imu", qos);
  auto image_writer = make_writer<Image>(*transport, "/interop/image", qos);

  FrameHeader h;
  h.stamp = static_cast<Nanos>(interop::kStampNanos);
  LaserScan scan;
  scan.header = to_header(h);
  scan.header.frame_id = "robot_0/lidar2d_0";
  scan.angle_min = -3.14159274f;
  scan.angle_max = 3.12413907f;
  scan.angle_increment = 0.00872664626f;
  scan.time_increment = 1.38888889e-4f;
  scan.scan_time = 0.1f;
  scan.range_min = 0.05f;
  scan.range_max = 30.0f;
  for (int i = 0; i < interop::kBeams; ++i) {
    scan.ranges.push_back(interop::scan_range(i));
    scan.intensities.push_back(interop::scan_intensity(i));
  }

  PointCloudData cloud;
  cloud.header = h;
  cloud.header.frame_id = "robot_0/lidar3d_0";
  for (int i = 0; i < interop::kPoints; ++i) {
    const auto p = interop::cloud_point(i);
    cloud.points.push_back({p.x, p.y, p.z, p.intensity, p.ring, p.time});
  }
  PointCloud2 cloud_msg;
  to_point_cloud2(cloud, cloud_msg);

  ImuData imu;
  imu.header = h;
  imu.header.frame_id = "robot_0/imu_0";
  imu.orientation =
      Eigen::Quaterniond(Eigen::AngleAxisd(interop::kImuYaw, Eigen::Vector3d::UnitZ()));
  imu.orientation_variance = Eigen::Vector3d::Zero();
  imu.angular_velocity = {interop::kGyro[0], interop::kGyro[1], interop::kGyro[2]};
  imu.angular_velocity_variance = Eigen::Vector3d(
      interop::kGyroVariance[0], interop::kGyroVariance[1], interop::kGyroVariance[2]);
  imu.linear_acceleration = {interop::kAccel[0], interop::kAccel[1], interop::kAccel[2]};
  const Imu imu_msg = to_imu(imu);

  ImageData image;
  image.header = h;
  image.header.frame_id = "robot_0/camera_optical";
  image.width = interop::kWidth;
  image.height = interop::kHeight;
  image.encoding = "rgb8";
  image.step = 3 * interop::kWidth;
  for (std::size_t i = 0; i < 3u * interop::kWidth * interop::kHeight; ++i) {
    image.data.push_back(interop::pixel_byte(i));
  }
  const Image image_msg = to_image(image);

  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int rounds = 0;
  while (std::chrono::steady_clock::now() < end) {
    scan_writer.write(scan);
    cloud_writer.write(cloud_msg);
    imu_writer.write(imu_msg);
    image_writer.write(image_msg);
    ++rounds;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::printf("published %d rounds\n", rounds);
  return 0;
}
