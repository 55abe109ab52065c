#pragma once
// The contexts a sensor type's sink pieces receive (declared in include/ubot/sensors/<type>/
// <type>_sinks.h, defined in src/sensors/<type>/<type>_<piece>.cpp). Only forward declarations:
// the sensors library does not link the sinks; each piece compiles into its sink's library.
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
