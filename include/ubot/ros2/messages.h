#pragma once
// The ROS 2 messages the bridge speaks, as plain C++ structs with the official field names, types
// and constants (ros2/common_interfaces, rcl_interfaces, geometry2). They are generated with their
// CDR, CycloneDDS conversions and type descriptions from one definition, src/ros2/idl/*.idl
// (generate_messages.py, docs/ros2.md), and are transport-independent: the CycloneDDS transport
// maps them onto idlc's C types of the same files, the fake transport of the tests passes them
// through. A new message: its struct in an .idl file, and a line in the list below if it is sent.
#include "ubot/ros2/message_structs.h"

namespace ubot::ros2 {

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
