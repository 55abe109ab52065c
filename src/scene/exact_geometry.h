#pragma once
// Exact ray tests in double precision against the scene's shapes. Embree (single precision)
// only proposes candidates; these functions decide whether a candidate is a real hit and where.
//
// Shapes are solids or walls extruded vertically between z_min and z_max:
//   - a cylinder (circle in xy), solid: side, top and bottom caps, inside;
//   - a prism (closed polygon in xy), solid: its sides are walls (quads), caps and inside here;
//   - a wall (one polygon or polyline edge), a vertical rectangle, hit from either side.
// A ray whose origin is inside (or on the boundary of) a solid hits it at t = 0.
//
// Residual risk near tangents: the decision hit/miss for a ray that grazes a cylinder (distance
// from the axis within ~1e-15 relative of the radius) or passes within a few ulps of a wall's end
// or a cap's rim may go either way; distances of reported hits stay exact to ~1e-15 relative.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "ubot/core/numbers.h"

namespace ubot::scene::internal {

struct Vec2 {
  double x = 0.0;
  double y = 0.0;
};

// p(t) = origin + t * direction for t in [0, t_max]; t in units of |direction|.
struct ExactRay {
  double ox, oy, oz;
  double dx, dy, dz;
  double t_max;
};

// Which surface of a shape a hit lies on; decides the normal.
enum class Feature : std::uint8_t { kInside, kSide, kBottomCap, kTopCap };

struct ExactHit {
  double t = kInf;
  Feature feature = Feature::kSide;
};

// Parameter interval [lo, hi] where the ray's height lies in [z_min, z_max].
inline bool z_interval(const ExactRay& r, double z_min, double z_max, double* lo, double* hi) {
  if (r.dz == 0.0) {
    if (r.oz < z_min || r.oz > z_max) return false;
    *lo = -kInf;
    *hi = kInf;
    return true;
  }
  const double s1 = (z_min - r.oz) / r.dz;
  const double s2 = (z_max - r.oz) / r.dz;
  *lo = std::min(s1, s2);
  *hi = std::max(s1, s2);
  return true;
}

// Parameter interval [lo, hi] where the ray's xy projection lies inside the circle.
inline bool disc_interval(const ExactRay& r, double cx, double cy, double radius, double* lo,
                          double* hi) {
  const double fx = r.ox - cx;
  const double fy = r.oy - cy;
  const double a = r.dx * r.dx + r.dy * r.dy;
  // Factored forms avoid the cancellation of b^2 - a*c near tangency and of |f|^2 - r^2 near
  // the surface: disc = (|d| r)^2 - (f x d)^2 and c = (|f| - r)(|f| + r).
  const double norm_f = std::sqrt(fx * fx + fy * fy);
  const double c = (norm_f - radius) * (norm_f + radius);
  if (a == 0.0) {  // vertical ray: inside the circle for all t or never
    if (c > 0.0) return false;
    *lo = -kInf;
    *hi = kInf;
    return true;
  }
  const double h = std::abs(fx * r.dy - fy * r.dx);
  const double dr = std::sqrt(a) * radius;
  const double disc = (dr - h) * (dr + h);
  if (disc < 0.0) return false;
  const double b = fx * r.dx + fy * r.dy;
  // Stable roots: q has no cancellation; t1 * t2 = c / a keeps the sign of c exactly.
  const double q = -(b + std::copysign(std::sqrt(disc), b));
  if (q == 0.0) {  // origin on the circle, moving tangentially
    *lo = *hi = 0.0;
    return true;
  }
  const double t1 = q / a;
  const double t2 = c / q;
  *lo = std::min(t1, t2);
  *hi = std::max(t1, t2);
  return true;
}

// Entry of the ray into a solid vertical cylinder; t = 0 with kInside when it starts inside.
inline bool intersect_cylinder(const ExactRay& r, double cx, double cy, double radius, double z_min,
                               double z_max, ExactHit* hit) {
  double side_lo, side_hi, cap_lo, cap_hi;
  if (!z_interval(r, z_min, z_max, &cap_lo, &cap_hi)) return false;
  if (!disc_interval(r, cx, cy, radius, &side_lo, &side_hi)) return false;
  const double enter = std::max(side_lo, cap_lo);
  const double exit = std::min(side_hi, cap_hi);
  if (enter > exit || exit < 0.0 || enter > r.t_max) return false;
  if (enter <= 0.0) {
    *hit = {0.0, Feature::kInside};
  } else if (side_lo >= cap_lo) {
    *hit = {enter, Feature::kSide};
  } else {
    *hit = {enter, r.dz > 0.0 ? Feature::kBottomCap : Feature::kTopCap};
  }
  return true;
}

// Hit of the ray on the vertical rectangle over segment a-b, either side. Rays parallel to the
// wall miss, and so do rays within rounding of parallel (~1e-14 rad): there both numerator and
// denominator of t are rounding noise, and Embree, in single precision, sees them as parallel.
inline bool intersect_wall(const ExactRay& r, Vec2 a, Vec2 b, double z_min, double z_max,
                           double* t_out) {
  const double ex = b.x - a.x;
  const double ey = b.y - a.y;
  double den = r.dx * ey - r.dy * ex;  // cross(d, e)
  constexpr double kParallel = 64.0 * std::numeric_limits<double>::epsilon();
  if (!(std::abs(den) > kParallel * (std::abs(r.dx * ey) + std::abs(r.dy * ex)))) return false;
  const double wx = a.x - r.ox;
  const double wy = a.y - r.oy;
  // o + t d = a + s e  =>  t = cross(w, e) / den, s = cross(w, d) / den. The range tests are
  // done on the numerators (sign-normalised), without rounding.
  double num_t = wx * ey - wy * ex;
  double num_s = wx * r.dy - wy * r.dx;
  if (den < 0.0) {
    den = -den;
    num_t = -num_t;
    num_s = -num_s;
  }
  if (num_t < 0.0 || num_s < 0.0 || num_s > den) return false;
  const double t = num_t / den;
  if (t > r.t_max) return false;
  const double z = r.oz + t * r.dz;
  if (z < z_min || z > z_max) return false;
  *t_out = t;
  return true;
}

// Crossing-number test; points on the boundary may go either way.
inline bool point_in_polygon(const Vec2* v, std::uint32_t n, double px, double py) {
  bool inside = false;
  for (std::uint32_t i = 0, j = n - 1; i < n; j = i++) {
    if ((v[i].y > py) != (v[j].y > py)) {
      const double x = v[j].x + (py - v[j].y) * (v[i].x - v[j].x) / (v[i].y - v[j].y);
      if (px < x) inside = !inside;
    }
  }
  return inside;
}

struct Box2 {
  double min_x, min_y, max_x, max_y;
  bool contains(double x, double y) const {
    return x >= min_x && x <= max_x && y >= min_y && y <= max_y;
  }
};

// The parts of a solid prism its walls do not cover: the inside (t = 0) and the cap the ray
// enters through when it comes from above or below.
inline bool intersect_prism_interior(const ExactRay& r, const Vec2* v, std::uint32_t n,
                                     const Box2& box, double z_min, double z_max, ExactHit* hit) {
  if (r.oz >= z_min && r.oz <= z_max) {
    if (!box.contains(r.ox, r.oy) || !point_in_polygon(v, n, r.ox, r.oy)) return false;
    *hit = {0.0, Feature::kInside};
    return true;
  }
  const bool below = r.oz < z_min;
  if (below ? r.dz <= 0.0 : r.dz >= 0.0) return false;
  const double t = ((below ? z_min : z_max) - r.oz) / r.dz;
  if (t > r.t_max) return false;
  const double x = r.ox + t * r.dx;
  const double y = r.oy + t * r.dy;
  if (!box.contains(x, y) || !point_in_polygon(v, n, x, y)) return false;
  *hit = {t, below ? Feature::kBottomCap : Feature::kTopCap};
  return true;
}

}  // namespace ubot::scene::internal
