#pragma once
// The header every sensor output carries (uBotCore's FUBotFrameHeader, in SI units).
#include <cstdint>
#include <string>

#include "ubot/core/time.h"

namespace ubot {

struct FrameHeader {
  std::string sensor_id;       // stable id, e.g. "robot_0/lidar2d_0"
  std::string frame_id;        // TF frame of the data, e.g. "robot_0/lidar2d_0"
  std::uint64_t sequence = 0;  // 0 for the first sample after start, +1 per sample
  Nanos stamp = 0;             // simulation time of the sample
  bool valid = false;
  std::string status;  // sensor-specific status name, e.g. "Valid", "WarmingUp", "Disabled"
};

}  // namespace ubot
