#include "ubot/ros2/message_definition.h"

#include <fmt/format.h>

#include "type_description.h"

namespace ubot::ros2 {
namespace {

// "sensor_msgs/msg/PointField" -> "sensor_msgs/PointField", the form .msg files use.
std::string msg_name(std::string_view ros_name) {
  std::string name(ros_name);
  if (const auto p = name.find("/msg/"); p != std::string::npos) name.erase(p, 4);
  return name;
}

std::string element_type(const types::Field& f) {
  switch (f.type_id % types::kArray) {
    case types::kNested:
      return msg_name(f.nested);
    case types::kInt8:
      return "int8";
    case types::kUint8:
      return "uint8";
    case types::kInt16:
      return "int16";
    case types::kUint16:
      return "uint16";
    case types::kInt64:
      return "int64";
    case types::kUint64:
      return "uint64";
    case types::kInt32:
      return "int32";
    case types::kUint32:
      return "uint32";
    case types::kFloat:
      return "float32";
    case types::kDouble:
      return "float64";
    case types::kBool:
      return "bool";
    case types::kString:
      return "string";
  }
  return "?";  // not reached: the table only uses the ids above
}

void append_fields(const types::Individual& t, std::string& out) {
  for (const types::Field& f : t.fields) {
    std::string type = element_type(f);
    if (f.type_id >= types::kSequence) {
      type += "[]";
    } else if (f.type_id >= types::kArray) {
      type += fmt::format("[{}]", f.capacity);
    }
    out += fmt::format("{} {}\n", type, f.name);
  }
}

}  // namespace

std::string message_definition(std::string_view ros_type_name) {
  std::string out;
  append_fields(types::find_type(ros_type_name), out);
  for (const std::string& name : types::referenced_types(ros_type_name)) {
    out += std::string(80, '=');
    out += fmt::format("\nMSG: {}\n", msg_name(name));
    append_fields(types::find_type(name), out);
  }
  return out;
}

}  // namespace ubot::ros2
