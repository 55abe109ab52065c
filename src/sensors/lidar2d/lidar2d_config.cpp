// The `lidar2d` sensor type's YAML reader (compiled into the config library).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

#include "object_reader.h"
#include "sensor_fields.h"
#include "ubot/core/angles.h"

namespace ubot::config {
namespace {

// IR-SIM's flat (pre-`plot:`) drawing keys of the lidars; accepted for compatibility.
const char* const kLidarPlotKeys[] = {"alpha",
                                      "color",
                                      "velocity_color",
                                      "velocity_color_max",
                                      "velocity_linewidth",
                                      "no_hit_color",
                                      "no_hit_linewidth",
                                      "no_hit_alpha",
                                      "show_velocity_markers",
                                      "velocity_marker_size",
                                      "velocity_marker_edge_color",
                                      "velocity_marker_edge_width",
                                      "zero_velocity_color",
                                      "positive_velocity_color",
                                      "negative_velocity_color"};

Lidar2dModel read_lidar2d(Mapping& m, bool fmcw) {
  Lidar2dModel l;
  l.fmcw = fmcw;
  l.range_min = m.non_negative("range_min", l.range_min);
  if (auto f = m.get("range_max")) l.range_max = f->as_at_most(kMaxRange, "m");
  if (l.range_min > l.range_max) {
    m.get("range_min")
        ->fail(
            fmt::format("range_min ({}) must not exceed range_max ({})", l.range_min, l.range_max));
  }
  if (auto f = m.get("angle_range")) {
    // IR-SIM 2.12.0 clips it to a full turn (ClipTo2Pi): its lidar presets write 2π as 6.2832.
    l.angle_range = std::min(f->as_positive(), kTwoPi);
  }
  if (auto f = m.get("number")) {
    const std::int64_t n = f->as_integer();
    if (n < 1) f->fail(fmt::format("a lidar needs at least 1 beam, got {}", n));
    if (n > 1000000) f->fail(fmt::format("too many beams ({})", n));
    l.number = static_cast<int>(n);
  }
  l.std = m.non_negative("std", l.std);
  l.angle_std = m.non_negative("angle_std", l.angle_std);
  if (auto f = m.get("offset")) {
    const auto o = f->as_numbers(2, 3);
    for (std::size_t k = 0; k < o.size(); ++k) f->item(k).as_finite();
    l.offset = {o[0], o[1], o.size() > 2 ? o[2] : 0.0};
  }
  if (auto f = m.get("z")) l.z = f->as_finite();
  l.scan_time = m.positive("scan_time", l.scan_time);
  if (auto f = m.get("sample_time")) f->as_positive();  // IR-SIM metadata: scans run every step
  if (auto f = m.get("has_velocity")) {
    // IR-SIM's FMCW lidar passes has_velocity=False itself, so giving it there is an error.
    if (fmcw) f->fail("applies to lidar2d; fmcw_lidar2d reports radial_velocity instead");
    l.has_velocity = f->as_bool();
  }
  if (fmcw) {
    l.motion_compensate = m.boolean("motion_compensate", false);
    l.velocity_noise_std = m.non_negative("velocity_noise_std", l.velocity_noise_std);
  }
  m.ignore("plot");
  for (const char* key : kLidarPlotKeys) m.ignore(key);
  return l;
}

// Reads `key` or its `alternative` (another name or unit for the same setting); giving both is

}  // namespace

void read_sensor(Mapping& m, std::string_view type, SensorCommon& common, Lidar2dModel& params) {
  read_common(SensorKeys(m), common);
  params = read_lidar2d(m, type == "fmcw_lidar2d");
  read_smoke(m, common.smoke);
}

}  // namespace ubot::config
