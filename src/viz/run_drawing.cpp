#include "ubot/viz/run_drawing.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "ubot/core/stop.h"
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

// Whether sensor `s` is drawn: its object shows its sensors and it has a sample.
bool shows(const World& w, const Sensor& s) {
  return w.object_model(s.object_id()).plot->show_sensor && s.header().valid;
}

// The live page's thinned scan keeps at least this many beams, so that it still reads as a fan.
constexpr std::size_t kMinFanBeams = 16;

// "1st", "2nd", "3rd", "4th", ..., "11th", "12th", "13th", "21st": for the captions.
std::string ordinal(std::size_t n) {
  const std::size_t tens = n % 100, units = n % 10;
  const char* suffix = "th";
  if (tens < 11 || tens > 13)
    suffix = units == 1 ? "st" : units == 2 ? "nd" : units == 3 ? "rd" : "th";
  return fmt::format("{}{}", n, suffix);
}

// The beams of every sensor that shows, and the widest scan's.
std::pair<std::size_t, std::size_t> shown_beams(const Simulation& sim) {
  std::size_t total = 0, widest = 0;
  for (const auto& sensor : sim.sensors()) {
    if (!shows(sim.world(), *sensor)) continue;
    const std::size_t n =
        visit_sensor(*sensor, [](const auto& s) { return beam_count(s); }).value_or(0);
    total += n;
    widest = std::max(widest, n);
  }
  return {total, widest};
}

// The sensors that show, each lidar thinned by one stride (the same for all) so that the beams
// total at most `beams_at_most`. The live page (`min_fan` kMinFanBeams): the stride stops where a
// scan would keep fewer than min_fan beams, and past that sensors are drawn in order while they
// fit (a 10,000-robot world: 500 fans of 16 beams). The pictures (`min_fan` 1): every sensor is
// drawn, with at least its first beam (10,000 robots: every 180th beam, 2 a scan).
void add_thinned_sensors(const Simulation& sim, std::size_t beams_at_most, std::size_t min_fan,
                         render::Drawing& d) {
  const auto [total, widest] = shown_beams(sim);
  const std::size_t stride = std::clamp<std::size_t>((total + beams_at_most - 1) / beams_at_most, 1,
                                                     std::max<std::size_t>(1, widest / min_fan));
  d.beam_stride = stride;
  std::size_t used = 0;
  for (const auto& sensor : sim.sensors()) {
    if (!shows(sim.world(), *sensor)) continue;
    const std::optional<std::size_t> n =
        visit_sensor(*sensor, [](const auto& s) { return beam_count(s); });
    // A sensor without beams (an IMU) draws nothing; the pictures keep an empty scan's entry.
    if (!n || (*n == 0 && min_fan > 1)) continue;
    used += (*n + stride - 1) / stride;
    if (min_fan > 1 && used > beams_at_most) break;
    d.beams.push_back(
        visit_sensor(*sensor, [stride](const auto& s) { return sensor_beams(s, stride); }));
  }
}

// The beams of the sensors that show and have a valid sample: the live page's rule when
// `parts.beams_at_most` is set, else the pictures' (every sensor, thinned past budget.beams;
// the caption then names the stride).
void add_sensors(const Simulation& sim, const DrawParts& parts, const PictureBudget& budget,
                 render::Drawing& d) {
  if (parts.beams_at_most > 0) {
    add_thinned_sensors(sim, parts.beams_at_most, kMinFanBeams, d);
    return;
  }
  add_thinned_sensors(sim, std::max<std::size_t>(1, budget.beams), 1, d);
  if (d.beam_stride > 1) d.caption += fmt::format("   every {} beam", ordinal(d.beam_stride));
}

// The step between the trajectory points drawn: 1 while all of them total at most `budget`.
std::size_t trajectory_stride(const World& w, std::span<const std::vector<Eigen::Vector2d>> all,
                              std::size_t budget) {
  std::size_t total = 0;
  for (std::size_t id = 0; id < w.size(); ++id) total += all[id].size();
  return std::max<std::size_t>(1, (total + budget - 1) / std::max<std::size_t>(1, budget));
}

// Every `stride`-th point of `points` and its last one (where the object is now).
std::vector<Eigen::Vector2d> thinned(const std::vector<Eigen::Vector2d>& points,
                                     std::size_t stride) {
  if (stride == 1) return points;
  std::vector<Eigen::Vector2d> out;
  out.reserve(points.size() / stride + 2);
  for (std::size_t i = 0; i < points.size(); i += stride) out.push_back(points[i]);
  if (!points.empty() && (points.size() - 1) % stride != 0) out.push_back(points.back());
  return out;
}

// Throws ubot::Stopped every few thousand items once a stop's finishing budget is spent.
void poll_stop(std::size_t item) {
  if (item % 4096 == 0 && finish_budget_spent()) throw Stopped{stop_requested()};
}

// A ring in the observer's colour around each object a shown field of view detects.
void add_fov_highlights(const World& w, std::span<const render::Color> colors, render::Drawing& d) {
  // Asked for only when some sector shows; the world sweeps once a step for every reader (the
  // frames line of the step gets the same lists).
  const std::vector<std::vector<int>>* seen = nullptr;
  for (std::size_t id = 0; id < w.size(); ++id) {
    poll_stop(id + 1);
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

render::Drawing RunDrawing::draw(const Simulation& sim, DrawParts parts,
                                 const PictureBudget& budget) const {
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
  if (parts.sensors) add_sensors(sim, parts, budget, d);
  const std::size_t every =
      parts.trajectories ? trajectory_stride(w, trajectories_, budget.trajectory_points) : 1;
  if (every > 1) d.caption += fmt::format("   trajectories: every {} point", ordinal(every));
  if (w.fog().enabled()) d.fog = fog_drawing(w.fog());
  std::size_t under_fog = 0;
  std::size_t drawn = 0;
  for (std::size_t id : drawing_order(w, under_fog)) {
    poll_stop(++drawn);
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
      const std::vector<double>& g = s.goals.front();
      o.goal = Eigen::Vector3d(g[0], g[1], g.size() > 2 ? g[2] : 0.0);  // [x, y]: a shuttle's
    }
    if (parts.trajectories &&
        (m.role == Role::kRobot || m.plot->show_trajectory || m.plot->show_trail)) {
      o.trajectory = thinned(trajectories_[id], every);
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
  d.caption += budget.caption_note;
  return d;
}

GifFrames gif_frames(const render::Drawing& first, render::ImageSize picture) {
  if (first.objects.size() <= kGifFullObjects) return {picture, {}};
  // Half the side: a quarter of the pixels to paint, map and compress, and the objects of a
  // crowded world fall under a pixel, where they are painted as dots.
  constexpr int kMinSidePx = 200;
  const int side = std::max(picture.width_px, picture.height_px);
  const render::ImageSize size = render::fit_image(first, std::max(kMinSidePx, side / 2));
  PictureBudget budget;
  budget.beams = 2000;
  budget.trajectory_points = 50000;
  const auto stride =
      static_cast<std::int64_t>((first.objects.size() + kGifFullObjects - 1) / kGifFullObjects);
  budget.caption_note = fmt::format("   frames {} px, every {} sample",
                                    std::max(size.width_px, size.height_px), ordinal(stride));
  return {size, std::move(budget), stride};
}

}  // namespace ubot::viz
