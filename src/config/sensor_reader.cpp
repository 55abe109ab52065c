// The `sensors:` list of an object. IR-SIM names a sensor's type with `name` (or `type`).
#include <fmt/format.h>

#include <map>
#include <numbers>

#include "object_reader.h"

namespace ubot::config {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

void read_common(Mapping& m, SensorCommon& c) {
  c.enabled = m.boolean("enabled", true);
  c.auto_start = m.boolean("auto_start", true);
  if (auto f = m.get("update_rate_hz")) c.update_rate_hz = f->as_positive();
  c.noise = m.boolean("noise", false);
  if (auto f = m.get("seed")) {
    const std::int64_t s = f->as_integer();
    if (s < 0) f->fail("seed must not be negative");
    c.seed = static_cast<std::uint64_t>(s);
  }
}

// Perception-media properties (SPEC §8), the same on every lidar and camera.
void read_smoke(Mapping& m, media::SmokeSettings& smoke) {
  smoke.enable_smoke_interference = m.boolean("enable_smoke_interference", true);
  smoke.smoke_density_threshold = m.non_negative("smoke_density_threshold", 0.05);
  smoke.smoke_cell_radius_scale = m.non_negative("smoke_cell_radius_scale", 1.0);
  // "", null or None (the uBot spelling) switch the legacy tag path off.
  if (m.has("smoke_volume_tag")) {
    const auto f = m.get("smoke_volume_tag");
    smoke.smoke_volume_tag = f ? f->as_string() : "";
    if (smoke.smoke_volume_tag == "None") smoke.smoke_volume_tag.clear();
  }
}

// IR-SIM's flat (pre-`plot:`) drawing keys of the lidars; accepted for compatibility.
const char* const kLidarPlotKeys[] = {"alpha",
                                      "color",
                                      "velocity_color",
                                      "velocity_color_max",
                                      "velocity_linewidth",
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
  l.range_min = m.non_negative("range_min", 0.0);
  l.range_max = m.positive("range_max", 10.0);
  if (l.range_min > l.range_max) {
    m.get("range_min")
        ->fail(
            fmt::format("range_min ({}) must not exceed range_max ({})", l.range_min, l.range_max));
  }
  if (auto f = m.get("angle_range")) {
    l.angle_range = f->as_positive();
    if (l.angle_range > kTwoPi + 1e-6) {
      f->fail(fmt::format("must be at most 2π (6.283185), got {}", l.angle_range));
    }
  }
  if (auto f = m.get("number")) {
    const std::int64_t n = f->as_integer();
    if (n < 1) f->fail(fmt::format("a lidar needs at least 1 beam, got {}", n));
    if (n > 1000000) f->fail(fmt::format("too many beams ({})", n));
    l.number = static_cast<int>(n);
  }
  l.std = m.non_negative("std", 0.2);
  l.angle_std = m.non_negative("angle_std", 0.0);
  if (auto f = m.get("offset")) {
    const auto o = f->as_numbers(2, 3);
    for (std::size_t k = 0; k < o.size(); ++k) f->item(k).as_finite();
    l.offset = {o[0], o[1], o.size() > 2 ? o[2] : 0.0};
  }
  if (auto f = m.get("z")) l.z = f->as_finite();
  l.scan_time = m.positive("scan_time", 0.1);
  if (auto f = m.get("sample_time")) f->as_positive();  // IR-SIM metadata: scans run every step
  if (fmcw) {
    l.motion_compensate = m.boolean("motion_compensate", false);
    l.velocity_noise_std = m.non_negative("velocity_noise_std", 0.0);
  }
  m.ignore("plot");
  for (const char* key : kLidarPlotKeys) m.ignore(key);
  return l;
}

}  // namespace

std::vector<SensorModel> read_sensors(const Field& list) {
  if (!list.is_sequence()) list.fail("expected a list of sensors");
  std::vector<SensorModel> sensors;
  std::map<std::string, int> count_by_type;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Field entry = list.item(i);
    if (!entry.is_map()) entry.fail("expected a mapping describing a sensor");
    Mapping m(entry);
    std::optional<Field> type_field = m.get("name");
    if (auto t = m.get("type")) type_field = type_field ? type_field : t;
    const std::string type =
        type_field ? type_field->as_choice({"lidar2d", "fmcw_lidar2d"}) : "lidar2d";
    SensorModel s;
    read_common(m, s.common);
    s.common.name = fmt::format("{}_{}", type, count_by_type[type]++);
    s.params = read_lidar2d(m, type == "fmcw_lidar2d");
    read_smoke(m, s.common.smoke);
    m.finish();
    sensors.push_back(std::move(s));
  }
  return sensors;
}

}  // namespace ubot::config
