// The contact2d type's ROS 2 piece (compiled into the ros2_msgs library): the contacts as
// visualization_msgs/MarkerArray on <ns>/contacts, in the world frame (`map`), for rviz and
// Foxglove: marker 0 a sphere list at the contact points, marker 1 a line list along each
// contact normal of length force × force_scale (the picture's drawing).
#include "ubot/core/color.h"
#include "ubot/ros2/message_producer.h"
#include "ubot/ros2/sensor_messages.h"
#include "ubot/ros2/sim_messages.h"
#include "ubot/sensors/contact2d/contact2d.h"
#include "ubot/sensors/contact2d/contact2d_sinks.h"

namespace ubot::ros2 {
namespace {

// The picture's sizes are in points; in the 3D views a point of marker size or line width is
// drawn as 1 cm, so the defaults give 6 cm markers and 1.5 cm lines.
constexpr double kMetresPerPoint = 0.01;

ColorRGBA marker_color(const Contact2dModel& p) {
  const Color c = parse_color(p.color).value_or(Color{0.8, 0.475, 0.655, 1.0});
  return {static_cast<float>(c.r), static_cast<float>(c.g), static_cast<float>(c.b),
          static_cast<float>(c.a * p.alpha)};
}

Marker base_marker(const Contact2d& s, Nanos now, std::int32_t id, std::int32_t type) {
  Marker m;
  m.header = {to_time(now), kWorldFrame};
  m.ns = s.model().common.name;
  m.id = id;
  m.type = type;
  m.action = Marker::ADD;
  m.color = marker_color(s.params());
  return m;
}

}  // namespace

MarkerArray contact_markers(const Contact2d& s, Nanos now, double z) {
  const Contact2dModel& p = s.params();
  Marker points = base_marker(s, now, 0, Marker::SPHERE_LIST);
  const double size = p.marker_size * kMetresPerPoint;
  points.scale = {size, size, size};
  Marker lines = base_marker(s, now, 1, Marker::LINE_LIST);
  lines.scale = {p.linewidth * kMetresPerPoint, 0.0, 0.0};
  for (const ContactReport& c : s.reading().reports) {
    points.points.push_back(point_at(c.point, z));
    lines.points.push_back(point_at(c.point, z));
    lines.points.push_back(point_at(c.point + c.normal * (c.force * p.force_scale), z));
  }
  return {{std::move(points), std::move(lines)}};
}

std::vector<int> sensor_topics(const TopicNamer& topics, const Contact2d&) {
  return {topics.sensor("contacts", MessageKind::kMarkerArray)};
}

void sensor_messages(const SensorMessageContext& c, const Contact2d& s) {
  const MarkerArray markers = contact_markers(s, c.now, 0.0);
  c.consume({c.topics[0], c.now, &markers});
}

// Contacts are drawn in the world frame; the sensor itself sits at the body origin.
Transform sensor_mount(const Contact2d&) { return Transform{}; }

void add_child_frames(TFMessage&, const Contact2d&) {}

}  // namespace ubot::ros2
