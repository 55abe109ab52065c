#include "type_description.h"

#include <fmt/format.h>

#include <map>

#include "ubot/core/error.h"

namespace ubot::ros2::types {
namespace {

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
constexpr const char* kDuration = "builtin_interfaces/msg/Duration";
constexpr const char* kColor = "std_msgs/msg/ColorRGBA";

// The official message definitions, field by field, in declaration order.
const std::map<std::string, Individual, std::less<>>& individual_types() {
  static const auto* types = [] {
    const std::vector<Individual> list = {
        {kTime, {{"sec", kInt32}, {"nanosec", kUint32}}},
        {kHeader, {nested("stamp", kTime), {"frame_id", kString}}},
        {"std_msgs/msg/String", {{"data", kString}}},
        {"rosgraph_msgs/msg/Clock", {nested("clock", kTime)}},
        {kDuration, {{"sec", kInt32}, {"nanosec", kUint32}}},
        {kColor, {{"r", kFloat}, {"g", kFloat}, {"b", kFloat}, {"a", kFloat}}},
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
        {"nav_msgs/msg/MapMetaData",
         {nested("map_load_time", kTime),
          {"resolution", kFloat},
          {"width", kUint32},
          {"height", kUint32},
          nested("origin", "geometry_msgs/msg/Pose")}},
        {"nav_msgs/msg/OccupancyGrid",
         {nested("header", kHeader), nested("info", "nav_msgs/msg/MapMetaData"),
          sequence("data", kInt8)}},
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
        {"sensor_msgs/msg/CompressedImage",
         {nested("header", kHeader), {"format", kString}, sequence("data", kUint8)}},
        {"visualization_msgs/msg/UVCoordinate", {{"u", kFloat}, {"v", kFloat}}},
        {"visualization_msgs/msg/MeshFile", {{"filename", kString}, sequence("data", kUint8)}},
        {"visualization_msgs/msg/Marker",
         {nested("header", kHeader),
          {"ns", kString},
          {"id", kInt32},
          {"type", kInt32},
          {"action", kInt32},
          nested("pose", "geometry_msgs/msg/Pose"),
          nested("scale", kVector3),
          nested("color", kColor),
          nested("lifetime", kDuration),
          {"frame_locked", kBool},
          sequence("points", kNested, kPoint),
          sequence("colors", kNested, kColor),
          {"texture_resource", kString},
          nested("texture", "sensor_msgs/msg/CompressedImage"),
          sequence("uv_coordinates", kNested, "visualization_msgs/msg/UVCoordinate"),
          {"text", kString},
          {"mesh_resource", kString},
          nested("mesh_file", "visualization_msgs/msg/MeshFile"),
          {"mesh_use_embedded_materials", kBool}}},
        {"visualization_msgs/msg/MarkerArray",
         {sequence("markers", kNested, "visualization_msgs/msg/Marker")}},
    };
    auto* m = new std::map<std::string, Individual, std::less<>>;
    for (const Individual& t : list) m->emplace(t.name, t);
    return m;
  }();
  return *types;
}

}  // namespace

const Individual& find_type(std::string_view name) {
  const auto& types = individual_types();
  const auto it = types.find(name);
  if (it == types.end()) throw Error(fmt::format("no type description for '{}'", name));
  return it->second;
}

std::set<std::string> referenced_types(std::string_view name) {
  std::set<std::string> referenced;
  std::vector<std::string> queue;
  for (const Field& f : find_type(name).fields) {
    if (*f.nested) queue.emplace_back(f.nested);
  }
  while (!queue.empty()) {
    const std::string next = queue.back();
    queue.pop_back();
    if (!referenced.insert(next).second) continue;
    for (const Field& f : find_type(next).fields) {
      if (*f.nested) queue.emplace_back(f.nested);
    }
  }
  return referenced;
}

}  // namespace ubot::ros2::types
