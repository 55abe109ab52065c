// The lidar3d type's drawing (compiled into the viz library): its horizon channel's returns as
// dots.
#include <algorithm>
#include <cmath>

#include "ubot/render/drawing.h"
#include "ubot/sensors/lidar3d/lidar3d.h"
#include "ubot/sensors/lidar3d/lidar3d_sinks.h"

namespace ubot::viz {
namespace {

// A 3D lidar seen from above, lightly: the returns of its channel nearest the horizon (the upper
// one of a pair) as dots, without beam lines; surface returns violet, smoke cuts grey.
render::BeamsDrawing horizon_points(const Lidar3d& lidar, std::size_t stride) {
  render::BeamsDrawing b;
  const LidarSweep& s = lidar.sweep();
  b.origin = s.pose.position.head<2>();
  b.color = {0.55, 0.2, 0.75, 0.0};  // transparent lines; the dots get their own opacity
  b.line_width_px = 1.5;             // sets the dots' size
  std::uint16_t ring = 0;
  for (std::size_t k = 0; k < lidar.channels(); ++k) {
    if (std::abs(lidar.vertical_angles()[k]) <= std::abs(lidar.vertical_angles()[ring])) {
      ring = static_cast<std::uint16_t>(k);
    }
  }
  std::size_t seen = 0;  // points of the ring so far: every stride-th is drawn
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    if (s.points[i].ring != ring || seen++ % stride != 0) continue;
    b.end_points.push_back(s.points_world[i].head<2>());
    b.hit.push_back(1);
    b.beam_colors.push_back(s.points[i].intensity > 0.0f ? render::Color{0.55, 0.2, 0.75, 0.0}
                                                         : render::Color{0.4, 0.4, 0.4, 0.0});
  }
  return b;
}

}  // namespace

render::BeamsDrawing sensor_beams(const Lidar3d& lidar, std::size_t stride) {
  return horizon_points(lidar, std::max<std::size_t>(1, stride));
}

// About what its horizon ring holds: its points per channel.
std::optional<std::size_t> beam_count(const Lidar3d& lidar) {
  return lidar.sweep().points.size() / std::max<std::size_t>(1, lidar.channels());
}

}  // namespace ubot::viz
