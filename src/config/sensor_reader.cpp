// The `sensors:` list of an object. IR-SIM names a sensor's type with `name` (or `type`).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <optional>

#include "lidar3d_presets.h"
#include "object_reader.h"
#include "ubot/core/angles.h"

namespace ubot::config {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

// The value of whichever of `keys` is given (names of one quantity); two given is an error
// naming both.
std::optional<Field> one_of(Mapping& m, std::initializer_list<std::string_view> keys) {
  std::optional<Field> found;
  std::string_view found_key;
  for (std::string_view key : keys) {
    auto f = m.get(key);
    if (!f) continue;
    if (found) f->fail(fmt::format("give either {} or {}, not both", found_key, key));
    found = f;
    found_key = key;
  }
  return found;
}

std::optional<Field> one_of(Mapping& m, std::string_view key, std::string_view alternative) {
  return one_of(m, {key, alternative});
}

// The IMU seed's property names (uBot IMU Sensor: "Noise Enabled", "Clamp Output", ...) in
// snake_case, accepted as aliases of ubot's keys so a uBot configuration ports unchanged. The
// seed's names that are already ubot's (update_rate_hz, auto_start, accelerometer_bias,
// gyroscope_bias, low_pass_cutoff_hz, max_linear_acceleration, max_angular_velocity) need none;
// the bias random walks, which also have Kalibr's names, are read in read_imu.
struct Alias {
  std::string_view key;
  std::string_view seed_name;
};
constexpr Alias kImuSeedNames[] = {
    {"enabled", "sensor_enabled"},
    {"noise", "noise_enabled"},
    {"seed", "random_seed"},
    {"accelerometer_noise_std", "accelerometer_noise_std_dev"},
    {"gyroscope_noise_std", "gyroscope_noise_std_dev"},
    {"low_pass", "low_pass_filter_enabled"},
    {"clamp", "clamp_output"},
    {"teleport_distance", "teleport_distance_meters"},
    {"teleport_angle_deg", "teleport_angle_degrees"},
    {"max_sample_dt", "max_sample_delta_seconds"},
};

// Reads ubot's `key` or its seed alias (IMU only).
class SensorKeys {
 public:
  SensorKeys(Mapping& m, bool imu) : m_(m), imu_(imu) {}
  std::optional<Field> get(std::string_view key) const {
    if (imu_) {
      for (const Alias& a : kImuSeedNames) {
        if (a.key == key) return one_of(m_, {key, a.seed_name});
      }
    }
    return m_.get(key);
  }
  bool boolean(std::string_view key, bool fallback) const {
    const auto f = get(key);
    return f ? f->as_bool() : fallback;
  }
  double positive(std::string_view key, double fallback) const {
    const auto f = get(key);
    return f ? f->as_positive() : fallback;
  }

