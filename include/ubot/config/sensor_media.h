#pragma once
// What a sensor's model says about the perception media (SPEC §8) it sees: its smoke settings
// (every lidar and camera) and the colour of a medium (a camera's tint of legacy-tag media).
// Plain data, here rather than in ubot/media so that the WorldModel depends on no media header;
// the media layer (ubot/media/medium.h) reads them.
#include <string>

namespace ubot::media {

struct Tint {
  double r = 0.55, g = 0.55, b = 0.55;
};

// A sensor's smoke properties (SPEC §8; the same on every lidar and camera).
struct SmokeSettings {
  bool enable_smoke_interference = true;
  double smoke_density_threshold = 0.05;  // cells with effective density below are ignored
  double smoke_cell_radius_scale = 1.0;   // at least kMinRadiusScale
  std::string smoke_volume_tag = "AgentSensor.SmokeVolume";  // legacy path; "" disables it

  static constexpr double kMinRadiusScale = 0.01;
  double radius_scale() const {
    return smoke_cell_radius_scale < kMinRadiusScale ? kMinRadiusScale : smoke_cell_radius_scale;
  }
};

}  // namespace ubot::media
