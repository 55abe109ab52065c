#pragma once
// Mapping between the structs of messages.h and the C types idlc generates from
// src/ros2/idl/*.idl. to_c() makes a non-owning view (strings and sequences point into the C++
// message; CycloneDDS serialises the view during dds_write, so it only has to outlive that call);
// from_c() copies.
#include <vector>

#include "builtin_interfaces.h"
#include "geometry_msgs.h"
#include "nav_msgs.h"
#include "rosgraph_msgs.h"
#include "sensor_msgs.h"
#include "std_msgs.h"
#include "tf2_msgs.h"
#include "ubot/ros2/messages.h"
#include "visualization_msgs.h"

namespace ubot::ros2::cyclone {

// Storage for the C elements of sequences of structs while a view is alive.
struct Scratch {
  std::vector<sensor_msgs_msg_dds__PointField_> fields;
  std::vector<geometry_msgs_msg_dds__TransformStamped_> transforms;
  std::vector<visualization_msgs_msg_dds__Marker_> markers;
  std::vector<std::vector<geometry_msgs_msg_dds__Point_>> marker_points;           // per marker
  std::vector<std::vector<std_msgs_msg_dds__ColorRGBA_>> marker_colors;            // per marker
  std::vector<std::vector<visualization_msgs_msg_dds__UVCoordinate_>> marker_uvs;  // per marker
};

template <class M>
struct CType;
#define UBOT_CTYPE(T, pkg)                                                                    \
  template <>                                                                                 \
  struct CType<T> {                                                                           \
    using type = pkg##_msg_dds__##T##_;                                                       \
    static const dds_topic_descriptor_t* descriptor() { return &pkg##_msg_dds__##T##__desc; } \
  };
UBOT_ROS2_MESSAGE_TYPES(UBOT_CTYPE)
#undef UBOT_CTYPE

#define UBOT_CONVERT(T, pkg)                                            \
  void to_c(const T& in, pkg##_msg_dds__##T##_& out, Scratch& scratch); \
  void from_c(const pkg##_msg_dds__##T##_& in, T& out);
UBOT_ROS2_MESSAGE_TYPES(UBOT_CONVERT)
#undef UBOT_CONVERT

}  // namespace ubot::ros2::cyclone
