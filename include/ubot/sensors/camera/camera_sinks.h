#pragma once
// The camera type's piece of each sink: what frames.jsonl, ROS 2, pictures and maps do with it
// (defined in src/sensors/camera/camera_<piece>.cpp; see ubot/sensors/sink_pieces.h).
#include "ubot/sensors/sink_pieces.h"

namespace ubot {

class Camera;

// frames.jsonl (record): its parameters in the header line and a sample's entry.
void write_frames_parameters(const FramesContext& f, const Camera& s);
void write_frames_sample(const FramesContext& f, const Camera& s);

namespace ros2 {
// ROS 2 messages (ros2_msgs): its topics, a sample's messages on them, its mounting on
// /tf_static (base_link -> its frame) and the further frames it adds there.
std::vector<int> sensor_topics(const TopicNamer& topics, const Camera& s);
void sensor_messages(const SensorMessageContext& c, const Camera& s);
Transform sensor_mount(const Camera& s);
void add_child_frames(TFMessage& tf, const Camera& s);
}  // namespace ros2

namespace viz {
// Pictures (viz): how many lines or dots its drawing holds (none: it draws nothing) and the
// drawing of its sample.
std::optional<std::size_t> beam_count(const Camera& s);
render::BeamsDrawing sensor_beams(const Camera& s);
}  // namespace viz

namespace mapping {
// Lidar maps (mapping_sim): its range_max when maps can take points from it (none: they cannot)
// and a sample's points.
std::optional<double> map_range_max(const Camera& s);
PointBatch map_batch(const Camera& s, int scanner);
}  // namespace mapping

}  // namespace ubot
