// The `camera` sensor type's YAML reader (compiled into the config library).
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
  c.max_depth = depth ? 10.0 : 100.0;
  if (auto f = m.get(far_key)) c.max_depth = f->as_at_most(kMaxRange, "m");
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
    c.std_quadratic = m.non_negative("std_quadratic", c.std_quadratic);
    return c;
  }
  c.smoke_interference_tint = read_tint(m, "smoke_interference_tint", c.smoke_interference_tint);
  c.smoke_interference_opacity_scale =
      m.non_negative("smoke_interference_opacity_scale", c.smoke_interference_opacity_scale);
  if (auto f = m.get("max_smoke_interference_opacity")) {
    c.max_smoke_interference_opacity = f->as_unit_interval();
  }
  c.preview_distance = c.max_depth;
  if (auto f = m.get("preview_distance")) c.preview_distance = f->as_at_most(kMaxRange, "m");
  c.media_occlusion = m.boolean("media_occlusion", false);
  return c;
}

}  // namespace

void read_sensor(Mapping& m, std::string_view type, SensorCommon& common, CameraModel& params) {
  read_common(SensorKeys(m), common);
  params = read_camera(m, type == "depth_camera");
  read_smoke(m, common.smoke);
}

}  // namespace ubot::config
