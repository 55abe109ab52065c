#pragma once
// The ROS 2 messages the bridge speaks, as plain C++ structs with the official field names and
// types (ros2/common_interfaces, rcl_interfaces, geometry2). They are transport-independent: the
// CycloneDDS transport maps them onto the idlc-generated types of src/ros2/idl/*.idl, the fake
// transport of the tests passes them through.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ubot::ros2 {

// ---- builtin_interfaces, std_msgs, rosgraph_msgs ------------------------------------------------

struct Time {
  std::int32_t sec = 0;
  std::uint32_t nanosec = 0;
  bool operator==(const Time&) const = default;
};

struct Header {
  Time stamp;
  std::string frame_id;
  bool operator==(const Header&) const = default;
};

struct Clock {
  Time clock;
  bool operator==(const Clock&) const = default;
};

struct Duration {
  std::int32_t sec = 0;
  std::uint32_t nanosec = 0;
  bool operator==(const Duration&) const = default;
};

struct ColorRGBA {
  float r = 0, g = 0, b = 0, a = 0;
  bool operator==(const ColorRGBA&) const = default;
};

// ---- geometry_msgs ------------------------------------------------------------------------------

struct Vector3 {
  double x = 0, y = 0, z = 0;
  bool operator==(const Vector3&) const = default;
};

struct Point {
  double x = 0, y = 0, z = 0;
  bool operator==(const Point&) const = default;
};

struct Quaternion {
  double x = 0, y = 0, z = 0, w = 1;
  bool operator==(const Quaternion&) const = default;
};

struct Pose {
  Point position;
  Quaternion orientation;
  bool operator==(const Pose&) const = default;
};

struct PoseWithCovariance {
  Pose pose;
  std::array<double, 36> covariance{};
  bool operator==(const PoseWithCovariance&) const = default;
};

struct Twist {
  Vector3 linear;
  Vector3 angular;
  bool operator==(const Twist&) const = default;
};

struct TwistWithCovariance {
  Twist twist;
  std::array<double, 36> covariance{};
  bool operator==(const TwistWithCovariance&) const = default;
};

struct TwistStamped {
  Header header;
  Twist twist;
  bool operator==(const TwistStamped&) const = default;
};

struct Transform {
  Vector3 translation;
  Quaternion rotation;
  bool operator==(const Transform&) const = default;
};

struct TransformStamped {
  Header header;
  std::string child_frame_id;
  Transform transform;
  bool operator==(const TransformStamped&) const = default;
};

// ---- tf2_msgs, nav_msgs -------------------------------------------------------------------------

struct TFMessage {
  std::vector<TransformStamped> transforms;
  bool operator==(const TFMessage&) const = default;
};

struct Odometry {
  Header header;
  std::string child_frame_id;
  PoseWithCovariance pose;
  TwistWithCovariance twist;
  bool operator==(const Odometry&) const = default;
};

struct MapMetaData {
  Time map_load_time;
  float resolution = 0;  // m per cell (square cells)
  std::uint32_t width = 0, height = 0;
  Pose origin;  // cell (0, 0)'s corner in the map frame
  bool operator==(const MapMetaData&) const = default;
};

// Row-major from cell (0, 0): data[y * width + x], occupancy 0..100, -1 unknown.
struct OccupancyGrid {
  Header header;
  MapMetaData info;
  std::vector<std::int8_t> data;
  bool operator==(const OccupancyGrid&) const = default;
};

// ---- sensor_msgs --------------------------------------------------------------------------------

struct LaserScan {
  Header header;
  float angle_min = 0, angle_max = 0, angle_increment = 0, time_increment = 0, scan_time = 0;
  float range_min = 0, range_max = 0;
  std::vector<float> ranges;
  std::vector<float> intensities;
  bool operator==(const LaserScan&) const = default;
};

struct PointField {
  // Datatype constants of sensor_msgs/PointField.
  static constexpr std::uint8_t kInt8 = 1, kUint8 = 2, kInt16 = 3, kUint16 = 4, kInt32 = 5,
                                kUint32 = 6, kFloat32 = 7, kFloat64 = 8;
  std::string name;
  std::uint32_t offset = 0;
  std::uint8_t datatype = 0;
  std::uint32_t count = 0;
  bool operator==(const PointField&) const = default;
};

struct PointCloud2 {
  Header header;
  std::uint32_t height = 0, width = 0;
  std::vector<PointField> fields;
  bool is_bigendian = false;
  std::uint32_t point_step = 0, row_step = 0;
  std::vector<std::uint8_t> data;
  bool is_dense = false;
  bool operator==(const PointCloud2&) const = default;
};

