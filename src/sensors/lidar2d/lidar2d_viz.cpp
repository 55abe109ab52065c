// The lidar2d type's drawing (compiled into the viz library): its beams, coloured by Doppler
// velocity for fmcw_lidar2d.
#include <algorithm>
#include <cmath>

#include "ubot/render/drawing.h"
#include "ubot/sensors/lidar2d/lidar2d.h"
#include "ubot/sensors/lidar2d/lidar2d_sinks.h"

namespace ubot::viz {
namespace {

// Doppler colours: red moving away, blue approaching, cyan still; saturating at 1 m/s.
render::Color doppler_color(double v) {
  const double t = std::clamp(std::abs(v) / 1.0, 0.0, 1.0);
  const render::Color still{0.0, 0.8, 0.8, 0.8};
  const render::Color end =
      v > 0 ? render::Color{0.9, 0.1, 0.1, 0.8} : render::Color{0.1, 0.2, 0.9, 0.8};
  return {still.r + (end.r - still.r) * t, still.g + (end.g - still.g) * t,
          still.b + (end.b - still.b) * t, 0.8};
}

// Every `stride`-th beam, from the first.
render::BeamsDrawing scan_beams(const Lidar2d& lidar, std::size_t stride) {
  render::BeamsDrawing b;
  const LaserScan& s = lidar.scan();
  b.origin = s.origin.head<2>();
  b.color.a = 0.3;
  b.end_points.reserve(s.ranges.size() / stride + 1);
  b.hit.reserve(s.ranges.size() / stride + 1);
  for (std::size_t i = 0; i < s.ranges.size(); i += stride) {
    const double yaw = s.origin.z() + lidar.angles()[i];
    b.end_points.emplace_back(b.origin +
                              s.ranges[i] * Eigen::Vector2d(std::cos(yaw), std::sin(yaw)));
    b.hit.push_back(s.valid[i]);
    if (lidar.params().fmcw) b.beam_colors.push_back(doppler_color(s.radial_velocity[i]));
  }
  return b;
}

}  // namespace

render::BeamsDrawing sensor_beams(const Lidar2d& lidar, std::size_t stride) {
  return scan_beams(lidar, std::max<std::size_t>(1, stride));
}

std::optional<std::size_t> beam_count(const Lidar2d& lidar) { return lidar.scan().ranges.size(); }

}  // namespace ubot::viz