 private:
  Mapping& m_;
  bool imu_;
};

void read_common(const SensorKeys& k, SensorCommon& c) {
  c.enabled = k.boolean("enabled", true);
  c.auto_start = k.boolean("auto_start", true);
  if (auto f = k.get("update_rate_hz")) c.update_rate_hz = f->as_positive();
  c.noise = k.boolean("noise", false);
  if (auto f = k.get("seed")) {
    const std::int64_t s = f->as_integer();
    if (s < 0) f->fail("seed must not be negative");
    c.seed = static_cast<std::uint64_t>(s);
  }
}

// Perception-media properties (SPEC §8), the same on every lidar and camera.
void read_smoke(Mapping& m, media::SmokeSettings& smoke) {
  smoke.enable_smoke_interference = m.boolean("enable_smoke_interference", true);
  smoke.smoke_density_threshold =
      m.non_negative("smoke_density_threshold", smoke.smoke_density_threshold);
  smoke.smoke_cell_radius_scale =
      m.non_negative("smoke_cell_radius_scale", smoke.smoke_cell_radius_scale);
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
  l.range_min = m.non_negative("range_min", l.range_min);
  l.range_max = m.positive("range_max", l.range_max);
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
  if (fmcw) {
    l.motion_compensate = m.boolean("motion_compensate", false);
    l.velocity_noise_std = m.non_negative("velocity_noise_std", l.velocity_noise_std);
  }
  m.ignore("plot");
  for (const char* key : kLidarPlotKeys) m.ignore(key);
  return l;
}

// Reads `key` or its `alternative` (another name or unit for the same setting); giving both is
// an error, since one would silently win.
// The last key of a field's path ("robot[0].sensors[0].clamp" -> "clamp").
std::string_view key_of(const Field& f) {
  const std::string_view path = f.path();
  return path.substr(path.rfind('.') + 1);
}

// White noise per sample (σ, under ubot's or the seed's name) or as a Kalibr density; one of
// them.
void read_white_noise(const SensorKeys& k, Mapping& m, std::string_view std_key,
                      std::string_view density_key, double& std, std::optional<double>& density) {
  const auto s = k.get(std_key);
  const auto d = m.get(density_key);
  if (s && d) d->fail(fmt::format("give either {} or {}, not both", key_of(*s), density_key));
  if (s) std = s->as_non_negative();
  if (d) density = d->as_non_negative();
}

// ---- lidar3d -------------------------------------------------------------------------------

constexpr double kDeg = std::numbers::pi / 180.0;

Lidar3dModel read_preset(const Field& f) {
  const std::string name = f.as_string();
  if (auto preset = lidar3d_preset(name)) return *preset;
  const std::vector<std::string>& names = lidar3d_preset_names();
  const std::string hint = nearest_word(name, names);
  f.fail(fmt::format("unknown lidar3d preset '{}' (known: {}){}", name, fmt::join(names, ", "),
                     hint.empty() ? "" : fmt::format("; did you mean '{}'?", hint)));
}

// An elevation angle, in radians, strictly between -90 and 90 degrees.
double elevation(const Field& f, double unit) {
  const double a = f.as_finite() * unit;
  if (!(std::abs(a) < std::numbers::pi / 2.0)) {
    f.fail("a channel's vertical angle must lie strictly between -90 and 90 degrees");
  }
  return a;
}

// The channel table: `vertical_angles` (rad) or `vertical_angles_deg`, or `channels` and
// `vertical_fov` [min, max] (rad) or `vertical_fov_deg`, spread evenly from min to max.
void read_channels(Mapping& m, Lidar3dModel& l) {
  const auto angles = one_of(m, "vertical_angles", "vertical_angles_deg");
  const auto channels = m.get("channels");
  const auto fov = one_of(m, "vertical_fov", "vertical_fov_deg");
  if (angles) {
    if (channels || fov) {
      (channels ? *channels : *fov).fail("give either vertical angles or channels / vertical_fov");
    }
    const double unit = angles->path().ends_with("_deg") ? kDeg : 1.0;
    if (!angles->is_sequence() || angles->size() == 0 || angles->size() > 1024) {
      angles->fail("expected a list of 1 to 1024 angles");
    }
    l.vertical_angles.clear();
    for (std::size_t k = 0; k < angles->size(); ++k) {
      l.vertical_angles.push_back(elevation(angles->item(k), unit));
    }
    std::stable_sort(l.vertical_angles.begin(), l.vertical_angles.end());
    return;
  }
  if (!channels && !fov) return;  // the preset's (or the default) table
  int n = static_cast<int>(l.vertical_angles.size());
  if (channels) {
    const std::int64_t c = channels->as_integer();
    if (c < 1 || c > 1024) channels->fail(fmt::format("must be 1 to 1024 channels, got {}", c));
    n = static_cast<int>(c);
  }
  double lo = l.vertical_angles.front(), hi = l.vertical_angles.back();
  if (fov) {
    const double unit = fov->path().ends_with("_deg") ? kDeg : 1.0;
    fov->as_numbers(2, 2);
    lo = elevation(fov->item(0), unit);
    hi = elevation(fov->item(1), unit);
    if (!(lo < hi) && !(lo == hi && n == 1)) {
      fov->fail("expected [min, max] with min < max (min = max only for one channel)");
    }
  }
  l.vertical_angles.assign(static_cast<std::size_t>(n), (lo + hi) / 2.0);
  for (int k = 0; n > 1 && k < n; ++k) l.vertical_angles[k] = lo + (hi - lo) * k / (n - 1);
  if (n > 1) l.vertical_angles.back() = hi;  // exactly, as numpy.linspace
}

// Columns per sweep: `number`, or `horizontal_resolution` (rad) / `horizontal_resolution_deg`
// (a full circle gets round(2π / resolution) columns, a sector round(range / resolution) + 1).
void read_columns(Mapping& m, Lidar3dModel& l) {
  const auto number = m.get("number");
  const auto resolution = one_of(m, "horizontal_resolution", "horizontal_resolution_deg");
  if (number && resolution) resolution->fail("give either number or a horizontal resolution");
  std::int64_t n = l.number;
  if (number) n = number->as_integer();
  if (resolution) {
    const double unit = resolution->path().ends_with("_deg") ? kDeg : 1.0;
    const double r = resolution->as_positive() * unit;
    const bool full = is_full_circle(l.angle_range);
    n = std::llround(full ? kTwoPi / r : l.angle_range / r + 1.0);
  }
  const Field& where = number ? *number : resolution ? *resolution : m.field();
  if (n < 1 || n > 100000) where.fail(fmt::format("must give 1 to 100000 columns, got {}", n));
  l.number = static_cast<int>(n);
}

Lidar3dModel read_lidar3d(Mapping& m, SensorCommon& common) {
  Lidar3dModel l;
  if (auto f = m.get("preset")) {
    l = read_preset(*f);
  } else {
    l.vertical_angles = lidar3d_preset("VLP-16")->vertical_angles;  // the default layout
  }
  read_channels(m, l);
  if (auto f = m.get("angle_range")) {
    l.angle_range = f->as_positive();
    if (l.angle_range > kTwoPi + 1e-6) {
      f->fail(fmt::format("must be at most 2π (6.283185), got {}", l.angle_range));
    }
  }
  read_columns(m, l);
  if (l.vertical_angles.size() * static_cast<std::size_t>(l.number) > 10000000) {
    m.field().fail(fmt::format("{} channels x {} columns is more than 10 million rays",
                               l.vertical_angles.size(), l.number));
  }
  l.range_min = m.non_negative("range_min", l.range_min);
  l.range_max = m.positive("range_max", l.range_max);
  if (l.range_min > l.range_max) {
    m.get(m.has("range_min") ? "range_min" : "range_max")
        ->fail(
            fmt::format("range_min ({}) must not exceed range_max ({})", l.range_min, l.range_max));
  }
  l.std = m.non_negative("std", l.std);
  l.rotation_rate_hz = m.positive("rotation_rate_hz", l.rotation_rate_hz);
  // One sample per sweep by default; a sensor cannot deliver sweeps faster than it turns.
  if (!common.update_rate_hz) {
    common.update_rate_hz = l.rotation_rate_hz;
  } else if (*common.update_rate_hz > l.rotation_rate_hz * (1.0 + 1e-12)) {
    m.get("update_rate_hz")
        ->fail(fmt::format("must not exceed rotation_rate_hz ({}): a sweep takes 1/{} s",
                           l.rotation_rate_hz, l.rotation_rate_hz));
  }
  l.motion_distortion = m.boolean("motion_distortion", false);
  l.offset = read_vector3(m, "offset");
  l.rpy = read_vector3(m, "rpy");
  return l;
}

// ---- cameras -------------------------------------------------------------------------------

constexpr int kMaxImageSide = 16384;
// Depth images are 16-bit millimetres (PNG, ROS 16UC1): the farthest depth they can hold.
constexpr double kMaxDepthMillimetres = 65.535;

int image_side(Mapping& m, std::string_view key, int fallback) {
  const auto f = m.get(key);
  if (!f) return fallback;
  const std::int64_t n = f->as_integer();
  if (n < 1 || n > kMaxImageSide) {
    f->fail(fmt::format("must be 1 to {} pixels, got {}", kMaxImageSide, n));
  }
  return static_cast<int>(n);
}

// `horizontal_fov` (rad) or `horizontal_fov_deg` (default 90°), or explicit fx, fy, cx, cy.
void read_intrinsics(Mapping& m, CameraModel& c) {
  const auto fov = one_of(m, "horizontal_fov", "horizontal_fov_deg");
  const auto fx = m.get("fx");
  const auto fy = m.get("fy");
  const auto cx = m.get("cx");
  const auto cy = m.get("cy");
  if (fov && (fx || fy)) (fx ? *fx : *fy).fail("give either a horizontal fov or fx / fy");
  c.cx = cx ? cx->as_finite() : (c.width - 1) / 2.0;
  c.cy = cy ? cy->as_finite() : (c.height - 1) / 2.0;
  if (fx || fy) {
    if (!fx) fy->fail("fy needs fx");
    c.fx = fx->as_positive();
    c.fy = fy ? fy->as_positive() : c.fx;
    return;
  }
  double a = std::numbers::pi / 2.0;
  if (fov) {
    a = fov->as_finite() * (fov->path().ends_with("_deg") ? kDeg : 1.0);
    if (!(a > 0.0 && a < std::numbers::pi)) {
      fov->fail(fmt::format("the horizontal fov must lie strictly between 0 and π, got {} rad", a));
    }
  }
  c.fx = c.fy = c.width / (2.0 * std::tan(a / 2.0));
}

media::Tint read_tint(Mapping& m, std::string_view key, media::Tint fallback) {
  const auto f = m.get(key);
  if (!f) return fallback;
  f->as_numbers(3, 3);
  return {f->item(0).as_unit_interval(), f->item(1).as_unit_interval(),
          f->item(2).as_unit_interval()};
}

CameraModel read_camera(Mapping& m, bool depth) {
  CameraModel c;
  c.depth = depth;
  c.width = image_side(m, "width", c.width);
  c.height = image_side(m, "height", c.height);
  read_intrinsics(m, c);
  const char* near_key = depth ? "min_depth" : "near_clip";
  const char* far_key = depth ? "max_depth" : "far_clip";
  c.min_depth = m.non_negative(near_key, depth ? 0.1 : 0.01);
  c.max_depth = m.positive(far_key, depth ? 10.0 : 100.0);
  if (c.min_depth > c.max_depth) {
    m.get(m.has(near_key) ? near_key : far_key)
        ->fail(fmt::format("{} ({}) must not exceed {} ({})", near_key, c.min_depth, far_key,
                           c.max_depth));
  }
  if (depth && c.max_depth > kMaxDepthMillimetres) {
    m.get(far_key)->fail(
        fmt::format("depth images hold 16-bit millimetres: max_depth must be at most {} m, got {}",
                    kMaxDepthMillimetres, c.max_depth));
  }
  c.offset = read_vector3(m, "offset");
  c.rpy = read_vector3(m, "rpy");
  if (depth) {
    c.std = m.non_negative("std", c.std);
    return c;
  }
  c.smoke_interference_tint = read_tint(m, "smoke_interference_tint", c.smoke_interference_tint);
  c.smoke_interference_opacity_scale =
      m.non_negative("smoke_interference_opacity_scale", c.smoke_interference_opacity_scale);
  if (auto f = m.get("max_smoke_interference_opacity")) {
    c.max_smoke_interference_opacity = f->as_unit_interval();
  }
  c.preview_distance = m.positive("preview_distance", c.max_depth);
  c.media_occlusion = m.boolean("media_occlusion", false);
  return c;
}

ImuModel read_imu(Mapping& m) {
  const SensorKeys k(m, true);
  ImuModel p;
  p.offset = read_vector3(m, "offset");
  p.rpy = read_vector3(m, "rpy");
  read_white_noise(k, m, "accelerometer_noise_std", "accelerometer_noise_density",
                   p.accelerometer_noise_std, p.accelerometer_noise_density);
  read_white_noise(k, m, "gyroscope_noise_std", "gyroscope_noise_density", p.gyroscope_noise_std,
                   p.gyroscope_noise_density);
  p.accelerometer_bias = read_vector3(m, "accelerometer_bias");
  p.gyroscope_bias = read_vector3(m, "gyroscope_bias");
  // The seed document's "bias random walk std" (per √s) and Kalibr's "random_walk" are the same
  // quantity in the same unit.
  if (auto f = one_of(m, {"accelerometer_bias_random_walk_std",
                          "accelerometer_bias_random_walk_std_dev", "accelerometer_random_walk"})) {
    p.accelerometer_bias_random_walk_std = f->as_non_negative();
  }
  if (auto f = one_of(m, {"gyroscope_bias_random_walk_std", "gyroscope_bias_random_walk_std_dev",
                          "gyroscope_random_walk"})) {
    p.gyroscope_bias_random_walk_std = f->as_non_negative();
  }
  p.low_pass = k.boolean("low_pass", false);
  if (auto f = m.get("low_pass_cutoff_hz")) {
    p.low_pass_cutoff_hz = f->as_positive();
    if (p.low_pass_cutoff_hz < 0.1) f->fail("must be at least 0.1 Hz");
  }
  p.clamp = k.boolean("clamp", false);
  p.max_linear_acceleration = m.positive("max_linear_acceleration", p.max_linear_acceleration);
  p.max_angular_velocity = m.positive("max_angular_velocity", p.max_angular_velocity);
  p.teleport_distance = k.positive("teleport_distance", p.teleport_distance);
  p.teleport_angle_deg = k.positive("teleport_angle_deg", p.teleport_angle_deg);
  p.max_sample_dt = k.positive("max_sample_dt", p.max_sample_dt);
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
    const std::string type = type_field
                                 ? type_field->as_choice({"lidar2d", "fmcw_lidar2d", "lidar3d",
                                                          "imu", "depth_camera", "rgb_camera"})
                                 : "lidar2d";
    SensorModel s;
    read_common(SensorKeys(m, type == "imu"), s.common);
    s.common.name = fmt::format("{}_{}", type, count_by_type[type]++);
    if (type == "imu") {
      s.common.update_rate_hz = s.common.update_rate_hz.value_or(kImuDefaultRateHz);
      s.common.seed = s.common.seed.value_or(kImuDefaultSeed);
      s.params = read_imu(m);
    } else if (type == "depth_camera" || type == "rgb_camera") {
      s.params = read_camera(m, type == "depth_camera");
      read_smoke(m, s.common.smoke);
    } else if (type == "lidar3d") {
      s.params = read_lidar3d(m, s.common);
      read_smoke(m, s.common.smoke);
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
