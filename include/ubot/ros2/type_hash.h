#pragma once
// ROS 2 type hashes (REP 2011, "RIHS01"): SHA-256 of the canonical JSON of a type description
// (the type's fields plus every type it references, sorted by name, default values left out),
// as rosidl_generator_type_description computes it. Jazzy and later put the hash in each
// endpoint's USER_DATA ("typehash=RIHS01_<hex>;") and use it to tell incompatible types apart.
// The build computes them from idl/*.idl with Python's json and hashlib (generate_messages.py).
#include <string>
#include <string_view>

#include "ubot/ros2/messages.h"

namespace ubot::ros2 {

// The canonical JSON that is hashed, for a ROS type name such as "sensor_msgs/msg/LaserScan".
// Known types: every message in messages.h, the types they reference, and std_msgs/msg/String.
// Throws ubot::Error for an unknown name.
std::string type_description_json(std::string_view ros_type_name);
// "RIHS01_" + lowercase hex SHA-256 of type_description_json(ros_type_name).
std::string type_hash(std::string_view ros_type_name);
// The hash of a message kind.
const std::string& type_hash(MessageKind kind);

}  // namespace ubot::ros2
