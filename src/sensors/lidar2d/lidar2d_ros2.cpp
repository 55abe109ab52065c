// The lidar2d type's ROS 2 piece (compiled into the ros2_msgs library): sensor_msgs/LaserScan on
// <ns>/scan, mounted at [x, y, z] turned by its yaw.
#include "ubot/ros2/message_producer.h"
#include "ubot/ros2/sensor_messages.h"
#include "ubot/ros2/sim_messages.h"
#include "ubot/sensors/lidar2d/lidar2d.h"
#include "ubot/sensors/lidar2d/lidar2d_sinks.h"

namespace ubot::ros2 {

std::vector<int> sensor_topics(const TopicNamer& topics, const Lidar2d&) {
  return {topics.sensor("scan", MessageKind::kLaserScan)};
}

void sensor_messages(const SensorMessageContext& c, const Lidar2d& lidar) {
  const LaserScan scan = to_laser_scan(lidar, c.use_inf);
  c.consume({c.topics[0], c.now, &scan});
}

Transform sensor_mount(const Lidar2d& lidar) {
  const Lidar2dModel& p = lidar.params();
  return Transform{{p.offset.x(), p.offset.y(), p.z}, yaw_quaternion(p.offset.z())};
}

void add_child_frames(TFMessage&, const Lidar2d&) {}

}  // namespace ubot::ros2
