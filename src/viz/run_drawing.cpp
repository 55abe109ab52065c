#include "ubot/viz/run_drawing.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "ubot/core/time.h"
#include "ubot/sensors/camera.h"
#include "ubot/sensors/imu.h"
#include "ubot/sensors/lidar2d.h"
#include "ubot/sensors/lidar3d.h"
#include "ubot/viz/plot_config.h"

namespace ubot::viz {
namespace {

render::Color object_color(const ObjectModel& m) {
  // IR-SIM's defaults: robots green, obstacles black.
  const std::string name =
      m.plot->color.value_or(m.color.empty() ? (m.role == Role::kRobot ? "g" : "k") : m.color);
  render::Color c = render::parse_color(name).value_or(render::Color{0.5, 0.5, 0.5, 1.0});
  if (m.plot->alpha) c.a = *m.plot->alpha;
  return c;
}

render::Shape drawing_shape(const WorldShape& s) {
  render::Shape d;
  if (s.circle) {
    d.kind = render::Shape::Kind::kCircle;
    d.center = s.center;
    d.radius = s.radius;
  } else {
    d.kind = s.closed ? render::Shape::Kind::kPolygon : render::Shape::Kind::kPolyline;
    d.vertices = s.vertices;
  }
  return d;
}

bool moves(const ObjectModel& m) { return !m.is_static; }

// Doppler colours: red moving away, blue approaching, cyan still; saturating at 1 m/s.
render::Color doppler_color(double v) {
  const double t = std::clamp(std::abs(v) / 1.0, 0.0, 1.0);
  const render::Color still{0.0, 0.8, 0.8, 0.8};
  const render::Color end =
      v > 0 ? render::Color{0.9, 0.1, 0.1, 0.8} : render::Color{0.1, 0.2, 0.9, 0.8};
  return {still.r + (end.r - still.r) * t, still.g + (end.g - still.g) * t,
          still.b + (end.b - still.b) * t, 0.8};
}

render::BeamsDrawing beams(const Lidar2d& lidar) {
  render::BeamsDrawing b;
  const LaserScan& s = lidar.scan();
  b.origin = s.origin.head<2>();
  b.color.a = 0.3;
  for (std::size_t i = 0; i < s.ranges.size(); ++i) {
    const double yaw = s.origin.z() + lidar.angles()[i];
    b.end_points.emplace_back(b.origin +
                              s.ranges[i] * Eigen::Vector2d(std::cos(yaw), std::sin(yaw)));
    b.hit.push_back(s.valid[i]);
    if (lidar.params().fmcw) b.beam_colors.push_back(doppler_color(s.radial_velocity[i]));
  }
  return b;
}

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

// A 3D lidar seen from above, lightly: the returns of its channel nearest the horizon (the upper
// one of a pair) as dots, without beam lines; surface returns violet, smoke cuts grey.
render::BeamsDrawing horizon_points(const Lidar3d& lidar) {
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
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    if (s.points[i].ring != ring) continue;
    b.end_points.push_back(s.points_world[i].head<2>());
    b.hit.push_back(1);
    b.beam_colors.push_back(s.points[i].intensity > 0.0f ? render::Color{0.55, 0.2, 0.75, 0.0}
                                                         : render::Color{0.4, 0.4, 0.4, 0.0});
  }
  return b;
}

// Smoke seen from above: one translucent disc per cell in the medium's tint, denser = more
// opaque. Cells a sensor's threshold ignores are still drawn, faintly.
void add_media(std::span<const media::MediumSnapshot> media, render::Drawing& d) {
  for (const media::MediumSnapshot& s : media) {
    if (!s.usable()) continue;
    for (const media::MediumCell& c : s.cells) {
      const double density = std::clamp(c.effective_density(), 0.0, 1.0);
      d.discs.push_back({.center = c.position.head<2>(),
                         .radius = c.effective_radius(),
                         .color = {s.tint.r, s.tint.g, s.tint.b, 0.08 + 0.45 * density}});
    }
  }
}

// The lines and dots a picture draws for its sensors at most (each costs a few µs to paint, and
// a 1000-robot world has 360 000 beams): sensors are drawn in order while their beams fit, the
// rest are left out and the caption says how many were drawn. Small worlds stay well inside it.
constexpr std::size_t kMaxDrawnBeams = 20000;

render::BeamsDrawing sensor_beams(const Lidar2d& lidar) { return beams(lidar); }
render::BeamsDrawing sensor_beams(const Lidar3d& lidar) { return horizon_points(lidar); }
render::BeamsDrawing sensor_beams(const Camera& camera) { return frustum(camera); }
render::BeamsDrawing sensor_beams(const Imu&) { return {}; }

// How many segments or dots a sensor's drawing would hold, without building it (a 3D lidar:
// its points per channel, about what its horizon ring holds); none for a sensor that draws
// nothing.
std::optional<std::size_t> beam_count(const Lidar2d& lidar) { return lidar.scan().ranges.size(); }
std::optional<std::size_t> beam_count(const Lidar3d& lidar) {
  return lidar.sweep().points.size() / std::max<std::size_t>(1, lidar.channels());
}
std::optional<std::size_t> beam_count(const Camera&) { return 2; }
std::optional<std::size_t> beam_count(const Imu&) { return std::nullopt; }

// The beams of the sensors that show and have a valid sample, within kMaxDrawnBeams; appends a
// note to the caption when some were left out.
void add_sensors(const Simulation& sim, render::Drawing& d) {
  const World& w = sim.world();
  std::size_t drawn = 0, shown = 0, budget_used = 0;
  bool full = false;
  for (const auto& sensor : sim.sensors()) {
    if (!w.object_model(sensor->object_id()).plot->show_sensor || !sensor->header().valid) continue;
    const std::optional<std::size_t> beams =
        visit_sensor(*sensor, [](const auto& s) { return beam_count(s); });
    if (!beams) continue;
    ++shown;
    const std::size_t count = *beams;
    full = full || budget_used + count > kMaxDrawnBeams;
    if (full) continue;
    budget_used += count;
    ++drawn;
    d.beams.push_back(visit_sensor(*sensor, [](const auto& s) { return sensor_beams(s); }));
  }
  if (drawn < shown) d.caption += fmt::format("   beams of {} of {} sensors", drawn, shown);
}

// A ring in the observer's colour around each object a shown field of view detects.
void add_fov_highlights(const World& w, std::span<const render::Color> colors, render::Drawing& d) {
  std::vector<std::vector<int>> seen;
  for (std::size_t id = 0; id < w.size(); ++id) {
    const ObjectModel& m = w.object_model(id);
    if (!m.plot->show_fov || !m.fov || !m.fov_radius) continue;
    if (seen.empty()) seen = w.fov_detections();
    render::Color color = colors[id];
    color.a = 1.0;
    for (const int other : seen[id]) {
      d.highlights.push_back({.shape = drawing_shape(w.shape(other)), .color = color});
    }
  }
}

}  // namespace

