#include "ubot/viz/run_drawing.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "ubot/core/time.h"
#include "ubot/sensors/registered_sensors.h"
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

// The fog's unexplored cells.
render::FogDrawing fog_drawing(const FogMap& fog) {
  render::FogDrawing d;
  d.x_min = fog.offset().x();
  d.y_min = fog.offset().y();
  d.cell_width = fog.cell_width();
  d.cell_height = fog.cell_height();
  d.nx = fog.nx();
  d.ny = fog.ny();
  d.fogged.resize(static_cast<std::size_t>(d.nx) * d.ny);
  for (int i = 0; i < d.nx; ++i) {
    for (int j = 0; j < d.ny; ++j) {
      d.fogged[static_cast<std::size_t>(i) * d.ny + j] = !fog.explored(i, j);
    }
  }
  return d;
}

// With a fog, obstacles are drawn first and the fog over them, then the robots (IR-SIM's
// z-orders 1, 2, 3); without one, every object in id order.
std::vector<std::size_t> drawing_order(const World& w, std::size_t& under_fog) {
  std::vector<std::size_t> order(w.size());
  for (std::size_t id = 0; id < w.size(); ++id) order[id] = id;
  under_fog = 0;
  if (!w.fog().enabled()) return order;
  std::stable_partition(order.begin(), order.end(), [&](std::size_t id) {
    return w.object_model(static_cast<int>(id)).role == Role::kObstacle;
  });
  for (std::size_t id : order)
    under_fog += w.object_model(static_cast<int>(id)).role == Role::kObstacle;
  return order;
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

// Whether sensor `s` is drawn: its object shows its sensors and it has a sample.
bool shows(const World& w, const Sensor& s) {
  return w.object_model(s.object_id()).plot->show_sensor && s.header().valid;
}

// A thinned scan keeps at least this many beams, so that it still reads as a fan.
constexpr std::size_t kMinFanBeams = 16;

// The sensors that show, each lidar thinned by one stride (the same for all) so that the beams
// total at most `beams_at_most` (DrawParts::beams_at_most). The stride stops where a scan would
// keep fewer than kMinFanBeams; past that, sensors are drawn in order while they fit (a
// 10,000-robot world: 500 fans of 16 beams).
void add_thinned_sensors(const Simulation& sim, std::size_t beams_at_most, render::Drawing& d) {
  std::size_t total = 0, widest = 0;
  for (const auto& sensor : sim.sensors()) {
    if (!shows(sim.world(), *sensor)) continue;
    const std::size_t n =
        visit_sensor(*sensor, [](const auto& s) { return beam_count(s); }).value_or(0);
    total += n;
    widest = std::max(widest, n);
  }
  const std::size_t stride =
      std::clamp<std::size_t>((total + beams_at_most - 1) / beams_at_most, 1,
                              std::max<std::size_t>(1, widest / kMinFanBeams));
  d.beam_stride = stride;
  std::size_t used = 0;
  for (const auto& sensor : sim.sensors()) {
    if (!shows(sim.world(), *sensor)) continue;
    const std::size_t n =
        visit_sensor(*sensor, [](const auto& s) { return beam_count(s); }).value_or(0);
    if (n == 0) continue;
    used += (n + stride - 1) / stride;
    if (used > beams_at_most) break;
    d.beams.push_back(
        visit_sensor(*sensor, [stride](const auto& s) { return sensor_beams(s, stride); }));
  }
}

// The beams of the sensors that show and have a valid sample, within kMaxDrawnBeams; appends a
// note to the caption when some were left out.
void add_sensors(const Simulation& sim, std::size_t beams_at_most, render::Drawing& d) {
  const World& w = sim.world();
  if (beams_at_most > 0) {
    add_thinned_sensors(sim, beams_at_most, d);
    return;
  }
  std::size_t drawn = 0, shown = 0, budget_used = 0;
  bool full = false;
  for (const auto& sensor : sim.sensors()) {
    if (!shows(w, *sensor)) continue;
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
  // Asked for only when some sector shows; the world sweeps once a step for every reader (the
  // frames line of the step gets the same lists).
  const std::vector<std::vector<int>>* seen = nullptr;
  for (std::size_t id = 0; id < w.size(); ++id) {
    const ObjectModel& m = w.object_model(id);
    if (!m.plot->show_fov || !m.fov || !m.fov_radius) continue;
    if (!seen) seen = &w.fov_detections();
    render::Color color = colors[id];
    color.a = 1.0;
    for (const int other : (*seen)[id]) {
      if (other >= static_cast<int>(w.size())) continue;  // the grid map: drawn as it is
      d.highlights.push_back({.shape = drawing_shape(w.shape(other)), .color = color});
    }
  }
}

// The grid map as IR-SIM shows it (imshow with the Greys colour map): occupancy scaled from the
// grid's lowest value (white) to its highest (black); image row 0 is the grid's top row.
render::RasterDrawing grid_raster(const GridMap& g) {
  const auto [lo, hi] = std::minmax_element(g.occupancy.begin(), g.occupancy.end());
  const double span = *hi - *lo;
  auto grey = std::make_shared<std::vector<std::uint8_t>>(g.occupancy.size());
  for (int i = 0; i < g.nx; ++i) {
    for (int j = 0; j < g.ny; ++j) {
      const double dark = span > 0.0 ? (g.value(i, j) - *lo) / span : 0.0;
      (*grey)[static_cast<std::size_t>(g.ny - 1 - j) * g.nx + i] =
          static_cast<std::uint8_t>(std::lround(255.0 * (1.0 - dark)));
    }
  }
  return {g.corner_min({0, 0, 0, 0}), g.corner_max({0, 0, g.nx, g.ny}), g.nx, g.ny,
          std::move(grey)};
}

}  // namespace

bool never_moves(const World& world, int id) {
  if (id < 0 || id >= static_cast<int>(world.size())) return false;
  const ObjectModel& m = world.object_model(id);
  return m.is_static ||
         (m.kinematics.kind == KinematicsKind::kNone && !m.trajectory && !world.contact_mode());
}

RunDrawing::RunDrawing(const Simulation& sim) {
  const World& w = sim.world();
  if (const auto& grid = w.model().grid) grid_ = grid_raster(*grid);
  trajectories_.resize(w.size());
  for (std::size_t id = 0; id < w.size(); ++id) colors_.push_back(object_color(w.object_model(id)));
  record(sim);
}

void RunDrawing::record(const Simulation& sim) {
  const World& w = sim.world();
  if (w.step_count() < recorded_step_) {
    for (auto& t : trajectories_) t.clear();
  }
  recorded_step_ = w.step_count();
  for (std::size_t id = 0; id < w.size(); ++id) {
    if (!moves(w.object_model(id))) continue;
    const auto& s = w.object(id).state;
    trajectories_[id].emplace_back(s[0], s[1]);
  }
}

render::Drawing RunDrawing::draw(const Simulation& sim, DrawParts parts) const {
  const World& w = sim.world();
  const WorldSettings& ws = w.model().world;
  render::Drawing d;
  d.x_min = ws.offset.x();
  d.y_min = ws.offset.y();
  d.width = ws.width;
  d.height = ws.height;
  d.raster = grid_;
  d.caption = fmt::format("t = {:.2f} s   step {}", nanos_to_seconds(w.time_ns()), w.step_count());
  add_media(sim.media(), d);
  if (parts.sensors) add_sensors(sim, parts.beams_at_most, d);
  if (w.fog().enabled()) d.fog = fog_drawing(w.fog());
  std::size_t under_fog = 0;
  for (std::size_t id : drawing_order(w, under_fog)) {
    const ObjectModel& m = w.object_model(id);
    const ObjectState& s = w.object(id);
    render::ObjectDrawing o;
    o.tag = static_cast<int>(id);
    const WorldShape& shape = w.shape(static_cast<int>(id));
    o.shape = drawing_shape(shape.parts.empty() ? shape : shape.parts.front());
    o.fill = colors_[id];
    o.edge = m.shape.kind == ShapeKind::kLinestring ? colors_[id] : render::Color{0, 0, 0, 1};
    o.dashed = m.plot->dashed;
    if (m.unobstructed) o.fill.a *= 0.35;
    // A compound's other parts: drawn first, the part that carries arrow and goal over them.
    for (std::size_t k = 1; k < shape.parts.size(); ++k) {
      render::ObjectDrawing part;
      part.tag = o.tag;
      part.shape = drawing_shape(shape.parts[k]);
      part.fill = o.fill;
      part.edge = o.edge;
      part.dashed = o.dashed;
      d.objects.push_back(std::move(part));
      under_fog += m.role == Role::kObstacle && w.fog().enabled();
    }
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
  d.objects_under_fog = under_fog;
  add_fov_highlights(w, colors_, d);
  return d;
}

}  // namespace ubot::viz
