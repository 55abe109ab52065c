#include "ubot/world/geometry.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ubot/core/angles.h"

namespace ubot {

using Vec2 = Eigen::Vector2d;

double point_segment_distance(const Vec2& p, const Vec2& a, const Vec2& b) {
  const Vec2 ab = b - a;
  const double len2 = ab.squaredNorm();
  const double t = len2 > 0.0 ? std::clamp((p - a).dot(ab) / len2, 0.0, 1.0) : 0.0;
  return (a + t * ab - p).norm();
}

namespace {

double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

// Sign of the turn a -> b -> c: > 0 left, < 0 right, 0 collinear.
double orient(const Vec2& a, const Vec2& b, const Vec2& c) { return cross(b - a, c - a); }

bool on_segment_if_collinear(const Vec2& a, const Vec2& b, const Vec2& p) {
  return std::min(a.x(), b.x()) <= p.x() && p.x() <= std::max(a.x(), b.x()) &&
         std::min(a.y(), b.y()) <= p.y() && p.y() <= std::max(a.y(), b.y());
}

bool segments_intersect(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d) {
  const double o1 = orient(a, b, c), o2 = orient(a, b, d);
  const double o3 = orient(c, d, a), o4 = orient(c, d, b);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) {
    return true;
  }
  return (o1 == 0 && on_segment_if_collinear(a, b, c)) ||
         (o2 == 0 && on_segment_if_collinear(a, b, d)) ||
         (o3 == 0 && on_segment_if_collinear(c, d, a)) ||
         (o4 == 0 && on_segment_if_collinear(c, d, b));
}

// Calls f(a, b) for every edge of the vertex chain (closing edge included for rings) and stops
// at the first edge for which f returns true. A single vertex is one zero-length edge (a point).
template <typename F>
bool any_edge(const WorldShape& s, F&& f) {
  const std::size_t n = s.vertices.size();
  const std::size_t edges = s.closed || n == 1 ? n : n - 1;
  for (std::size_t i = 0; i < edges; ++i) {
    if (f(s.vertices[i], s.vertices[(i + 1) % n])) return true;
  }
  return false;
}

// Even-odd crossing test (boundary points may go either way; callers check the boundary).
bool inside_ring(const std::vector<Vec2>& ring, const Vec2& p) {
  bool inside = false;
  for (std::size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++) {
    const Vec2& a = ring[i];
    const Vec2& b = ring[j];
    if ((a.y() > p.y()) != (b.y() > p.y()) &&
        p.x() < (b.x() - a.x()) * (p.y() - a.y()) / (b.y() - a.y()) + a.x()) {
      inside = !inside;
    }
  }
  return inside;
}

bool chains_intersect(const WorldShape& a, const WorldShape& b) {
  if (any_edge(a, [&](const Vec2& p, const Vec2& q) {
        return any_edge(
            b, [&](const Vec2& r, const Vec2& s) { return segments_intersect(p, q, r, s); });
      })) {
    return true;
  }
  // No boundary crossing: one may still lie inside the other.
  if (b.closed && contains(b, a.vertices.front())) return true;
  if (a.closed && contains(a, b.vertices.front())) return true;
  return false;
}

bool circle_chain_intersect(const WorldShape& circle, const WorldShape& chain) {
  if (chain.closed && inside_ring(chain.vertices, circle.center)) return true;
  return boundary_distance(chain, circle.center) <= circle.radius;
}

double circle_chain_distance(const WorldShape& circle, const WorldShape& chain) {
  if (chain.closed && circle.box.overlaps(chain.box) &&
      inside_ring(chain.vertices, circle.center)) {
    return 0.0;
  }
  return std::max(0.0, boundary_distance(chain, circle.center) - circle.radius);
}

// Two chains that do not meet are closest at a vertex of one of them: the smallest distance
// from either chain's vertices to the other chain's edges (intersects() tests the bounding
// boxes first: the common case of a clearance needs no crossing tests).
double chain_chain_distance(const WorldShape& a, const WorldShape& b) {
  if (intersects(a, b)) return 0.0;
  double best = std::numeric_limits<double>::infinity();
  for (const Vec2& v : a.vertices) best = std::min(best, boundary_distance(b, v));
  for (const Vec2& v : b.vertices) best = std::min(best, boundary_distance(a, v));
  return best;
}

Aabb bounds(const WorldShape& s) {
  if (s.circle) {
    const Vec2 r(s.radius, s.radius);
    return {s.center - r, s.center + r};
  }
  Aabb box{s.vertices.front(), s.vertices.front()};
  for (const Vec2& v : s.vertices) {
    box.min = box.min.cwiseMin(v);
    box.max = box.max.cwiseMax(v);
  }
  return box;
}

Vec2 transform(const Vec2& p, double c, double s, double x, double y) {
  return {c * p.x() + -s * p.y() + x, s * p.x() + c * p.y() + y};
}

// Is the direction of `d` within `half` of `heading`?
bool within_angle(const Vec2& d, double heading, double half) {
  return std::abs(wrap_to_pi(std::atan2(d.y(), d.x()) - heading)) <= half;
}

bool segment_meets_arc(const Vec2& a, const Vec2& b, const Vec2& apex, double heading, double half,
                       double radius) {
  // Points a + t (b - a), t in [0, 1], at distance `radius` from the apex.
  const Vec2 d = b - a, f = a - apex;
  const double qa = d.squaredNorm(), qb = 2.0 * f.dot(d), qc = f.squaredNorm() - radius * radius;
  const double disc = qb * qb - 4.0 * qa * qc;
  if (qa == 0.0 || disc < 0.0) return false;
  const double root = std::sqrt(disc);
  for (const double t : {(-qb - root) / (2.0 * qa), (-qb + root) / (2.0 * qa)}) {
    if (t >= 0.0 && t <= 1.0 && within_angle(f + t * d, heading, half)) return true;
  }
  return false;
}

bool in_sector(const Vec2& p, const Vec2& apex, double heading, double half, double radius) {
  const Vec2 d = p - apex;
  const double r = d.norm();
  return r <= radius && (r == 0.0 || within_angle(d, heading, half));
}

}  // namespace

