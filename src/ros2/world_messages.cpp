#include "ubot/ros2/world_messages.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>

#include "ubot/physics/contact_solver.h"
#include "ubot/ros2/sensor_messages.h"
#include "ubot/ros2/sim_messages.h"
#include "ubot/viz/run_drawing.h"
#include "ubot/world/world.h"

namespace ubot::ros2 {
namespace {

constexpr double kObjectHeight = 0.1;  // m: objects are flat prisms
constexpr double kLineWidth = 0.03;    // m: outlines, trajectories, rings
constexpr double kGroundZ = 0.002;     // m: fog, smoke, fields of view lie on the ground
constexpr int kCircleSegments = 32;    // rings and sectors as polylines
constexpr double kRingGap = 0.05;      // m between an object and the ring that marks it

ColorRGBA rgba(const render::Color& c) {
  return {static_cast<float>(c.r), static_cast<float>(c.g), static_cast<float>(c.b),
          static_cast<float>(c.a)};
}

// The markers of one message, with ids counted per namespace.
class MarkerBuilder {
 public:
  explicit MarkerBuilder(Nanos stamp) : header_{to_time(stamp), kWorldFrame} {}

  Marker& add(const std::string& ns, std::int32_t type, const render::Color& color) {
    Marker& m = out_.markers.emplace_back();
    m.header = header_;
    m.ns = ns;
    m.id = next_id_[ns]++;
    m.type = type;
    m.action = Marker::ADD;
    m.pose.orientation = yaw_quaternion(0.0);
    m.scale = {1.0, 1.0, 1.0};
    m.color = rgba(color);
    return m;
  }
  void delete_all() {
    Marker& m = out_.markers.emplace_back();
    m.header = header_;
    m.action = Marker::DELETEALL;
  }
  MarkerArray take() { return std::move(out_); }

