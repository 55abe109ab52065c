#pragma once
// The simulation as ROS 2 messages, built in one place for the two sinks that speak ROS 2: the
// bridge publishes them over DDS, the MCAP recorder writes them to a file, so both carry the same
// topics, frames and values (README, "ROS 2 bridge"):
//   /clock      rosgraph_msgs/Clock    clock_message(): simulation time
//   /tf         tf2_msgs/TFMessage     to_transform(odometry()): map -> <robot>/base_link
//   /tf_static  tf2_msgs/TFMessage     sensor_transform(): <robot>/base_link -> sensor frames
//   <ns>/odom   nav_msgs/Odometry      odometry()
//   <ns>/scan, <ns>/imu, <ns>/points   sensor samples (sensor_messages.h; imu_data())
//   <ns>/<camera>/image_raw, <ns>/<camera>/camera_info   camera samples (camera_image(),
//                                      camera_intrinsics()); /tf_static also carries
//                                      optical_transform(): camera link -> <link>_optical
// A robot's second sensor of a kind goes to <ns>/<sensor name>/<suffix> (RobotTopics).
#include <functional>
#include <map>
#include <string>

#include "ubot/config/world_model.h"
#include "ubot/ros2/messages.h"
#include "ubot/ros2/sensor_messages.h"

namespace ubot {
class Camera;
class Imu;
struct ImuSample;
class Lidar3d;
class Sensor;
class Simulation;
class World;
}  // namespace ubot

namespace ubot::ros2 {

// The fixed frame poses are given in.
inline constexpr const char* kWorldFrame = "map";

// "<robot name>/base_link": a robot's body frame.
std::string base_frame(const ObjectModel& robot);

// The names of one robot's topics: its namespace (its sanitised name, or ros2.namespace_override)
// and the topic of each of its sensors.
class RobotTopics {
 public:
  explicit RobotTopics(const ObjectModel& robot);

  const std::string& ns() const { return ns_; }  // "/robot_0"; "" for the root namespace
  const std::string& base_frame() const { return base_frame_; }
  std::string odom_topic() const { return ns_ + "/odom"; }
  // <ns>/<suffix> for the first sensor that asks for `suffix`, <ns>/<sensor>/<suffix> for the
  // next ones; a sensor keeps the topic it got first.
  const std::string& sensor_topic(const std::string& sensor_name, const std::string& suffix);

 private:
  std::string ns_;
  std::string base_frame_;
  std::map<std::string, int> suffix_users_;    // suffix -> sensors named so far
  std::map<std::string, std::string> topics_;  // "<sensor>|<suffix>" -> topic
};

// "<ns>/<camera>": the prefix of a camera's image_raw and camera_info topics (the sensor name
// sanitised as a topic token).
std::string camera_topic_base(const std::string& ns, const std::string& camera_name);

// Clock at the world's current time.
Clock clock_message(const World& world);
// Ground truth of object `id` at the world's current time: its full 3D pose in `map`, twist in the
// body frame (diff (v, 0, ω), omni (forward, lateral, 0), acker (v, 0, v tan(steer) / L)), zero
// covariances.
Odometry odometry(const World& world, int id, const std::string& base_frame);
// The transform an odometry message describes: header.frame_id -> child_frame_id.
TransformStamped to_transform(const Odometry& odom);
// base_frame -> the sensor's frame (header().frame_id): where the sensor sits on its body,
// stamped 0.
TransformStamped sensor_transform(const Sensor& sensor, const std::string& base_frame);
// A 3D mounting (offset, roll / pitch / yaw) as a transform.
Transform mount_transform(const Eigen::Vector3d& offset, const Eigen::Vector3d& rpy);
// A point of the plane at height z, as markers draw it.
inline Point point_at(const Eigen::Vector2d& p, double z) { return {p.x(), p.y(), z}; }
// An IMU sample (an entry of Imu::step_samples()), or the IMU's latest, as the Imu message
// carries it (orientation variance 0: it is exact).
ImuData imu_data(const FrameHeader& header, const ubot::ImuSample& sample);
ImuData imu_data(const ubot::Imu& imu);
// A lidar3d's latest sweep as PointCloud2 input (reusing `out`'s storage): its XYZIRT points in
// the sensor frame, stamped with the sweep's start, so that stamp + a point's time is when it
// was measured (what LIO-SAM and FAST-LIO deskew with).
void lidar3d_cloud(const Lidar3d& lidar, PointCloudData& out);
// A camera's latest image (reusing `out`'s storage), in its optical frame: rgb_camera as rgb8
// (alpha dropped), depth_camera as 16UC1 millimetres with 0 = no data (REP 118's OpenNI form).
void camera_image(const Camera& camera, ImageData& out);
// Its pinhole intrinsics (plumb_bob, zero distortion; K and P from fx, fy, cx, cy).
CameraIntrinsics camera_intrinsics(const Camera& camera);
// Camera link -> optical frame, stamped 0: rotation (x, y, z, w) = (-0.5, 0.5, -0.5, 0.5).
TransformStamped optical_transform(const Camera& camera);
// What /tf_static carries: every published object's sensor mountings (sensor_transform) and
// its cameras' optical frames. `base_frame_of(object_id)`: the object's body frame, or nullptr
// for an object that is not published.
TFMessage static_transforms(const Simulation& sim,
                            const std::function<const std::string*(int)>& base_frame_of);

}  // namespace ubot::ros2
