// Convex decomposition of polygons for Box2D, which takes convex polygons of at most 8 vertices.
#include <cmath>
#include <numeric>

#include "ubot/physics/contact_solver.h"

namespace ubot::physics {
namespace {

constexpr int kMaxPolygonVertices = 8;  // b2_maxPolygonVertices
// Box2D welds vertices closer than half its linear slop (5 mm) and refuses degenerate hulls, so
// pieces with an edge or an area below these would not survive b2PolygonShape::Set.
constexpr double kMinEdge = 0.005;  // m
constexpr double kMinArea = 1e-6;   // m²

double cross(const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
}

double signed_area(const std::vector<Eigen::Vector2d>& p) {
  double a = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Eigen::Vector2d& q = p[i];
    const Eigen::Vector2d& r = p[(i + 1) % p.size()];
    a += q.x() * r.y() - r.x() * q.y();
  }
  return 0.5 * a;
}

bool is_convex(const std::vector<Eigen::Vector2d>& p) {
  const std::size_t n = p.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (cross(p[i], p[(i + 1) % n], p[(i + 2) % n]) < 0.0) return false;
  }
  return true;
}

bool solid_enough(const std::vector<Eigen::Vector2d>& p) {
  if (p.size() < 3 || signed_area(p) < kMinArea) return false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if ((p[(i + 1) % p.size()] - p[i]).norm() < kMinEdge) return false;
  }
  return true;
}

// True when no vertex of `poly` other than the ear's own lies inside or on triangle (a, b, c).
bool ear_is_empty(const std::vector<Eigen::Vector2d>& poly, const std::vector<int>& left,
                  std::size_t ia, std::size_t ib, std::size_t ic) {
  const Eigen::Vector2d &a = poly[left[ia]], &b = poly[left[ib]], &c = poly[left[ic]];
  for (std::size_t k = 0; k < left.size(); ++k) {
    if (k == ia || k == ib || k == ic) continue;
    const Eigen::Vector2d& p = poly[left[k]];
    if (cross(a, b, p) >= 0.0 && cross(b, c, p) >= 0.0 && cross(c, a, p) >= 0.0) return false;
  }
  return true;
}

// Ear clipping of a counter-clockwise simple polygon: n - 2 triangles.
std::vector<std::vector<Eigen::Vector2d>> triangulate(const std::vector<Eigen::Vector2d>& poly) {
  std::vector<std::vector<Eigen::Vector2d>> triangles;
  std::vector<int> left(poly.size());
  std::iota(left.begin(), left.end(), 0);
  std::size_t guard = 0;
  while (left.size() > 3 && guard < 2 * poly.size() * poly.size()) {
    bool clipped = false;
    for (std::size_t i = 0; i < left.size(); ++i) {
      const std::size_t ia = (i + left.size() - 1) % left.size(), ic = (i + 1) % left.size();
      if (cross(poly[left[ia]], poly[left[i]], poly[left[ic]]) <= 0.0) continue;  // reflex
      if (!ear_is_empty(poly, left, ia, i, ic)) continue;
      triangles.push_back({poly[left[ia]], poly[left[i]], poly[left[ic]]});
      left.erase(left.begin() + static_cast<std::ptrdiff_t>(i));
      clipped = true;
      break;
    }
    if (!clipped) break;  // not simple (self-touching): keep what was clipped
    ++guard;
  }
  if (left.size() == 3) triangles.push_back({poly[left[0]], poly[left[1]], poly[left[2]]});
  return triangles;
}

}  // namespace

std::vector<std::vector<Eigen::Vector2d>> convex_pieces(const std::vector<Eigen::Vector2d>& poly) {
  std::vector<Eigen::Vector2d> ccw = poly;
  if (signed_area(ccw) < 0.0) std::reverse(ccw.begin(), ccw.end());
  std::vector<std::vector<Eigen::Vector2d>> pieces;
  if (is_convex(ccw) && static_cast<int>(ccw.size()) <= kMaxPolygonVertices) {
    pieces.push_back(ccw);
  } else {
    pieces = triangulate(ccw);
  }
  std::erase_if(pieces, [](const auto& p) { return !solid_enough(p); });
  return pieces;
}

int default_substeps(double step_time) {
  return std::max(1, static_cast<int>(std::ceil(step_time * 60.0 - 1e-9)));
}

}  // namespace ubot::physics
