#include "ubot/record/mcap_recorder.h"

#include <fmt/format.h>

#include "ubot/ros2/cdr.h"
#include "ubot/ros2/message_definition.h"
#include "ubot/ros2/ros2_config.h"
#include "ubot/ros2/type_hash.h"

namespace ubot {
namespace {

// rosbag2's offered_qos_profiles: a YAML list with one publisher's profile, rmw enums as numbers
// (history 1 keep_last; reliability 1 reliable, 2 best_effort; durability 1 transient_local,
// 2 volatile; liveliness 1 automatic), durations 0 = the rmw default (none).
std::string offered_qos_yaml(const Ros2QosModel& qos) {
  return fmt::format(
      "- history: 1\n  depth: {}\n  reliability: {}\n  durability: {}\n"
      "  deadline:\n    sec: 0\n    nsec: 0\n  lifespan:\n    sec: 0\n    nsec: 0\n"
      "  liveliness: 1\n  liveliness_lease_duration:\n    sec: 0\n    nsec: 0\n"
      "  avoid_ros_namespace_conventions: false",
      qos.depth, qos.reliable ? 1 : 2, qos.transient_local ? 1 : 2);
}

}  // namespace

McapRecorder::McapRecorder(const std::string& path, const Simulation& sim,
                           McapRecorderOptions options)
    : writer_(path, {.profile = "ros2",
                     .library = fmt::format("ubot {}", UBOT_VERSION),
                     .compression = options.compression,
                     .chunk_size = options.chunk_size}),
      producer_(sim, ros2::PublishedRobots::kAll) {
  producer_.static_messages(sim, [this](const ros2::Message& m) { write(m); });
}

McapRecorder::~McapRecorder() = default;

McapRecorder::Channel& McapRecorder::channel(int topic) {
  if (topic >= static_cast<int>(channels_.size())) channels_.resize(topic + 1);
  if (channels_[topic]) return *channels_[topic];
  // Channels (and schemas) are added at their first message, so the file lists them in the order
  // the run first used them.
  const ros2::Topic& t = producer_.topics()[topic];
  auto schema = schemas_.find(t.kind);
  if (schema == schemas_.end()) {
    const char* name = ros2::message_type(t.kind).ros_name;
    schema =
        schemas_
            .emplace(t.kind, writer_.add_schema(name, "ros2msg", ros2::message_definition(name)))
            .first;
  }
  const std::uint16_t id = writer_.add_channel(schema->second, t.name, "cdr",
                                               {{"offered_qos_profiles", offered_qos_yaml(t.qos)},
                                                {"topic_type_hash", ros2::type_hash(t.kind)}});
  return channels_[topic].emplace(Channel{id, 0});
}

void McapRecorder::write(const ros2::Message& m) {
  Channel& c = channel(m.topic);
  std::visit([this](const auto* message) { ros2::serialize_cdr(*message, buffer_); }, m.message);
  writer_.write(c.id, c.sequence++, m.time, m.time, buffer_);
}

void McapRecorder::record(const Simulation& sim) {
  now_ = sim.world().time_ns();
  producer_.step_messages(sim, [this](const ros2::Message& m) { write(m); });
}

void McapRecorder::record_points(int object_id, const std::string& sensor_name,
                                 const ros2::PointCloudData& cloud) {
  const int topic =
      producer_.sensor_topic(object_id, sensor_name, "points", ros2::MessageKind::kPointCloud2);
  if (topic < 0) return;
  ros2::to_point_cloud2(cloud, cloud_);
  write({topic, now_, &cloud_});
}

void McapRecorder::close() { writer_.close(); }

}  // namespace ubot
