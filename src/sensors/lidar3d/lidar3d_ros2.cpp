// The lidar3d type's ROS 2 piece (compiled into the ros2_msgs library): sensor_msgs/PointCloud2 on
// <ns>/points.
#include "ubot/ros2/message_producer.h"
#include "ubot/ros2/sensor_messages.h"
#include "ubot/ros2/sim_messages.h"
#include "ubot/sensors/lidar3d/lidar3d.h"
#include "ubot/sensors/lidar3d/lidar3d_sinks.h"

namespace ubot::ros2 {

std::vector<int> sensor_topics(const TopicNamer& topics, const Lidar3d&) {
  return {topics.sensor("points", MessageKind::kPointCloud2)};
}

void sensor_messages(const SensorMessageContext& c, const Lidar3d& lidar) {
  MessageBuffers& b = c.buffers;
  lidar3d_cloud(lidar, b.cloud_data);
  to_point_cloud2(b.cloud_data, b.cloud);
  c.consume({c.topics[0], c.now, &b.cloud});
}

Transform sensor_mount(const Lidar3d& lidar) {
  return mount_transform(lidar.params().offset, lidar.params().rpy);
}

void add_child_frames(TFMessage&, const Lidar3d&) {}

}  // namespace ubot::ros2