void place_shape(const ShapeModel& shape, double x, double y, double yaw, WorldShape& out) {
  out.parts.resize(shape.parts.size());
  for (std::size_t i = 0; i < shape.parts.size(); ++i) {
    place_shape(shape.parts[i], x, y, yaw, out.parts[i]);
  }
  const double c = std::cos(yaw), s = std::sin(yaw);
  out.circle = shape.kind == ShapeKind::kCircle;
  out.closed = shape.closed();
  if (out.circle) {
    out.center = transform(shape.center, c, s, x, y);
    out.radius = shape.radius;
    out.vertices.clear();
  } else {
    out.vertices.resize(shape.vertices.size());
    for (std::size_t i = 0; i < shape.vertices.size(); ++i) {
      out.vertices[i] = transform(shape.vertices[i], c, s, x, y);
    }
  }
  out.box = bounds(out);
}

WorldShape place_shape(const ShapeModel& shape, double x, double y, double yaw) {
  WorldShape out;
  place_shape(shape, x, y, yaw, out);
  return out;
}

bool intersects(const WorldShape& a, const WorldShape& b) {
  if (!a.box.overlaps(b.box)) return false;
  if (!a.parts.empty()) {
    return std::any_of(a.parts.begin(), a.parts.end(),
                       [&](const WorldShape& part) { return intersects(part, b); });
  }
  if (!b.parts.empty()) {
    return std::any_of(b.parts.begin(), b.parts.end(),
                       [&](const WorldShape& part) { return intersects(a, part); });
  }
  if (a.circle && b.circle) return (a.center - b.center).norm() <= a.radius + b.radius;
  if (a.circle) return circle_chain_intersect(a, b);
  if (b.circle) return circle_chain_intersect(b, a);
  return chains_intersect(a, b);
}

