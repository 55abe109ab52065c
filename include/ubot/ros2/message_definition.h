#pragma once
// The .msg text of a ROS 2 message type with its dependencies, as rosbag2 stores it in MCAP
// recordings (MCAP's `ros2msg` schema encoding; what Foxglove parses to decode CDR): the type's
// fields, then for every type it references (sorted by name) a line of 80 '=' and a line
// "MSG: <pkg>/<Type>" followed by that type's fields. Field types are written fully qualified
// ("std_msgs/Header header", "float64[36] covariance", "float32[] ranges"). Constants and
// comments of the official .msg files are left out: they do not change the wire format.
#include <string>
#include <string_view>

#include "ubot/ros2/messages.h"

namespace ubot::ros2 {

// For a ROS type name such as "sensor_msgs/msg/LaserScan"; ubot::Error for an unknown type.
std::string message_definition(std::string_view ros_type_name);
inline std::string message_definition(MessageKind kind) {
  return message_definition(message_type(kind).ros_name);
}

}  // namespace ubot::ros2
