// Type hashes and .msg definitions, looked up in the table the build generates from idl/*.idl
// (generate_messages.py computes both with Python's json and hashlib, as rosidl does).
#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "ubot/core/error.h"
#include "ubot/ros2/message_definition.h"
#include "ubot/ros2/type_hash.h"

namespace ubot::ros2 {
namespace {

struct TypeInfo {
  std::string_view ros_name, description, hash, definition;
};

constexpr TypeInfo kTypes[] = {
#include "ubot/ros2/gen/type_info.inc"
};

const TypeInfo& find(std::string_view ros_name) {
  const auto it = std::find_if(std::begin(kTypes), std::end(kTypes),
                               [&](const TypeInfo& t) { return t.ros_name == ros_name; });
  if (it == std::end(kTypes)) throw Error(fmt::format("no type description for '{}'", ros_name));
  return *it;
}

}  // namespace

std::string type_description_json(std::string_view name) {
  return std::string(find(name).description);
}
std::string type_hash(std::string_view name) { return std::string(find(name).hash); }
const std::string& type_hash(MessageKind kind) {
  static const auto* hashes = [] {
    auto* h = new std::vector<std::string>;
#define UBOT_ROS2_HASH(T, pkg) h->push_back(type_hash(message_type(MessageKind::k##T).ros_name));
    UBOT_ROS2_MESSAGE_TYPES(UBOT_ROS2_HASH)
#undef UBOT_ROS2_HASH
    return h;
  }();
  return hashes->at(static_cast<std::size_t>(kind));
}
std::string message_definition(std::string_view name) { return std::string(find(name).definition); }

}  // namespace ubot::ros2
