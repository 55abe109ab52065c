#include "ubot/ros2/type_hash.h"

#include <fmt/format.h>

#include <map>

#include "sha256.h"
#include "type_description.h"

namespace ubot::ros2 {
namespace {

using types::Field;
using types::find_type;
using types::Individual;

// Python's json.dumps(..., separators=(', ', ': ')) of one IndividualTypeDescription.
void append_individual(const Individual& t, std::string& out) {
  out += fmt::format(R"({{"type_name": "{}", "fields": [)", t.name);
  for (std::size_t i = 0; i < t.fields.size(); ++i) {
    const Field& f = t.fields[i];
    if (i > 0) out += ", ";
    out += fmt::format(
        R"({{"name": "{}", "type": {{"type_id": {}, "capacity": {}, "string_capacity": 0, )"
        R"("nested_type_name": "{}"}}}})",
        f.name, f.type_id, f.capacity, f.nested);
  }
  out += "]}";
}

}  // namespace

std::string type_description_json(std::string_view ros_type_name) {
  const Individual& top = find_type(ros_type_name);
  const std::set<std::string> referenced = types::referenced_types(ros_type_name);
  std::string out = R"({"type_description": )";
  append_individual(top, out);
  out += R"(, "referenced_type_descriptions": [)";
  bool first = true;
  for (const std::string& name : referenced) {
    if (!first) out += ", ";
    first = false;
    append_individual(find_type(name), out);
  }
  out += "]}";
  return out;
}

std::string sha256_hex(std::string_view data) {
  std::string hex;
  for (unsigned char byte : sha256(data)) hex += fmt::format("{:02x}", byte);
  return hex;
}

std::string type_hash(std::string_view ros_type_name) {
  return "RIHS01_" + sha256_hex(type_description_json(ros_type_name));
}

const std::string& type_hash(MessageKind kind) {
  static const auto* hashes = [] {
    auto* h = new std::map<MessageKind, std::string>;
#define UBOT_ROS2_HASH(T, pkg) \
  h->emplace(MessageKind::k##T, type_hash(message_type(MessageKind::k##T).ros_name));
    UBOT_ROS2_MESSAGE_TYPES(UBOT_ROS2_HASH)
#undef UBOT_ROS2_HASH
    return h;
  }();
  return hashes->at(kind);
}

}  // namespace ubot::ros2
