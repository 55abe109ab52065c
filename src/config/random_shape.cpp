// `random_shape: true`: circles, polygons and linestrings drawn as IR-SIM's geometry handlers
// draw them (irsim/lib/handler/geometry_handler.py, irsim/lib/algorithm/generation.py), from the
// object's own stream ("<name>/shape") instead of numpy's global generator: the same
// distributions, not the same numbers (docs/irsim-worlds.md, tests/app/test_irsim_random.py).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "irsim_keys.h"
#include "object_reader.h"

namespace ubot::config {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

// The parameters of IR-SIM's random_generate_polygon, each a [low, high] range.
struct PolygonRanges {
  Eigen::Vector2d center_low = Eigen::Vector2d::Zero(), center_high = Eigen::Vector2d::Zero();
  Eigen::Vector2d avg_radius{0.1, 1.0};
  Eigen::Vector2d irregularity{0.0, 1.0};
  Eigen::Vector2d spikeyness{0.0, 1.0};
  int vertices_low = 4, vertices_high = 10;  // numpy integers: high excluded
};

Eigen::Vector2d read_range(Mapping& m, std::string_view key, Eigen::Vector2d fallback, double min,
                           double max) {
  const auto f = m.get(key);
  if (!f) return fallback;
  const auto v = f->as_numbers(2, 2);
  for (std::size_t k = 0; k < 2; ++k) {
    if (!(v[k] >= min && v[k] <= max)) {
      f->item(k).fail(fmt::format("must be in [{}, {}], got {}", min, max, v[k]));
    }
  }
  if (v[0] > v[1]) f->fail("the low end must not exceed the high end");
  return {v[0], v[1]};
}

PolygonRanges read_polygon_ranges(Mapping& m, bool convex, int min_vertices) {
  PolygonRanges r;
  if (auto f = m.get("number"); f && f->as_integer() != 1) {
    f->fail("a random shape is one polygon: number must be 1");
  }
  if (auto f = m.get("center_range")) {
    const auto c = f->as_numbers(4, 4);
    for (std::size_t k = 0; k < 4; ++k) f->item(k).as_finite();
    r.center_low = {c[0], c[1]};
    r.center_high = {c[2], c[3]};
    if (c[0] > c[2] || c[1] > c[3]) f->fail("expected [min_x, min_y, max_x, max_y]");
  }
  constexpr double kInf = std::numeric_limits<double>::infinity();
  r.avg_radius = read_range(m, "avg_radius_range", r.avg_radius, 0.0, kInf);
  r.irregularity = read_range(m, "irregularity_range", r.irregularity, 0.0, 1.0);
  // A convex shape has every vertex at the average radius (IR-SIM's spikeyness [0, 0]).
  r.spikeyness =
      read_range(m, "spikeyness_range", convex ? Eigen::Vector2d::Zero() : r.spikeyness, 0.0, 1.0);
  if (auto f = m.get("num_vertices_range")) {
    const auto n = f->as_numbers(2, 2);
    const std::int64_t low = f->item(0).as_integer(), high = f->item(1).as_integer();
    if (low < min_vertices || high <= low || high > 100000) {
      f->fail(fmt::format("expected [low, high) with {} <= low < high, got [{}, {}]", min_vertices,
                          n[0], n[1]));
    }
    r.vertices_low = static_cast<int>(low);
    r.vertices_high = static_cast<int>(high);
  }
  return r;
}

// IR-SIM's generate_polygon: vertices around `center` in counter-clockwise order, angle steps
// jittered by the irregularity and renormalised to a full turn, radii normal about the average
// with the spikeyness as deviation, clipped to [0, 2 avg].
std::vector<Eigen::Vector2d> generate_polygon(const PolygonRanges& r, RandomStream& rng) {
  const Eigen::Vector2d center(rng.uniform(r.center_low.x(), r.center_high.x()),
                               rng.uniform(r.center_low.y(), r.center_high.y()));
  const double avg_radius = rng.uniform(r.avg_radius[0], r.avg_radius[1]);
  const double irregularity_draw = rng.uniform(r.irregularity[0], r.irregularity[1]);
  const double spikeyness_draw = rng.uniform(r.spikeyness[0], r.spikeyness[1]);
  const int n = r.vertices_low +
                static_cast<int>(std::floor(rng.uniform() * (r.vertices_high - r.vertices_low)));
  const double irregularity = irregularity_draw * kTwoPi / n;
  const double spikeyness = spikeyness_draw * avg_radius;
  std::vector<double> steps(n);
  double sum = 0.0;
  for (double& step : steps) {
    step = rng.uniform(kTwoPi / n - irregularity, kTwoPi / n + irregularity);
    sum += step;
  }
  for (double& step : steps) step /= sum / kTwoPi;
  std::vector<Eigen::Vector2d> points;
  double angle = rng.uniform(0.0, kTwoPi);
  for (int i = 0; i < n; ++i) {
    const double radius = std::clamp(avg_radius + rng.gaussian(spikeyness), 0.0, 2.0 * avg_radius);
    points.push_back(center + radius * Eigen::Vector2d(std::cos(angle), std::sin(angle)));
    angle += steps[i];
  }
  return points;
}

double cross(const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return a.x() * b.y() - a.y() * b.x();
}

// True when segments pq and rs share a point (touching counts).
bool segments_meet(const Eigen::Vector2d& p, const Eigen::Vector2d& q, const Eigen::Vector2d& r,
                   const Eigen::Vector2d& s) {
  const double d1 = cross(q - p, r - p), d2 = cross(q - p, s - p);
  const double d3 = cross(s - r, p - r), d4 = cross(s - r, q - r);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) {
    return true;
  }
  auto on = [](const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c,
               double d) {  // c on segment ab, given cross(b - a, c - a) = d
    return d == 0 && std::min(a.x(), b.x()) <= c.x() && c.x() <= std::max(a.x(), b.x()) &&
           std::min(a.y(), b.y()) <= c.y() && c.y() <= std::max(a.y(), b.y());
  };
  return on(p, q, r, d1) || on(p, q, s, d2) || on(r, s, p, d3) || on(r, s, q, d4);
}

