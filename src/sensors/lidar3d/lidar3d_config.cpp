// The `lidar3d` sensor type's YAML reader (compiled into the config library).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

#include "lidar3d_presets.h"
#include "object_reader.h"
#include "sensor_fields.h"
#include "ubot/core/angles.h"
#include "ubot/core/error.h"

namespace ubot::config {
namespace {

Lidar3dModel read_preset(const Field& f) {
  const std::string name = f.as_string();
  if (auto preset = lidar3d_preset(name)) return *preset;
  const std::vector<std::string>& names = lidar3d_preset_names();
  const std::string hint = nearest_word(name, names);
  f.fail(fmt::format("unknown lidar3d preset {} (known: {}){}", quote_value(name),
                     fmt::join(names, ", "),
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
  if (auto f = m.get("range_max")) l.range_max = f->as_at_most(kMaxRange, "m");
  if (l.range_min > l.range_max) {
    m.get(m.has("range_min") ? "range_min" : "range_max")
        ->fail(
            fmt::format("range_min ({}) must not exceed range_max ({})", l.range_min, l.range_max));
  }
  l.std = m.non_negative("std", l.std);
  if (auto f = m.get("rotation_rate_hz")) l.rotation_rate_hz = f->as_at_most(kMaxRateHz, "Hz");
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

}  // namespace

void read_sensor(Mapping& m, std::string_view, SensorCommon& common, Lidar3dModel& params) {
  read_common(SensorKeys(m), common);
  params = read_lidar3d(m, common);
  read_smoke(m, common.smoke);
}

}  // namespace ubot::config
