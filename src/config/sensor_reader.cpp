// The `sensors:` list of an object. IR-SIM names a sensor's type with `name` (or `type`).
#include <fmt/format.h>

#include <map>
#include <numbers>
#include <optional>

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

Eigen::Vector3d read_vector3(Mapping& m, std::string_view key) {
  const auto f = m.get(key);
  if (!f) return Eigen::Vector3d::Zero();
  const auto v = f->as_numbers(3, 3);
  for (std::size_t k = 0; k < 3; ++k) f->item(k).as_finite();
  return {v[0], v[1], v[2]};
}

// Reads `key` or its `alternative` (another name or unit for the same setting); giving both is
// an error, since one would silently win.
std::optional<Field> one_of(Mapping& m, std::string_view key, std::string_view alternative) {
  auto a = m.get(key);
  auto b = m.get(alternative);
  if (a && b) b->fail(fmt::format("give either {} or {}, not both", key, alternative));
  return a ? a : b;
}

// White noise per sample (σ) or as a Kalibr density; one of the two.
void read_white_noise(Mapping& m, std::string_view std_key, std::string_view density_key,
                      double& std, std::optional<double>& density) {
  const auto s = m.get(std_key);
  const auto d = m.get(density_key);
  if (s && d) d->fail(fmt::format("give either {} or {}, not both", std_key, density_key));
  if (s) std = s->as_non_negative();
  if (d) density = d->as_non_negative();
}

ImuModel read_imu(Mapping& m) {
  ImuModel p;
  p.offset = read_vector3(m, "offset");
  p.rpy = read_vector3(m, "rpy");
  read_white_noise(m, "accelerometer_noise_std", "accelerometer_noise_density",
                   p.accelerometer_noise_std, p.accelerometer_noise_density);
  read_white_noise(m, "gyroscope_noise_std", "gyroscope_noise_density", p.gyroscope_noise_std,
                   p.gyroscope_noise_density);
  p.accelerometer_bias = read_vector3(m, "accelerometer_bias");
  p.gyroscope_bias = read_vector3(m, "gyroscope_bias");
  // The seed document's "bias random walk std" (per √s) and Kalibr's "random_walk" are the same
  // quantity in the same unit.
  if (auto f = one_of(m, "accelerometer_bias_random_walk_std", "accelerometer_random_walk")) {
    p.accelerometer_bias_random_walk_std = f->as_non_negative();
  }
  if (auto f = one_of(m, "gyroscope_bias_random_walk_std", "gyroscope_random_walk")) {
    p.gyroscope_bias_random_walk_std = f->as_non_negative();
  }
  p.low_pass = m.boolean("low_pass", false);
  if (auto f = m.get("low_pass_cutoff_hz")) {
    p.low_pass_cutoff_hz = f->as_positive();
    if (p.low_pass_cutoff_hz < 0.1) f->fail("must be at least 0.1 Hz");
  }
  p.clamp = m.boolean("clamp", false);
  p.max_linear_acceleration = m.positive("max_linear_acceleration", 100.0);
  p.max_angular_velocity = m.positive("max_angular_velocity", 50.0);
  p.teleport_distance = m.positive("teleport_distance", 5.0);
  p.teleport_angle_deg = m.positive("teleport_angle_deg", 120.0);
  p.max_sample_dt = m.positive("max_sample_dt", 0.5);
  return p;
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
        type_field ? type_field->as_choice({"lidar2d", "fmcw_lidar2d", "imu"}) : "lidar2d";
    SensorModel s;
    read_common(m, s.common);
    s.common.name = fmt::format("{}_{}", type, count_by_type[type]++);
    if (type == "imu") {
      s.common.update_rate_hz = s.common.update_rate_hz.value_or(kImuDefaultRateHz);
      s.common.seed = s.common.seed.value_or(kImuDefaultSeed);
      s.params = read_imu(m);
    } else {
      s.params = read_lidar2d(m, type == "fmcw_lidar2d");
      read_smoke(m, s.common.smoke);
    }
    m.finish();
    sensors.push_back(std::move(s));
  }
  return sensors;
}

}  // namespace ubot::config
