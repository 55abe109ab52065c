#include "ubot/ros2/type_hash.h"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "ubot/core/error.h"

namespace ubot::ros2 {
namespace {

// type_description_interfaces/msg/FieldType ids. Arrays add 48, unbounded sequences 144.
enum TypeId : int {
  kNested = 1,
  kUint8 = 3,
  kUint16 = 5,
  kInt32 = 6,
  kUint32 = 7,
  kFloat = 10,
  kDouble = 11,
  kBool = 15,
  kString = 17,
};
constexpr int kArray = 48;
constexpr int kSequence = 144;

struct Field {
  const char* name;
  int type_id;
  int capacity = 0;  // fixed array size
  const char* nested = "";
};

struct Individual {
  const char* name;
  std::vector<Field> fields;
};

Field nested(const char* name, const char* type) { return {name, kNested, 0, type}; }
Field array(const char* name, int id, int size) { return {name, id + kArray, size}; }
Field sequence(const char* name, int id, const char* type = "") {
  return {name, id + kSequence, 0, type};
}

constexpr const char* kTime = "builtin_interfaces/msg/Time";
constexpr const char* kHeader = "std_msgs/msg/Header";
constexpr const char* kVector3 = "geometry_msgs/msg/Vector3";
constexpr const char* kPoint = "geometry_msgs/msg/Point";
constexpr const char* kQuaternion = "geometry_msgs/msg/Quaternion";

// The official message definitions, field by field, in declaration order.
const std::map<std::string, Individual, std::less<>>& individual_types() {
  static const auto* types = [] {
    const std::vector<Individual> list = {
        {kTime, {{"sec", kInt32}, {"nanosec", kUint32}}},
        {kHeader, {nested("stamp", kTime), {"frame_id", kString}}},
        {"std_msgs/msg/String", {{"data", kString}}},
        {"rosgraph_msgs/msg/Clock", {nested("clock", kTime)}},
        {kVector3, {{"x", kDouble}, {"y", kDouble}, {"z", kDouble}}},
        {kPoint, {{"x", kDouble}, {"y", kDouble}, {"z", kDouble}}},
        {kQuaternion, {{"x", kDouble}, {"y", kDouble}, {"z", kDouble}, {"w", kDouble}}},
        {"geometry_msgs/msg/Pose",
         {nested("position", kPoint), nested("orientation", kQuaternion)}},
        {"geometry_msgs/msg/PoseWithCovariance",
         {nested("pose", "geometry_msgs/msg/Pose"), array("covariance", kDouble, 36)}},
        {"geometry_msgs/msg/Twist", {nested("linear", kVector3), nested("angular", kVector3)}},
        {"geometry_msgs/msg/TwistWithCovariance",
         {nested("twist", "geometry_msgs/msg/Twist"), array("covariance", kDouble, 36)}},
        {"geometry_msgs/msg/TwistStamped",
         {nested("header", kHeader), nested("twist", "geometry_msgs/msg/Twist")}},
        {"geometry_msgs/msg/Transform",
         {nested("translation", kVector3), nested("rotation", kQuaternion)}},
        {"geometry_msgs/msg/TransformStamped",
         {nested("header", kHeader),
          {"child_frame_id", kString},
          nested("transform", "geometry_msgs/msg/Transform")}},
        {"tf2_msgs/msg/TFMessage",
         {sequence("transforms", kNested, "geometry_msgs/msg/TransformStamped")}},
        {"nav_msgs/msg/Odometry",
         {nested("header", kHeader),
          {"child_frame_id", kString},
          nested("pose", "geometry_msgs/msg/PoseWithCovariance"),
          nested("twist", "geometry_msgs/msg/TwistWithCovariance")}},
        {"sensor_msgs/msg/LaserScan",
         {nested("header", kHeader),
          {"angle_min", kFloat},
          {"angle_max", kFloat},
          {"angle_increment", kFloat},
          {"time_increment", kFloat},
          {"scan_time", kFloat},
          {"range_min", kFloat},
          {"range_max", kFloat},
          sequence("ranges", kFloat),
          sequence("intensities", kFloat)}},
        {"sensor_msgs/msg/PointField",
         {{"name", kString}, {"offset", kUint32}, {"datatype", kUint8}, {"count", kUint32}}},
        {"sensor_msgs/msg/PointCloud2",
         {nested("header", kHeader),
          {"height", kUint32},
          {"width", kUint32},
          sequence("fields", kNested, "sensor_msgs/msg/PointField"),
          {"is_bigendian", kBool},
          {"point_step", kUint32},
          {"row_step", kUint32},
          sequence("data", kUint8),
          {"is_dense", kBool}}},
        {"sensor_msgs/msg/Imu",
         {nested("header", kHeader), nested("orientation", kQuaternion),
          array("orientation_covariance", kDouble, 9), nested("angular_velocity", kVector3),
          array("angular_velocity_covariance", kDouble, 9), nested("linear_acceleration", kVector3),
          array("linear_acceleration_covariance", kDouble, 9)}},
        {"sensor_msgs/msg/Image",
         {nested("header", kHeader),
          {"height", kUint32},
          {"width", kUint32},
          {"encoding", kString},
          {"is_bigendian", kUint8},
          {"step", kUint32},
          sequence("data", kUint8)}},
        {"sensor_msgs/msg/RegionOfInterest",
         {{"x_offset", kUint32},
          {"y_offset", kUint32},
          {"height", kUint32},
          {"width", kUint32},
          {"do_rectify", kBool}}},
        {"sensor_msgs/msg/CameraInfo",
         {nested("header", kHeader),
          {"height", kUint32},
          {"width", kUint32},
          {"distortion_model", kString},
          sequence("d", kDouble),
          array("k", kDouble, 9),
          array("r", kDouble, 9),
          array("p", kDouble, 12),
          {"binning_x", kUint32},
          {"binning_y", kUint32},
          nested("roi", "sensor_msgs/msg/RegionOfInterest")}},
    };
    auto* m = new std::map<std::string, Individual, std::less<>>;
    for (const Individual& t : list) m->emplace(t.name, t);
    return m;
  }();
  return *types;
}

const Individual& find_type(std::string_view name) {
  const auto& types = individual_types();
  const auto it = types.find(name);
  if (it == types.end()) throw Error(fmt::format("no type description for '{}'", name));
  return it->second;
}

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
  // Every type reachable through nested fields, sorted by name (std::set order = Python's
  // sorted() for ASCII names).
  std::set<std::string> referenced;
  std::vector<std::string> queue;
  for (const Field& f : top.fields) {
    if (*f.nested) queue.emplace_back(f.nested);
  }
  while (!queue.empty()) {
    const std::string name = queue.back();
    queue.pop_back();
    if (!referenced.insert(name).second) continue;
    for (const Field& f : find_type(name).fields) {
      if (*f.nested) queue.emplace_back(f.nested);
    }
  }
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
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &size, EVP_sha256(), nullptr) != 1) {
    throw Error("SHA-256 failed (OpenSSL EVP_Digest)");
  }
  std::string hex;
  for (unsigned int i = 0; i < size; ++i) hex += fmt::format("{:02x}", digest[i]);
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
