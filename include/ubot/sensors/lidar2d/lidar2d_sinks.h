#pragma once
// The lidar2d type's piece of each sink: what frames.jsonl, ROS 2, pictures and maps do with it
// (defined in src/sensors/lidar2d/lidar2d_<piece>.cpp; see ubot/sensors/sink_pieces.h).
#include "ubot/sensors/sink_pieces.h"

namespace ubot {

class Lidar2d;

// frames.jsonl (record): its parameters in the header line and a sample's entry.
void write_frames_parameters(const FramesContext& f, const Lidar2d& s);
void write_frames_sample(const FramesContext& f, const Lidar2d& s);

namespace ros2 {
// ROS 2 messages (ros2_msgs): its topics, a sample's messages on them, its mounting on
// /tf_static (base_link -> its frame) and the further frames it adds there.
std::vector<int> sensor_topics(const TopicNamer& topics, const Lidar2d& s);
void sensor_messages(const SensorMessageContext& c, const Lidar2d& s);
Transform sensor_mount(const Lidar2d& s);
void add_child_frames(TFMessage& tf, const Lidar2d& s);
}  // namespace ros2

namespace viz {
// Pictures (viz): how many lines or dots its drawing holds (none: it draws nothing) and the
// drawing of its sample.
std::optional<std::size_t> beam_count(const Lidar2d& s);
render::BeamsDrawing sensor_beams(const Lidar2d& s);
}  // namespace viz

namespace mapping {
// Lidar maps (mapping_sim): its range_max when maps can take points from it (none: they cannot)
// and a sample's points.
std::optional<double> map_range_max(const Lidar2d& s);
PointBatch map_batch(const Lidar2d& s, int scanner);
// lidar2d / fmcw_lidar2d -> batch: the valid beams as world points,
// origin + r·(cos(yaw + angle), sin(yaw + angle)) at the scan plane's height; intensity 0..1
// scaled to LAS's 16 bits.
PointBatch batch_from_scan(const Lidar2d& lidar, int scanner);
}  // namespace mapping

}  // namespace ubot
