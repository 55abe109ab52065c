#pragma once
// The lidar3d type's piece of each sink: what frames.jsonl, ROS 2, pictures and maps do with it
// (defined in src/sensors/lidar3d/lidar3d_<piece>.cpp; see ubot/sensors/sink_pieces.h).
#include "ubot/sensors/sink_pieces.h"

namespace ubot {

class Lidar3d;

// frames.jsonl (record): its parameters in the header line and a sample's entry.
void write_frames_parameters(const FramesContext& f, const Lidar3d& s);
void write_frames_sample(const FramesContext& f, const Lidar3d& s);

namespace ros2 {
// ROS 2 messages (ros2_msgs): its topics, a sample's messages on them, its mounting on
// /tf_static (base_link -> its frame) and the further frames it adds there.
std::vector<int> sensor_topics(const TopicNamer& topics, const Lidar3d& s);
void sensor_messages(const SensorMessageContext& c, const Lidar3d& s);
Transform sensor_mount(const Lidar3d& s);
void add_child_frames(TFMessage& tf, const Lidar3d& s);
}  // namespace ros2

namespace viz {
// Pictures (viz): how many lines or dots its drawing holds (none: it draws nothing) and the
// drawing of its sample.
std::optional<std::size_t> beam_count(const Lidar3d& s);
render::BeamsDrawing sensor_beams(const Lidar3d& s);
}  // namespace viz

namespace mapping {
// Lidar maps (mapping_sim): its range_max when maps can take points from it (none: they cannot)
// and a sample's points.
std::optional<double> map_range_max(const Lidar3d& s);
PointBatch map_batch(const Lidar3d& s, int scanner);
// lidar3d -> batch: the sweep's points in the world frame (each from the sensor pose at its
// firing time, so a distorted sweep still lands where it was measured); origin: the sensor's
// position at the sweep's end; intensity 0..1 scaled to LAS's 16 bits.
PointBatch batch_from_sweep(const Lidar3d& lidar, int scanner);
}  // namespace mapping

}  // namespace ubot
