#pragma once
// The camera type's piece of each sink: what frames.jsonl, ROS 2, pictures and maps do with it
// (defined in src/sensors/camera/camera_<piece>.cpp; see ubot/sensors/sink_pieces.h).
#include "ubot/sensors/sink_pieces.h"

namespace ubot {

class Camera;

UBOT_DECLARE_SINK_PIECES(Camera)

}  // namespace ubot