// Shapely's is_valid for the ring of `v` (consecutive repeats removed first, as shapely ignores
// them): no two edges meet except neighbours at their shared vertex, and it encloses an area.
bool is_simple_ring(std::vector<Eigen::Vector2d> v) {
  v.erase(std::unique(v.begin(), v.end()), v.end());
  while (v.size() > 1 && v.front() == v.back()) v.pop_back();
  const std::size_t n = v.size();
  if (n < 3) return false;
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Vector2d &a = v[i], &b = v[(i + 1) % n];
    // A neighbour folding back over this edge (a spike of zero width).
    const Eigen::Vector2d& c = v[(i + 2) % n];
    if (cross(b - a, c - b) == 0 && (b - a).dot(c - b) < 0) return false;
    for (std::size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;  // neighbours through the closing vertex
      if (segments_meet(a, b, v[j], v[(j + 1) % n])) return false;
    }
  }
  double area2 = 0.0;
  for (std::size_t i = 0; i < n; ++i) area2 += cross(v[i], v[(i + 1) % n]);
  return area2 != 0.0;
}

// IR-SIM's repair of an invalid polygon: the envelope (bounding box) of what make_valid keeps.
std::vector<Eigen::Vector2d> envelope(const std::vector<Eigen::Vector2d>& v) {
  Eigen::Vector2d lo = v.front(), hi = v.front();
  for (const Eigen::Vector2d& p : v) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  return {lo, {hi.x(), lo.y()}, hi, {lo.x(), hi.y()}};
}

}  // namespace

bool read_random_shape(Mapping& m, const std::string& name, ShapeModel& s, RandomStream& rng) {
  const auto flag = m.get("random_shape");
  if (!flag || !flag->as_bool()) return false;
  if (name == "rectangle") flag->fail("IR-SIM draws random circles, polygons and linestrings only");
  if (name == "circle") {
    const Eigen::Vector2d range =
        read_range(m, "radius_range", {0.1, 1.0}, 0.0, std::numeric_limits<double>::infinity());
    m.ignore("radius");  // IR-SIM draws the radius instead of using it
    s.kind = ShapeKind::kCircle;
    s.radius = rng.uniform(range[0], range[1]);
    if (!(s.radius > 0.0)) m.require("radius_range").fail("the radius range must exceed 0");
    if (auto f = m.get("center")) {
      const auto c = f->as_numbers(2, 2);
      s.center = {c[0], c[1]};
    }
    if (s.wheelbase) s.center.x() += *s.wheelbase / 2.0;
    return true;
  }
  // Polygons are not convex unless asked; linestrings are (IR-SIM's defaults differ).
  const bool convex = m.boolean("is_convex", name == "linestring");
  const PolygonRanges ranges = read_polygon_ranges(m, convex, name == "polygon" ? 3 : 2);
  m.ignore("vertices");  // drawn instead
  s.vertices = generate_polygon(ranges, rng);
  if (name == "linestring") {
    s.kind = ShapeKind::kLinestring;
    return true;
  }
  s.kind = ShapeKind::kPolygon;
  if (!is_simple_ring(s.vertices)) s.vertices = envelope(s.vertices);
  return true;
}

}  // namespace ubot::config
