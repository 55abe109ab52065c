#include "ubot/ros2/sim_messages.h"

#include <fmt/format.h>

#include "ubot/core/pose3d.h"
#include "ubot/ros2/names.h"
#include "ubot/ros2/ros2_config.h"
#include "ubot/sensors/camera/camera.h"
#include "ubot/sensors/imu/imu.h"
#include "ubot/sensors/lidar3d/lidar3d.h"
#include "ubot/sensors/registered_sensors.h"
#include "ubot/sensors/sensor.h"
#include "ubot/sim/simulation.h"
#include "ubot/world/world.h"

namespace ubot::ros2 {
namespace {

// Body-frame twist of an object (IR-SIM's kinematics): diff (v, 0, ω), omni (forward, lateral,
// 0), acker (v, 0, v tan(steer) / L).
Twist body_twist(const World& world, int id) {
  Twist t;
  const ObjectModel& m = world.object_model(id);
  const ObjectState& s = world.object(id);
  switch (m.kinematics.kind) {
    case KinematicsKind::kOmni:
      t.linear = {s.velocity[0], s.velocity[1], 0.0};
      break;
    case KinematicsKind::kOmniAngular:
      t.linear = {s.velocity[0], s.velocity[1], 0.0};
      t.angular.z = s.yaw_rate;
      break;
    case KinematicsKind::kDiff:
    case KinematicsKind::kAcker:
      t.linear.x = s.velocity[0];
      t.angular.z = world.angular_velocity(id);
      break;
    case KinematicsKind::kNone:
      break;
  }
  return t;
}

}  // namespace

std::string base_frame(const ObjectModel& robot) { return fmt::format("{}/base_link", robot.name); }

RobotTopics::RobotTopics(const ObjectModel& robot)
    : ns_(resolve_namespace(robot.name, robot.ros2->namespace_override)),
      base_frame_(ros2::base_frame(robot)) {}

const std::string& RobotTopics::sensor_topic(const std::string& sensor_name,
                                             const std::string& suffix) {
  const std::string key = sensor_name + "|" + suffix;
  if (const auto it = topics_.find(key); it != topics_.end()) return it->second;
  const bool first = suffix_users_[suffix]++ == 0;
  return topics_[key] = first ? fmt::format("{}/{}", ns_, suffix)
                              : fmt::format("{}/{}/{}", ns_, sanitize_token(sensor_name), suffix);
}

Clock clock_message(const World& world) { return Clock{to_time(world.time_ns())}; }

Odometry odometry(const World& world, int id, const std::string& base_frame) {
  // The full 3D pose: z, roll and pitch of tilted objects and scripted trajectories included.
  const Pose3d pose = world.pose3d(id);
  Odometry odom;
  odom.header = {to_time(world.time_ns()), kWorldFrame};
  odom.child_frame_id = base_frame;
  odom.pose.pose.position = {pose.position.x(), pose.position.y(), pose.position.z()};
  const Eigen::Quaterniond& q = pose.orientation;
  odom.pose.pose.orientation = {q.x(), q.y(), q.z(), q.w()};
  odom.twist.twist = body_twist(world, id);
  return odom;
}

TransformStamped to_transform(const Odometry& odom) {
  TransformStamped t;
  t.header = odom.header;
  t.child_frame_id = odom.child_frame_id;
  const Point& p = odom.pose.pose.position;
  t.transform.translation = {p.x, p.y, p.z};
  t.transform.rotation = odom.pose.pose.orientation;
  return t;
}

// A 3D mounting (offset, roll / pitch / yaw) as a transform.
Transform mount_transform(const Eigen::Vector3d& offset, const Eigen::Vector3d& rpy) {
  const Eigen::Quaterniond q = rotation_from_rpy(rpy);
  return {{offset.x(), offset.y(), offset.z()}, {q.x(), q.y(), q.z(), q.w()}};
}

TransformStamped sensor_transform(const Sensor& sensor, const std::string& base_frame) {
  TransformStamped t;
  t.header = {to_time(0), base_frame};
  t.child_frame_id = sensor.header().frame_id;
  t.transform = visit_sensor(sensor, [](const auto& s) { return sensor_mount(s); });
  return t;
}

ImuData imu_data(const ubot::Imu& imu) { return imu_data(imu.header(), imu.data()); }

ImuData imu_data(const FrameHeader& header, const ImuSample& d) {
  ImuData m;
  m.header = header;
  m.orientation = d.orientation;
  m.orientation_variance = Eigen::Vector3d::Zero();
  m.angular_velocity = d.angular_velocity;
  m.angular_velocity_variance = d.angular_velocity_variance;
  m.linear_acceleration = d.linear_acceleration;
  m.linear_acceleration_variance = d.linear_acceleration_variance;
  return m;
}

void lidar3d_cloud(const Lidar3d& lidar, PointCloudData& out) {
  const LidarSweep& sweep = lidar.sweep();
  out.header = lidar.header();
  out.header.stamp = sweep.sweep_start;
  out.points.resize(sweep.points.size());
  for (std::size_t i = 0; i < out.points.size(); ++i) {
    const LidarPoint& p = sweep.points[i];
    out.points[i] = {p.x, p.y, p.z, p.intensity, p.ring, p.time};
  }
}

std::string camera_topic_base(const std::string& ns, const std::string& camera_name) {
  return ns + "/" + sanitize_token(camera_name);
}

void camera_image(const Camera& camera, ImageData& out) {
  const CameraImage& img = camera.image();
  out.header = camera.header();
  out.header.frame_id = camera.optical_frame_id();
  out.width = static_cast<std::uint32_t>(img.width);
  out.height = static_cast<std::uint32_t>(img.height);
  const std::size_t n = static_cast<std::size_t>(img.width) * img.height;
  if (camera.params().depth) {
    out.encoding = "16UC1";
    out.step = out.width * 2;
    out.data.resize(n * 2);
    for (std::size_t i = 0; i < n; ++i) {  // little-endian (is_bigendian 0)
      const std::uint16_t mm = depth_millimetres(img.depth[i]);
      out.data[2 * i] = static_cast<std::uint8_t>(mm & 0xFF);
      out.data[2 * i + 1] = static_cast<std::uint8_t>(mm >> 8);
    }
  } else {
    out.encoding = "rgb8";
    out.step = out.width * 3;
    out.data.resize(n * 3);
    for (std::size_t i = 0; i < n; ++i) {
      for (int c = 0; c < 3; ++c) out.data[3 * i + c] = img.rgba[4 * i + c];
    }
  }
}

CameraIntrinsics camera_intrinsics(const Camera& camera) {
  const CameraModel& p = camera.params();
  CameraIntrinsics c;
  c.width = static_cast<std::uint32_t>(p.width);
  c.height = static_cast<std::uint32_t>(p.height);
  c.fx = p.fx;
  c.fy = p.fy;
  c.cx = p.cx;
  c.cy = p.cy;
  return c;
}

TransformStamped optical_transform(const Camera& camera) {
  TransformStamped t;
  t.header = {to_time(0), camera.header().frame_id};
  t.child_frame_id = camera.optical_frame_id();
  const Eigen::Quaterniond q = Camera::optical_rotation();
  t.transform.translation = {0.0, 0.0, 0.0};
  t.transform.rotation = {q.x(), q.y(), q.z(), q.w()};
  return t;
}

TFMessage static_transforms(const Simulation& sim,
                            const std::function<const std::string*(int)>& base_frame_of) {
  TFMessage m;
  for (const auto& sensor : sim.sensors()) {
    const std::string* base = base_frame_of(sensor->object_id());
    if (!base) continue;
    m.transforms.push_back(sensor_transform(*sensor, *base));
    visit_sensor(*sensor, [&](const auto& s) { add_child_frames(m, s); });
  }
  return m;
}

}  // namespace ubot::ros2
