#pragma once
// The lidar2d type's piece of each sink: what frames.jsonl, ROS 2, pictures and maps do with it
// (defined in src/sensors/lidar2d/lidar2d_<piece>.cpp; see ubot/sensors/sink_pieces.h).
#include "ubot/sensors/sink_pieces.h"

namespace ubot {

class Lidar2d;

UBOT_DECLARE_SINK_PIECES(Lidar2d)

namespace mapping {
// lidar2d / fmcw_lidar2d -> batch: the valid beams as world points,
// origin + r·(cos(yaw + angle), sin(yaw + angle)) at the scan plane's height; intensity 0..1
// scaled to LAS's 16 bits.
PointBatch batch_from_scan(const Lidar2d& lidar, int scanner);
}  // namespace mapping

}  // namespace ubot
