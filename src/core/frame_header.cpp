#include "ubot/core/frame_header.h"

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

}  // namespace ubot
