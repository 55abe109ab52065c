#pragma once
// The ROS 2 bridge of a simulation: a sink after each step (never mutating the simulation) and a
// command source before it. For every robot whose `ros2.enabled` is true (namespace <ns> =
// its name sanitised, or ros2.namespace_override):
//   /clock                 rosgraph_msgs/Clock           simulation time, every step
//   /tf                    tf2_msgs/TFMessage            map -> <robot>/base_link, every step
//   /tf_static             tf2_msgs/TFMessage            <robot>/base_link -> sensor frames,
//                                                        camera link -> <link>_optical
//                                                        (TRANSIENT_LOCAL, once)
//   <ns>/odom              nav_msgs/Odometry             ground truth; twist in the body frame
//   <ns>/scan              sensor_msgs/LaserScan         lidar2d / fmcw_lidar2d, when sampled
//   <ns>/points            sensor_msgs/PointCloud2       lidar3d (XYZIRT, stamped with the
//                                                        sweep's start), publish_points()
//   <ns>/imu               sensor_msgs/Imu               publish_imu()
//   <ns>/<camera>/image_raw, <ns>/<camera>/camera_info   depth_camera / rgb_camera samples
//                          (rgb8 or 16UC1 mm, optical frame), publish_image()
//   <ns>/contacts          visualization_msgs/MarkerArray contact2d: contact points, force lines
//   /ubot/markers/static, /ubot/markers, /ubot/grid_map   the world (world_messages.h)
//   <ns>/cmd_vel           geometry_msgs/Twist (in)      drives the robot (or ros2.target)
// A robot's second sensor of a kind is published under <ns>/<sensor name>/<suffix>.
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ubot/ros2/command_receiver.h"
#include "ubot/ros2/message_producer.h"
#include "ubot/ros2/robot_target.h"
#include "ubot/ros2/sensor_messages.h"
#include "ubot/ros2/sim_messages.h"
#include "ubot/ros2/transport.h"
#include "ubot/sim/simulation.h"

namespace ubot::ros2 {

class Bridge {
 public:
  // Creates the writers and cmd_vel receivers (subscribed unless ros2.auto_start is false) and
  // publishes /tf_static. Throws ubot::Error when a ros2.target names no object.
  Bridge(Transport& transport, const Simulation& sim);
  ~Bridge();
  Bridge(const Bridge&) = delete;
  Bridge& operator=(const Bridge&) = delete;

  // Before a step: takes the received commands (transport spin), updates every receiver at the
  // current simulation time (timeouts) and returns one command per object, set where cmd_vel
  // drives it (unset: its YAML behaviour).
  std::span<const Command> commands(const Simulation& sim);
  // After a step (and once before the first): /clock, /tf, odometry, the scans that sampled.
  void publish(const Simulation& sim);
  // The same when only the world's channels are watched: its markers, nothing per robot.
  void publish_world(const Simulation& sim);
  // End of the run: active commands are released.
  void shutdown();
  // A live view's pace for /ubot/markers (MessageProducer::set_live_markers).
  void set_live_markers(MessageProducer::LiveMarkers live) {
    producer_.set_live_markers(std::move(live));
  }

  // Hooks for sensors that publish through the bridge (object id of the owner, sensor name).
  void publish_points(int object_id, const std::string& sensor_name, const PointCloudData& cloud);
  void publish_imu(int object_id, const std::string& sensor_name, const ImuData& imu);
  void publish_image(int object_id, const std::string& camera_name, const ImageData& image,
                     const CameraIntrinsics* intrinsics = nullptr);

  // The cmd_vel receiver of a robot (nullptr if it has none).
  TwistCommandReceiver* receiver(int object_id);
  // The namespace of a robot's topics ("" = root).
  std::string robot_namespace(int object_id) const;

 private:
  struct Robot;
  // The cmd_vel target for the object named `name` (made on first use), nullptr if none.
  RobotTwistTarget* target_named(const World& world, const std::string& name);
  void publish_static_tf(const Simulation& sim);
  RawWriter& writer(int topic);  // made at first use
  void write(const Message& message);

  Transport& transport_;
  MessageProducer producer_;  // topics and messages, shared with the MCAP recorder
  // Targets before robots: the receivers, which point at them, go first.
  std::map<int, std::unique_ptr<RobotTwistTarget>> targets_;  // by object id
  std::map<std::string, RobotTwistTarget*, std::less<>> targets_by_name_;
  std::vector<std::unique_ptr<Robot>> robots_;       // ros2.enabled robots: their cmd_vel receivers
  std::vector<std::unique_ptr<RawWriter>> writers_;  // by topic index
  std::vector<Command> commands_;                    // all unset until a command arrives
  bool any_active_ = false;                          // some receiver has an active command
  PointCloud2 cloud_;                                // reused buffers of the hooks
  Image image_;
};

}  // namespace ubot::ros2