struct Imu {
  Header header;
  Quaternion orientation;
  std::array<double, 9> orientation_covariance{};
  Vector3 angular_velocity;
  std::array<double, 9> angular_velocity_covariance{};
  Vector3 linear_acceleration;
  std::array<double, 9> linear_acceleration_covariance{};
  bool operator==(const Imu&) const = default;
};

struct Image {
  Header header;
  std::uint32_t height = 0, width = 0;
  std::string encoding;
  std::uint8_t is_bigendian = 0;
  std::uint32_t step = 0;
  std::vector<std::uint8_t> data;
  bool operator==(const Image&) const = default;
};

struct RegionOfInterest {
  std::uint32_t x_offset = 0, y_offset = 0, height = 0, width = 0;
  bool do_rectify = false;
  bool operator==(const RegionOfInterest&) const = default;
};

struct CameraInfo {
  Header header;
  std::uint32_t height = 0, width = 0;
  std::string distortion_model;
  std::vector<double> d;
  std::array<double, 9> k{};
  std::array<double, 9> r{};
  std::array<double, 12> p{};
  std::uint32_t binning_x = 0, binning_y = 0;
  RegionOfInterest roi;
  bool operator==(const CameraInfo&) const = default;
};

struct CompressedImage {
  Header header;
  std::string format;
  std::vector<std::uint8_t> data;
  bool operator==(const CompressedImage&) const = default;
};

// ---- visualization_msgs (Jazzy's Marker: with textures and embedded meshes)
// ----------------------

struct UVCoordinate {
  float u = 0, v = 0;
  bool operator==(const UVCoordinate&) const = default;
};

struct MeshFile {
  std::string filename;
  std::vector<std::uint8_t> data;
  bool operator==(const MeshFile&) const = default;
};

struct Marker {
  // Marker.msg's constants (type, action) that ubot uses.
  static constexpr std::int32_t kArrow = 0, kCylinder = 3, kLineStrip = 4, kLineList = 5,
                                kCubeList = 6, kSphereList = 7, kTriangleList = 11;
  static constexpr std::int32_t kAdd = 0, kDeleteAll = 3;
  Header header;
  std::string ns;
  std::int32_t id = 0;
  std::int32_t type = 0;
  std::int32_t action = 0;
  Pose pose;
  Vector3 scale;
  ColorRGBA color;
  Duration lifetime;
  bool frame_locked = false;
  std::vector<Point> points;
  std::vector<ColorRGBA> colors;
  std::string texture_resource;
  CompressedImage texture;
  std::vector<UVCoordinate> uv_coordinates;
  std::string text;
  std::string mesh_resource;
  MeshFile mesh_file;
  bool mesh_use_embedded_materials = false;
  bool operator==(const Marker&) const = default;
};

struct MarkerArray {
  std::vector<Marker> markers;
  bool operator==(const MarkerArray&) const = default;
};

// ---- Type identities ----------------------------------------------------------------------------

// X(C++ type, ROS package) for every top-level message the transports carry.
#define UBOT_ROS2_MESSAGE_TYPES(X) \
  X(Clock, rosgraph_msgs)          \
  X(TFMessage, tf2_msgs)           \
  X(Odometry, nav_msgs)            \
  X(OccupancyGrid, nav_msgs)       \
  X(Twist, geometry_msgs)          \
  X(TwistStamped, geometry_msgs)   \
  X(LaserScan, sensor_msgs)        \
  X(PointCloud2, sensor_msgs)      \
  X(Imu, sensor_msgs)              \
  X(Image, sensor_msgs)            \
  X(CameraInfo, sensor_msgs)       \
  X(MarkerArray, visualization_msgs)

enum class MessageKind {
#define UBOT_ROS2_KIND(T, pkg) k##T,
  UBOT_ROS2_MESSAGE_TYPES(UBOT_ROS2_KIND)
#undef UBOT_ROS2_KIND
};

// Names of a message type: ROS ("sensor_msgs/msg/LaserScan") and DDS
// ("sensor_msgs::msg::dds_::LaserScan_", the name rmw_cyclonedds and rmw_fastrtps register).
struct MessageType {
  MessageKind kind;
  const char* ros_name;
  const char* dds_name;
  bool operator==(const MessageType&) const = default;
};

const MessageType& message_type(MessageKind kind);

template <class M>
struct MessageTraits;
#define UBOT_ROS2_TRAITS(T, pkg)                           \
  template <>                                              \
  struct MessageTraits<T> {                                \
    static constexpr MessageKind kind = MessageKind::k##T; \
  };
UBOT_ROS2_MESSAGE_TYPES(UBOT_ROS2_TRAITS)
#undef UBOT_ROS2_TRAITS

}  // namespace ubot::ros2
