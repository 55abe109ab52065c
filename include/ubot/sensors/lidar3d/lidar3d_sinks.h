#pragma once
// The lidar3d type's piece of each sink: what frames.jsonl, ROS 2, pictures and maps do with it
// (defined in src/sensors/lidar3d/lidar3d_<piece>.cpp; see ubot/sensors/sink_pieces.h).
#include "ubot/sensors/sink_pieces.h"

namespace ubot {

class Lidar3d;

UBOT_DECLARE_SINK_PIECES(Lidar3d)

namespace mapping {
// lidar3d -> batch: the sweep's points in the world frame (each from the sensor pose at its
// firing time, so a distorted sweep still lands where it was measured); origin: the sensor's
// position at the sweep's end; intensity 0..1 scaled to LAS's 16 bits.
PointBatch batch_from_sweep(const Lidar3d& lidar, int scanner);
}  // namespace mapping

}  // namespace ubot
