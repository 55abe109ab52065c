#pragma once
// Shape builders, random helpers and an independent brute-force reference (long double) for
// the scene tests.
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "ubot/scene/scene.h"

namespace ubot::scene::testing {

// Randomised reference tests run their full case counts in the Release build; the sanitizer
// build (10-20x slower) runs an eighth of them, enough to exercise every code path for memory
// and undefined-behaviour errors.
#ifdef UBOT_SANITIZED
inline constexpr int kCaseDivisor = 8;
#else
inline constexpr int kCaseDivisor = 1;
#endif
inline constexpr int cases(int n) { return n / kCaseDivisor > 0 ? n / kCaseDivisor : 1; }

inline BodyGeometry circle(double x, double y, double r) {
  BodyGeometry g;
  g.kind = ShapeKind::kCircle;
  g.center = {x, y};
  g.radius = r;
  return g;
}

// Rectangle centred at (x, y) with half sizes (hx, hy), rotated by yaw; counter-clockwise.
inline BodyGeometry box(double x, double y, double hx, double hy, double yaw = 0.0) {
  BodyGeometry g;
  g.kind = ShapeKind::kPolygon;
  const double c = std::cos(yaw), s = std::sin(yaw);
  for (auto [u, v] : {std::pair{-hx, -hy}, {hx, -hy}, {hx, hy}, {-hx, hy}}) {
    g.vertices.emplace_back(x + c * u - s * v, y + s * u + c * v);
  }
  return g;
}

inline BodyGeometry polygon(std::vector<Eigen::Vector2d> vertices) {
  BodyGeometry g;
  g.kind = ShapeKind::kPolygon;
  g.vertices = std::move(vertices);
  return g;
}

inline BodyGeometry polyline(std::vector<Eigen::Vector2d> vertices) {
  BodyGeometry g;
  g.kind = ShapeKind::kPolyline;
  g.vertices = std::move(vertices);
  return g;
}

inline BodyGeometry with_z(BodyGeometry g, double z_min, double z_max) {
  g.z_min = z_min;
  g.z_max = z_max;
  return g;
}

inline RayHit cast_one(const Scene& scene, const Ray& ray, int ignore = kNoUserId) {
  RayHit hit;
  scene.cast({&ray, 1}, ignore, {&hit, 1});
  return hit;
}

inline Ray ray2d(double ox, double oy, double dx, double dy,
                 double max = std::numeric_limits<double>::infinity()) {
  return {{ox, oy, 0.0}, {dx, dy, 0.0}, max};
}

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  double uniform(double lo, double hi) { return std::uniform_real_distribution(lo, hi)(engine_); }
  double angle() { return uniform(-std::numbers::pi, std::numbers::pi); }
  Eigen::Vector2d unit2() {
    const double a = angle();
    return {std::cos(a), std::sin(a)};
  }

 private:
  std::mt19937_64 engine_;
};

// Brute-force reference for horizontal rays against 2D shapes with unbounded height, in long
// double and with textbook formulas (independent of the scene's implementation).
using Real = long double;
inline constexpr Real kMiss = std::numeric_limits<Real>::infinity();

inline Real ref_circle(const Ray& ray, const BodyGeometry& g) {
  const Real fx = Real(ray.origin.x()) - g.center.x(), fy = Real(ray.origin.y()) - g.center.y();
  const Real dx = ray.direction.x(), dy = ray.direction.y();
  const Real a = dx * dx + dy * dy, b = 2 * (fx * dx + fy * dy);
  const Real c = fx * fx + fy * fy - Real(g.radius) * g.radius;
  if (c <= 0) return 0;
  const Real disc = b * b - 4 * a * c;
  if (disc < 0) return kMiss;
  const Real t = (-b - std::sqrt(disc)) / (2 * a);
  return t >= 0 ? t : kMiss;
}

inline Real ref_segment(const Ray& ray, const Eigen::Vector2d& p, const Eigen::Vector2d& q) {
  // Solve origin + t d = p + s (q - p) by Cramer's rule.
  const Real dx = ray.direction.x(), dy = ray.direction.y();
  const Real ex = Real(q.x()) - p.x(), ey = Real(q.y()) - p.y();
  const Real rx = Real(p.x()) - ray.origin.x(), ry = Real(p.y()) - ray.origin.y();
  const Real det = -dx * ey + dy * ex;
  if (det == 0) return kMiss;
  const Real t = (-rx * ey + ry * ex) / det;
  const Real s = (dx * ry - dy * rx) / det;
  return t >= 0 && s >= 0 && s <= 1 ? t : kMiss;
}

inline bool ref_inside(const Eigen::Vector2d& p, const std::vector<Eigen::Vector2d>& v) {
  // Winding number.
  int winding = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Eigen::Vector2d& a = v[i];
    const Eigen::Vector2d& b = v[(i + 1) % v.size()];
    const Real cross = (Real(b.x()) - a.x()) * (Real(p.y()) - a.y()) -
                       (Real(p.x()) - a.x()) * (Real(b.y()) - a.y());
    if (a.y() <= p.y()) {
      if (b.y() > p.y() && cross > 0) ++winding;
    } else if (b.y() <= p.y() && cross < 0) {
      --winding;
    }
  }
  return winding != 0;
}

inline Real ref_distance(const Ray& ray, const BodyGeometry& g) {
  if (g.kind == ShapeKind::kCircle) return ref_circle(ray, g);
  if (g.kind == ShapeKind::kPolygon && ref_inside(ray.origin.head<2>(), g.vertices)) return 0;
  Real best = kMiss;
  const std::size_t n = g.vertices.size();
  const std::size_t edges = g.kind == ShapeKind::kPolygon ? n : n - 1;
  for (std::size_t i = 0; i < edges; ++i) {
    best = std::min(best, ref_segment(ray, g.vertices[i], g.vertices[(i + 1) % n]));
  }
  return best;
}

}  // namespace ubot::scene::testing