 private:
  Header header_;
  MarkerArray out_;
  std::map<std::string, std::int32_t> next_id_;
};

void add_line_strip(MarkerBuilder& b, const std::string& ns, const render::Color& color,
                    const std::vector<Eigen::Vector2d>& points, bool closed, double z) {
  if (points.size() < 2) return;
  Marker& m = b.add(ns, Marker::LINE_STRIP, color);
  m.scale = {kLineWidth, 0.0, 0.0};
  for (const Eigen::Vector2d& p : points) m.points.push_back(point_at(p, z));
  if (closed) m.points.push_back(m.points.front());
}

std::vector<Eigen::Vector2d> circle_points(const Eigen::Vector2d& c, double r) {
  std::vector<Eigen::Vector2d> points;
  for (int k = 0; k < kCircleSegments; ++k) {
    const double a = 2.0 * M_PI * k / kCircleSegments;
    points.emplace_back(c.x() + r * std::cos(a), c.y() + r * std::sin(a));
  }
  return points;
}

// A filled polygon's top face: its convex pieces, each as a triangle fan.
void add_polygon_fill(MarkerBuilder& b, const std::string& ns, const render::Color& color,
                      const std::vector<Eigen::Vector2d>& polygon) {
  if (polygon.size() < 3) return;
  Marker& m = b.add(ns, Marker::TRIANGLE_LIST, color);
  for (const auto& piece : physics::convex_pieces(polygon)) {
    for (std::size_t k = 1; k + 1 < piece.size(); ++k) {
      for (const Eigen::Vector2d& p : {piece[0], piece[k], piece[k + 1]}) {
        m.points.push_back(point_at(p, kObjectHeight));
      }
    }
  }
}

// An object's extent, for the default sizes of its heading arrow and goal.
double object_size(const render::Shape& s) {
  if (s.kind == render::Shape::Kind::kCircle) return s.radius;
  if (s.vertices.empty()) return 0.0;
  Eigen::Vector2d lo = s.vertices.front(), hi = s.vertices.front();
  for (const Eigen::Vector2d& v : s.vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
  return 0.5 * (hi - lo).norm();
}

void add_shape(MarkerBuilder& b, const render::ObjectDrawing& o) {
  const render::Shape& s = o.shape;
  if (s.kind == render::Shape::Kind::kCircle) {
    Marker& m = b.add("objects", Marker::CYLINDER, o.fill);
    m.pose.position = point_at(s.center, 0.5 * kObjectHeight);
    m.scale = {2.0 * s.radius, 2.0 * s.radius, kObjectHeight};
    return;
  }
  if (s.vertices.empty()) return;
  const bool polygon = s.kind == render::Shape::Kind::kPolygon;
  if (polygon && o.filled) add_polygon_fill(b, "objects", o.fill, s.vertices);
  add_line_strip(b, "outlines", polygon ? o.edge : o.fill, s.vertices, polygon, kObjectHeight);
}

void add_heading(MarkerBuilder& b, const render::ObjectDrawing& o) {
  const Eigen::Vector3d& p = *o.pose;
  const double length = o.arrow_length > 0 ? o.arrow_length : 1.5 * object_size(o.shape);
  Marker& m = b.add("headings", Marker::ARROW, o.edge);
  m.points = {point_at(p.head<2>(), kObjectHeight),
              {p.x() + length * std::cos(p.z()), p.y() + length * std::sin(p.z()), kObjectHeight}};
  m.scale = {0.2 * length, 0.4 * length, 0.3 * length};  // shaft and head diameter, head length
}

void add_goal(MarkerBuilder& b, const render::ObjectDrawing& o) {
  const double r = o.goal_radius > 0 ? o.goal_radius : object_size(o.shape);
  render::Color c = o.fill;
  c.a = 0.5;
  Marker& m = b.add("goals", Marker::CYLINDER, c);
  m.pose.position = point_at(o.goal->head<2>(), kGroundZ);
  m.scale = {2.0 * r, 2.0 * r, kGroundZ};
}

void add_trajectory(MarkerBuilder& b, const render::ObjectDrawing& o) {
  const std::vector<Eigen::Vector2d>& t = o.trajectory;
  if (t.size() < 2) return;
  const std::size_t stride = (t.size() + kTrajectoryMarkerPoints - 1) / kTrajectoryMarkerPoints;
  std::vector<Eigen::Vector2d> thinned;
  for (std::size_t k = 0; k < t.size(); k += stride) thinned.push_back(t[k]);
  if ((t.size() - 1) % stride != 0) thinned.push_back(t.back());  // always ends where it is
  add_line_strip(b, "trajectories", o.trajectory_color, thinned, false, 2 * kGroundZ);
}

// A field of view: a filled sector (a triangle fan from its apex).
void add_fov(MarkerBuilder& b, const render::ObjectDrawing& o) {
  const Eigen::Vector3d& p = *o.pose;
  Marker& m = b.add("fov", Marker::TRIANGLE_LIST, o.fov_color);
  const Eigen::Vector2d apex = p.head<2>();
  const auto rim = [&](int k) {
    const double a = p.z() - 0.5 * o.fov + o.fov * k / kCircleSegments;
    return Eigen::Vector2d(apex.x() + o.fov_radius * std::cos(a),
                           apex.y() + o.fov_radius * std::sin(a));
  };
  for (int k = 0; k < kCircleSegments; ++k) {
    for (const Eigen::Vector2d& q : {apex, rim(k), rim(k + 1)})
      m.points.push_back(point_at(q, kGroundZ));
  }
}

// A ring around an object a field of view detects, in the observer's colour.
void add_highlight(MarkerBuilder& b, const render::HighlightDrawing& h) {
  const render::Shape& s = h.shape;
  if (s.kind == render::Shape::Kind::kCircle) {
    add_line_strip(b, "fov_detections", h.color, circle_points(s.center, s.radius + kRingGap), true,
                   kObjectHeight);
  } else {
    add_line_strip(b, "fov_detections", h.color, s.vertices,
                   s.kind == render::Shape::Kind::kPolygon, kObjectHeight + kGroundZ);
  }
}

void add_smoke(MarkerBuilder& b, const render::DiscDrawing& d) {
  Marker& m = b.add("smoke", Marker::CYLINDER, d.color);
  m.pose.position = point_at(d.center, 3 * kGroundZ);
  m.scale = {2.0 * d.radius, 2.0 * d.radius, kGroundZ};
}

// The fog's unexplored cells, one cube each, in one marker.
void add_fog(MarkerBuilder& b, const render::FogDrawing& f) {
  Marker& m = b.add("fog", Marker::CUBE_LIST, f.color);
  m.scale = {f.cell_width, f.cell_height, kGroundZ};
  for (int i = 0; i < f.nx; ++i) {
    for (int j = 0; j < f.ny; ++j) {
      if (!f.fogged[static_cast<std::size_t>(i) * f.ny + j]) continue;
      m.points.push_back(
          {f.x_min + (i + 0.5) * f.cell_width, f.y_min + (j + 0.5) * f.cell_height, 4 * kGroundZ});
    }
  }
}

// A lidar's beams, as Foxglove shows a scan: a POINTS marker at the sensor (its pose) holding
// each beam's end relative to it, the returns (ns "beams") apart from the beams that found
// nothing (ns "beam_misses", fainter), so that a 3D panel shows the hits and the page draws the
// fan from the pose. A contact sensor's force lines start at their own points: a LINE_LIST.
// Only a live view's drawings have beams (a recording has each scan as its LaserScan instead).
void add_beams(MarkerBuilder& b, const render::BeamsDrawing& beams) {
  if (beams.end_points.empty()) return;
  const std::size_t n = beams.end_points.size();
  const bool per_beam_colors = beams.beam_colors.size() == n;  // an FMCW lidar's Doppler
  if (beams.start_points.size() == n) {
    Marker& lines = b.add("beams", Marker::LINE_LIST, beams.color);
    lines.scale = {0.5 * kLineWidth, 0.0, 0.0};
    for (std::size_t i = 0; i < n; ++i) {
      lines.points.push_back(point_at(beams.start_points[i], kGroundZ));
      lines.points.push_back(point_at(beams.end_points[i], kGroundZ));
    }
    return;
  }
  // The returns and the misses, each as [points, colours] relative to the sensor.
  std::array<std::pair<std::vector<Point>, std::vector<ColorRGBA>>, 2> split;
  for (std::size_t i = 0; i < n; ++i) {
    auto& [points, colors] = split[beams.hit.size() != n || beams.hit[i] ? 0 : 1];
    points.push_back(point_at(beams.end_points[i] - beams.origin, 0.0));
    if (per_beam_colors) colors.push_back(rgba(beams.beam_colors[i]));
  }
  render::Color faint = beams.color;
  faint.a *= 0.4;
  for (int k = 0; k < 2; ++k) {
    if (split[k].first.empty()) continue;
    Marker& m =
        b.add(k == 0 ? "beams" : "beam_misses", Marker::POINTS, k == 0 ? beams.color : faint);
    m.pose.position = point_at(beams.origin, kGroundZ);
    m.scale = {2.0 * kLineWidth, 2.0 * kLineWidth, 0.0};
    m.points = std::move(split[k].first);
    m.colors = std::move(split[k].second);
  }
}

// What an object shows besides its shape: all of it may change from step to step.
void add_extras(MarkerBuilder& b, const render::ObjectDrawing& o) {
  if (o.pose && o.fov > 0) add_fov(b, o);
  if (o.pose && o.fov <= 0) add_heading(b, o);
  if (o.goal) add_goal(b, o);
}

// A cell's occupancy rounded to 0..100, kept on the side of IR-SIM's threshold the grid has it
// (50.3 is occupied: 51, not 50).
std::int8_t cell_value(const GridMap& grid, int i, int j) {
  const double v = std::clamp(std::round(double{grid.value(i, j)}), 0.0, 100.0);
  const double limit = GridMap::kOccupiedAbove;
  return static_cast<std::int8_t>(grid.occupied(i, j) ? std::max(v, limit + 1)
                                                      : std::min(v, limit));
}

}  // namespace

OccupancyGrid grid_map_message(const GridMap& grid, Nanos stamp) {
  OccupancyGrid g;
  g.header = {to_time(stamp), kWorldFrame};
  const double cell = std::min(grid.cell.x(), grid.cell.y());
  const auto cells = [cell](double extent) {
    return static_cast<std::uint32_t>(std::max(1.0, std::round(extent / cell)));
  };
  g.info.map_load_time = to_time(stamp);
  g.info.resolution = static_cast<float>(cell);
  g.info.width = cells(grid.nx * grid.cell.x());
  g.info.height = cells(grid.ny * grid.cell.y());
  g.info.origin.position = {grid.origin.x(), grid.origin.y(), 0.0};
  g.info.origin.orientation = yaw_quaternion(0.0);
  g.data.resize(static_cast<std::size_t>(g.info.width) * g.info.height);
  for (std::uint32_t y = 0; y < g.info.height; ++y) {
    const int j = std::min(grid.ny - 1, static_cast<int>((y + 0.5) * cell / grid.cell.y()));
    for (std::uint32_t x = 0; x < g.info.width; ++x) {
      const int i = std::min(grid.nx - 1, static_cast<int>((x + 0.5) * cell / grid.cell.x()));
      g.data[static_cast<std::size_t>(y) * g.info.width + x] = cell_value(grid, i, j);
    }
  }
  return g;
}

MarkerArray world_markers(const render::Drawing& drawing, const World& world, MarkerPart part,
                          Nanos stamp) {
  MarkerBuilder b(stamp);
  if (part == MarkerPart::kTrajectories) {
    b.delete_all();
    for (const render::ObjectDrawing& o : drawing.objects) add_trajectory(b, o);
    return b.take();
  }
  const bool moving = part == MarkerPart::kMoving;
  if (moving) b.delete_all();
  for (const render::ObjectDrawing& o : drawing.objects) {
    const bool fixed = viz::never_moves(world, o.tag);
    if (fixed != moving) add_shape(b, o);  // a fixed shape is sent once, on the static topic
    if (moving) add_extras(b, o);
  }
  if (moving) {
    for (const render::BeamsDrawing& beams : drawing.beams) add_beams(b, beams);
    for (const render::HighlightDrawing& h : drawing.highlights) add_highlight(b, h);
    for (const render::DiscDrawing& d : drawing.discs) add_smoke(b, d);
    if (drawing.fog) add_fog(b, *drawing.fog);
  }
  return b.take();
}

}  // namespace ubot::ros2
