// The contact2d type's ROS 2 piece (compiled into the ros2_msgs library). Not published yet: the
// contacts' visualization_msgs/MarkerArray on <ns>/contacts needs that message type in
// ubot/ros2/messages.h (docs/contact.md, "Not yet").
#include "ubot/ros2/message_producer.h"
#include "ubot/ros2/sim_messages.h"
#include "ubot/sensors/contact2d/contact2d.h"
#include "ubot/sensors/contact2d/contact2d_sinks.h"

namespace ubot::ros2 {

std::vector<int> sensor_topics(const TopicNamer&, const Contact2d&) { return {}; }

void sensor_messages(const SensorMessageContext&, const Contact2d&) {}

// Contacts are in the world frame; the sensor sits at the body origin.
Transform sensor_mount(const Contact2d&) {
  return Transform{{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0, 1.0}};
}

void add_child_frames(TFMessage&, const Contact2d&) {}

}  // namespace ubot::ros2
