// contact2d's ROS 2 piece: the contacts as a visualization_msgs/MarkerArray on <ns>/contacts,
// the same points and force lines as the picture (issue 14 item 4).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "ubot/config/load_world.h"
#include "ubot/ros2/message_producer.h"
#include "ubot/sim/simulation.h"
#include "ubot/world/world.h"

namespace ubot::ros2 {
namespace {

Simulation push_box() {
  std::ifstream in(std::string(UBOT_SOURCE_DIR) + "/examples/push_box.yaml");
  std::stringstream s;
  s << in.rdbuf();
  return Simulation(load_world_from_string(s.str(), "push_box.yaml"), {.threads = 1});
}

// The contact MarkerArray the producer emits for the step (not the world's markers,
// world_messages_test.cpp), and its topic's name and type.
MarkerArray step_markers(MessageProducer& producer, const Simulation& sim, Topic& topic) {
  MarkerArray got;
  int count = 0;
  producer.step_messages(sim, [&](const Message& m) {
    const auto* markers = std::get_if<const MarkerArray*>(&m.message);
    if (markers && producer.topics()[m.topic].name.ends_with("/contacts")) {
      got = **markers;
      topic = producer.topics()[m.topic];
      ++count;
    }
  });
  EXPECT_EQ(count, 1);
  return got;
}

TEST(ContactMarkers, PointsAndForceLinesOnTheRobotsContactsTopic) {
  Simulation sim = push_box();
  MessageProducer producer(sim, PublishedRobots::kAll);
  for (int k = 0; k < 30; ++k) sim.step();
  const ContactReading& r = sim.world().contact(0);
  ASSERT_EQ(r.reports.size(), 1u);
  Topic topic;
  const MarkerArray m = step_markers(producer, sim, topic);
  EXPECT_EQ(topic.name, "/robot_0/contacts");
  EXPECT_EQ(topic.kind, MessageKind::kMarkerArray);
  ASSERT_EQ(m.markers.size(), 2u);
  const Marker &points = m.markers[0], &lines = m.markers[1];
  EXPECT_EQ(points.header.frame_id, "map");
  EXPECT_EQ(points.header.stamp.sec, 3);
  EXPECT_EQ(points.header.stamp.nanosec, 0u);
  EXPECT_EQ(points.ns, "contact2d_0");
  EXPECT_EQ(points.type, Marker::SPHERE_LIST);
  EXPECT_EQ(lines.type, Marker::LINE_LIST);
  EXPECT_EQ(points.id, 0);
  EXPECT_EQ(lines.id, 1);
  EXPECT_DOUBLE_EQ(points.scale.x, 0.06);  // marker_size 6 at 1 cm per point
  EXPECT_DOUBLE_EQ(lines.scale.x, 0.015);  // linewidth 1.5
  // '#CC79A7' at alpha 0.9
  EXPECT_FLOAT_EQ(points.color.r, 0xCC / 255.0f);
  EXPECT_FLOAT_EQ(points.color.g, 0x79 / 255.0f);
  EXPECT_FLOAT_EQ(points.color.b, 0xA7 / 255.0f);
  EXPECT_FLOAT_EQ(points.color.a, 0.9f);
  const ContactReport& c = r.reports[0];
  ASSERT_EQ(points.points.size(), 1u);
  EXPECT_EQ(points.points[0], (Point{c.point.x(), c.point.y(), 0.0}));
  ASSERT_EQ(lines.points.size(), 2u);
  EXPECT_EQ(lines.points[0], points.points[0]);
  const Eigen::Vector2d end = c.point + c.normal * (c.force * 0.05);
  EXPECT_EQ(lines.points[1], (Point{end.x(), end.y(), 0.0}));
  EXPECT_LT(lines.points[1].x, lines.points[0].x);  // the force on the robot points back (-x)
}

TEST(ContactMarkers, NoContactGivesEmptyMarkersThatClearTheView) {
  Simulation sim = push_box();
  MessageProducer producer(sim, PublishedRobots::kAll);
  sim.step();
  Topic topic;
  const MarkerArray m = step_markers(producer, sim, topic);
  ASSERT_EQ(m.markers.size(), 2u);
  EXPECT_TRUE(m.markers[0].points.empty());
  EXPECT_TRUE(m.markers[1].points.empty());
}

}  // namespace
}  // namespace ubot::ros2
