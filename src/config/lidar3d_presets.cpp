#include "lidar3d_presets.h"

#include <algorithm>
#include <numbers>

namespace ubot::config {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

std::vector<double> uniform_deg(int channels, double min_deg, double max_deg) {
  std::vector<double> a(static_cast<std::size_t>(channels));
  for (int k = 0; k < channels; ++k) {
    a[k] = (min_deg + (max_deg - min_deg) * k / (channels - 1)) * kDeg;
  }
  return a;
}

Lidar3dModel make(std::string name, std::vector<double> angles, int columns, double range_min,
                  double range_max, double std) {
  Lidar3dModel m;
  m.preset = std::move(name);
  std::sort(angles.begin(), angles.end());
  m.vertical_angles = std::move(angles);
  m.number = columns;
  m.range_min = range_min;
  m.range_max = range_max;
  m.std = std;
  m.rotation_rate_hz = 10.0;
  return m;
}

std::vector<Lidar3dModel> presets() {
  std::vector<Lidar3dModel> p;
  // Velodyne VLP-16 (Puck) datasheet: 16 channels, -15 deg to +15 deg every 2 deg, 100 m, range
  // accuracy +/-3 cm typical, 0.2 deg horizontal resolution at 10 Hz (1800 columns).
  p.push_back(make("VLP-16", uniform_deg(16, -15.0, 15.0), 1800, 0.0, 100.0, 0.03));
  // Velodyne VLP-32C (Ultra Puck) user manual, laser ID -> vertical angle table (non-uniform,
  // -25 deg to +15 deg, dense near the horizon); 200 m; 0.2 deg at 10 Hz.
  const double vlp32c[] = {-25.0,  -1.0,  -1.667, -15.639, -11.31, 0.0,   -0.667, -8.843,
                           -7.254, 0.333, -0.333, -6.148,  -5.333, 1.333, 0.667,  -4.0,
                           -4.667, 1.667, 1.0,    -3.667,  -3.333, 3.333, 2.333,  -2.667,
                           -3.0,   7.0,   4.667,  -2.333,  -2.0,   15.0,  10.333, -1.333};
  std::vector<double> a32;
  for (double d : vlp32c) a32.push_back(d * kDeg);
  p.push_back(make("VLP-32C", a32, 1800, 0.0, 200.0, 0.03));
  // Ouster OS1 rev 6 / rev 7 with uniform beam spacing: 45 deg vertical field of view
  // (+22.5 deg to -22.5 deg) for 32, 64 and 128 channels; 512 / 1024 / 2048 columns at 10 or
  // 20 Hz (1024 here). Range 0.8 m to 120 m and +/-3 cm at SNR 100: the OS1 datasheet.
  for (int channels : {32, 64, 128}) {
    p.push_back(make("OS1-" + std::to_string(channels), uniform_deg(channels, -22.5, 22.5), 1024,
                     0.8, 120.0, 0.03));
  }
  // Ouster OS1 Gen 1 datasheet: +16.6 deg to -16.6 deg (33.2 deg) for the 64- and 16-channel
  // models (its 128-channel model already had 45 deg: use OS1-128).
  for (int channels : {16, 64}) {
    p.push_back(make("OS1-" + std::to_string(channels) + "-Gen1",
                     uniform_deg(channels, -16.6, 16.6), 1024, 0.8, 120.0, 0.03));
  }
  return p;
}

const std::vector<Lidar3dModel>& all() {
  static const std::vector<Lidar3dModel> kPresets = presets();
  return kPresets;
}

}  // namespace

const std::vector<std::string>& lidar3d_preset_names() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const Lidar3dModel& m : all()) names.push_back(m.preset);
    return names;
  }();
  return kNames;
}

std::optional<Lidar3dModel> lidar3d_preset(std::string_view name) {
  for (const Lidar3dModel& m : all()) {
    if (m.preset == name) return m;
  }
  return std::nullopt;
}

}  // namespace ubot::config
