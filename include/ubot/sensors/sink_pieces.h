#pragma once
// The pieces of each sink a sensor type defines (declared for the type T in include/ubot/sensors/
// <type>/<type>_sinks.h by UBOT_DECLARE_SINK_PIECES(T), defined in src/sensors/<type>/
// <type>_<piece>.cpp) and the contexts they receive. Only forward declarations: the sensors
// library does not link the sinks; each piece compiles into its sink's library.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ubot {
struct FramesContext;  // ubot/record/frames_writer.h
namespace ros2 {
struct TopicNamer;            // ubot/ros2/message_producer.h
struct SensorMessageContext;  // ubot/ros2/message_producer.h
struct Transform;             // ubot/ros2/messages.h
struct TFMessage;
}  // namespace ros2
namespace render {
struct BeamsDrawing;  // ubot/render/drawing.h
}
namespace mapping {
struct PointBatch;  // ubot/mapping/accumulator.h
}
}  // namespace ubot

// Inside namespace ubot, after `class T;`: the sink pieces of sensor type T.
// frames.jsonl (record): its parameters in the header line and a sample's entry.
// ROS 2 messages (ros2_msgs): its topics, a sample's messages on them, its mounting on
// /tf_static (base_link -> its frame) and the further frames it adds there.
// Pictures (viz): how many lines or dots its drawing holds (none: it draws nothing) and the
// drawing of its sample.
// Lidar maps (mapping_sim): its range_max when maps can take points from it (none: they cannot)
// and a sample's points.
#define UBOT_DECLARE_SINK_PIECES(T)                                              \
  void write_frames_parameters(const FramesContext& f, const ::ubot::T& s);      \
  void write_frames_sample(const FramesContext& f, const ::ubot::T& s);          \
  namespace ros2 {                                                               \
  std::vector<int> sensor_topics(const TopicNamer& topics, const ::ubot::T& s);  \
  void sensor_messages(const SensorMessageContext& c, const ::ubot::T& s);       \
  Transform sensor_mount(const ::ubot::T& s);                                    \
  void add_child_frames(TFMessage& tf, const ::ubot::T& s);                      \
  }                                                                              \
  namespace viz {                                                                \
  std::optional<std::size_t> beam_count(const ::ubot::T& s);                     \
  render::BeamsDrawing sensor_beams(const ::ubot::T& s, std::size_t stride = 1); \
  }                                                                              \
  namespace mapping {                                                            \
  std::optional<double> map_range_max(const ::ubot::T& s);                       \
  PointBatch map_batch(const ::ubot::T& s, int scanner);                         \
  }
