// The imu type's ROS 2 piece (compiled into the ros2_msgs library): sensor_msgs/Imu on <ns>/imu,
// every sample of the step.
#include "ubot/ros2/message_producer.h"
#include "ubot/ros2/sensor_messages.h"
#include "ubot/ros2/sim_messages.h"
#include "ubot/sensors/imu/imu.h"
#include "ubot/sensors/imu/imu_sinks.h"

namespace ubot::ros2 {

std::vector<int> sensor_topics(const TopicNamer& topics, const ubot::Imu&) {
  return {topics.sensor("imu", MessageKind::kImu)};
}

void sensor_messages(const SensorMessageContext& c, const ubot::Imu& imu) {
  // Every sample of the step, each with its own header stamp.
  for (const ImuReading& s : imu.step_samples()) {
    const Imu m = to_imu(imu_data(s.header, s.data));
    c.consume({c.topics[0], c.now, &m});
  }
}

Transform sensor_mount(const ubot::Imu& imu) {
  return mount_transform(imu.params().offset, imu.params().rpy);
}

void add_child_frames(TFMessage&, const ubot::Imu&) {}

}  // namespace ubot::ros2
