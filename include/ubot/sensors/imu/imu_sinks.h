#pragma once
// The imu type's piece of each sink: what frames.jsonl, ROS 2, pictures and maps do with it
// (defined in src/sensors/imu/imu_<piece>.cpp; see ubot/sensors/sink_pieces.h).
#include "ubot/sensors/sink_pieces.h"

namespace ubot {

class Imu;

UBOT_DECLARE_SINK_PIECES(Imu)

}  // namespace ubot
