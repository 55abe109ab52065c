#pragma once
// The header every sensor output carries (uBotCore's FUBotFrameHeader, in SI units).
#include <cstdint>
#include <string>

#include "ubot/core/time.h"

namespace ubot {

// Status of a sample, named as uBotCore's EUBotSampleStatus. Every sensor uses kValid and
// kDisabled; the IMU also kWarmingUp, kInvalidDeltaTime and kTeleportDetected.
enum class SampleStatus { kValid, kWarmingUp, kInvalidDeltaTime, kTeleportDetected, kDisabled };
// The name frames.jsonl and the IMU CSV write: "Valid", "WarmingUp", ...
const char* sample_status_name(SampleStatus status);

class StateIo;

struct FrameHeader {
  std::string sensor_id;       // stable id, e.g. "robot_0/lidar2d_0"
  std::string frame_id;        // TF frame of the data, e.g. "robot_0/lidar2d_0"
  std::uint64_t sequence = 0;  // 0 for the first sample after start, +1 per sample
  Nanos stamp = 0;             // simulation time of the sample
  bool valid = false;          // status == SampleStatus::kValid
  SampleStatus status = SampleStatus::kDisabled;  // kDisabled until the first sample
  bool disabled() const { return status == SampleStatus::kDisabled; }
};
// Its counters (state files, core/state_io.h): sequence, stamp, valid, status; the ids come
// from the model.
void io(StateIo& s, FrameHeader& h);

}  // namespace ubot
