// The camera type's drawing (compiled into the viz library): its frustum seen from above.
#include <algorithm>
#include <cmath>

#include "ubot/render/drawing.h"
#include "ubot/sensors/camera/camera.h"
#include "ubot/sensors/camera/camera_sinks.h"

namespace ubot::viz {
namespace {

// A camera's frustum seen from above: its two side edges (the outer columns' rays, turned by the
// camera's heading) as lines kCameraFrustumLength metres deep along the axis (less when the
// camera's range is shorter), teal for rgb_camera, orange for depth_camera.
constexpr double kCameraFrustumLength = 3.0;

render::BeamsDrawing frustum(const Camera& camera) {
  render::BeamsDrawing b;
  const CameraModel& p = camera.params();
  const Pose3d& pose = camera.image().pose;
  b.origin = pose.position.head<2>();
  b.color = p.depth ? render::Color{0.9, 0.5, 0.1, 0.8} : render::Color{0.1, 0.6, 0.6, 0.8};
  b.line_width_px = 1.2;
  b.mark_hits = false;
  const double depth = std::min(kCameraFrustumLength, p.max_depth);
  const double yaw = planar_yaw(pose.orientation);
  const Eigen::Vector2d axis(std::cos(yaw), std::sin(yaw)), left(-axis.y(), axis.x());
  for (const double u : {-0.5, p.width - 0.5}) {  // the image's outer edges
    const double slope = (u - p.cx) / p.fx;       // optical x (right) per unit depth
    b.end_points.push_back(b.origin + depth * (axis - slope * left));
  }
  return b;
}

}  // namespace

// Two lines whatever the stride.
render::BeamsDrawing sensor_beams(const Camera& camera, std::size_t) { return frustum(camera); }

std::optional<std::size_t> beam_count(const Camera&) { return 2; }

}  // namespace ubot::viz
