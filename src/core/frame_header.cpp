#include "ubot/core/frame_header.h"

#include <fmt/format.h>

#include "ubot/core/state_io.h"

namespace ubot {

const char* sample_status_name(SampleStatus status) {
  switch (status) {
    case SampleStatus::kValid:
      return "Valid";
    case SampleStatus::kWarmingUp:
      return "WarmingUp";
    case SampleStatus::kInvalidDeltaTime:
      return "InvalidDeltaTime";
    case SampleStatus::kTeleportDetected:
      return "TeleportDetected";
    case SampleStatus::kDisabled:
      return "Disabled";
  }
  return "?";
}

void io(StateIo& s, FrameHeader& h) {
  s.value(h.sequence);
  s.value(h.stamp);
  s.value(h.valid);
  auto status = static_cast<std::uint8_t>(h.status);
  s.value(status);
  if (s.reading()) {
    if (status > static_cast<std::uint8_t>(SampleStatus::kDisabled)) {
      s.fail(fmt::format("a sample status of {}", status));
    }
    h.status = static_cast<SampleStatus>(status);
  }
}

}  // namespace ubot