RunDrawing::RunDrawing(const Simulation& sim) {
  const World& w = sim.world();
  trajectories_.resize(w.size());
  for (std::size_t id = 0; id < w.size(); ++id) colors_.push_back(object_color(w.object_model(id)));
  record(sim);
}

void RunDrawing::record(const Simulation& sim) {
  const World& w = sim.world();
  for (std::size_t id = 0; id < w.size(); ++id) {
    if (!moves(w.object_model(id))) continue;
    const auto& s = w.object(id).state;
    trajectories_[id].emplace_back(s[0], s[1]);
  }
}

render::Drawing RunDrawing::draw(const Simulation& sim) const {
  const World& w = sim.world();
  const WorldSettings& ws = w.model().world;
  render::Drawing d;
  d.x_min = ws.offset.x();
  d.y_min = ws.offset.y();
  d.width = ws.width;
  d.height = ws.height;
  d.caption = fmt::format("t = {:.2f} s   step {}", nanos_to_seconds(w.time_ns()), w.step_count());
  add_media(sim.media(), d);
  add_sensors(sim, d);
  for (std::size_t id = 0; id < w.size(); ++id) {
    const ObjectModel& m = w.object_model(id);
    const ObjectState& s = w.object(id);
    render::ObjectDrawing o;
    o.shape = drawing_shape(w.shape(static_cast<int>(id)));
    o.fill = colors_[id];
    o.edge = m.shape.kind == ShapeKind::kLinestring ? colors_[id] : render::Color{0, 0, 0, 1};
    o.dashed = m.plot->dashed;
    if (m.unobstructed) o.fill.a *= 0.35;
    if (m.role == Role::kRobot || m.plot->show_arrow) {
      o.pose = Eigen::Vector3d(s.state[0], s.state[1], s.state[2]);
      o.arrow_length = m.plot->arrow_length;
    }
    if (m.plot->show_goal && !s.goals.empty()) {
      o.goal = Eigen::Vector3d(s.goals.front()[0], s.goals.front()[1], s.goals.front()[2]);
    }
    if (m.role == Role::kRobot || m.plot->show_trajectory || m.plot->show_trail) {
      o.trajectory = trajectories_[id];
      o.trajectory_color = colors_[id];
      o.trajectory_color.a = 0.7;
    }
    if (m.plot->show_fov && m.fov && m.fov_radius) {
      o.fov = *m.fov;
      o.fov_radius = *m.fov_radius;
      o.pose = Eigen::Vector3d(s.state[0], s.state[1], s.state[2]);
    }
    d.objects.push_back(std::move(o));
  }
  add_fov_highlights(w, colors_, d);
  return d;
}

}  // namespace ubot::viz