double distance(const WorldShape& a, const WorldShape& b) {
  if (!a.parts.empty()) {
    double best = std::numeric_limits<double>::infinity();
    for (const WorldShape& part : a.parts) best = std::min(best, distance(part, b));
    return best;
  }
  if (!b.parts.empty()) return distance(b, a);
  if (a.circle && b.circle) {
    return std::max(0.0, (a.center - b.center).norm() - a.radius - b.radius);
  }
  if (a.circle) return circle_chain_distance(a, b);
  if (b.circle) return circle_chain_distance(b, a);
  return chain_chain_distance(a, b);
}

bool contains(const WorldShape& shape, const Vec2& p) {
  if (!shape.parts.empty()) {
    return std::any_of(shape.parts.begin(), shape.parts.end(),
                       [&](const WorldShape& part) { return contains(part, p); });
  }
  if (shape.circle) return (p - shape.center).norm() <= shape.radius;
  if (shape.closed && inside_ring(shape.vertices, p)) return true;
  return boundary_distance(shape, p) == 0.0;
}

double boundary_distance(const WorldShape& shape, const Vec2& p) {
  if (shape.circle) return std::abs((p - shape.center).norm() - shape.radius);
  double best = std::numeric_limits<double>::infinity();
  any_edge(shape, [&](const Vec2& a, const Vec2& b) {
    best = std::min(best, point_segment_distance(p, a, b));
    return false;
  });
  return best;
}

Vec2 centroid(const WorldShape& shape) {
  if (shape.circle) return shape.center;
  const auto& v = shape.vertices;
  if (shape.closed) {
    double area2 = 0.0;
    Vec2 sum = Vec2::Zero();
    for (std::size_t i = 0; i < v.size(); ++i) {
      const Vec2& p = v[i];
      const Vec2& q = v[(i + 1) % v.size()];
      const double w = cross(p, q);
      area2 += w;
      sum += (p + q) * w;
    }
    if (area2 != 0.0) return sum / (3.0 * area2);
  }
  double length = 0.0;
  Vec2 sum = Vec2::Zero();
  for (std::size_t i = 0; i + 1 < v.size(); ++i) {
    const double l = (v[i + 1] - v[i]).norm();
    length += l;
    sum += (v[i] + v[i + 1]) * (0.5 * l);
  }
  return length > 0.0 ? Vec2(sum / length) : v.front();
}

bool intersects_sector(const WorldShape& shape, const Vec2& apex, double heading, double fov,
                       double radius) {
  if (!shape.parts.empty()) {
    return std::any_of(shape.parts.begin(), shape.parts.end(), [&](const WorldShape& part) {
      return intersects_sector(part, apex, heading, fov, radius);
    });
  }
  const bool full = fov >= 2.0 * kPi - 1e-12;
  const double half = full ? kPi : fov / 2.0;
  if (contains(shape, apex)) return true;
  if (shape.circle) {
    // Distance from the centre to the sector, compared with the radius.
    const Vec2& c = shape.center;
    if (in_sector(c, apex, heading, half, radius)) return true;
    const Vec2 d = c - apex;
    if (full || within_angle(d, heading, half)) return d.norm() - radius <= shape.radius;
    for (const double side : {heading - half, heading + half}) {
      const Vec2 edge_end = apex + radius * Vec2(std::cos(side), std::sin(side));
      if (point_segment_distance(c, apex, edge_end) <= shape.radius) return true;
    }
    return false;
  }
  for (const Vec2& v : shape.vertices) {
    if (in_sector(v, apex, heading, half, radius)) return true;
  }
  return any_edge(shape, [&](const Vec2& a, const Vec2& b) {
    if (segment_meets_arc(a, b, apex, heading, half, radius)) return true;
    if (full) return false;
    for (const double side : {heading - half, heading + half}) {
      const Vec2 edge_end = apex + radius * Vec2(std::cos(side), std::sin(side));
      if (segments_intersect(a, b, apex, edge_end)) return true;
    }
    return false;
  });
}

}  // namespace ubot
