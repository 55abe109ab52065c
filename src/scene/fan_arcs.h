#pragma once
// Angular culling for the 2D fan path: the arc of beam directions (yaw, radians) that can hit
// a circle or a wall from a fan's origin, and a lower bound of those hits' distances. An arc
// must hold every beam the exact tests (exact_geometry.h) could accept, rounding included, so
// that testing only those beams gives the same nearest hit as testing all of them; extra beams
// only cost time. Hence the pads:
//   - `yaw_pad` (per fan) covers the yaw -> (cos, sin) -> angle round trip and the reduction of
//     yaws mod 2 pi;
//   - bearings come from a polynomial atan2 good to 1.2e-5 rad, padded by kBearingPad;
//   - each shape adds its own, from the error bounds of the exact tests' arithmetic, with a
//     safety factor of >= 8 over the bounds derived in the comments.
// Shapes whose test is ill-conditioned from this origin (origin on or within rounding of a
// circle, or of a wall's line) get every beam.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "exact_geometry.h"

namespace ubot::scene::internal {

inline constexpr double kTwoPi = 2.0 * std::numbers::pi;
inline constexpr double kUnit = std::numeric_limits<double>::epsilon() / 2;  // u = 2^-53

// Directions [lo, hi] (lo <= hi, radians, any branch) or every direction.
struct Arc {
  double lo = 0.0;
  double hi = 0.0;
  bool all = false;
};

// What one shape can do to a fan: the beams it may hit, and a distance every such hit (as the
// exact test computes it) is at least.
struct Reach {
  Arc arc;
  double near = 0.0;
};

// atan2 within 1.2e-5 rad (mod 2 pi; tested): Abramowitz & Stegun 4.4.49 on [0, 1], by octant
// symmetry. About 4x faster than std::atan2; arcs only need bounds.
inline double atan2_approx(double y, double x) {
  const double ax = std::abs(x), ay = std::abs(y);
  const bool steep = ay > ax;
  const double big = steep ? ay : ax;
  if (big == 0.0) return 0.0;
  const double z = (steep ? ax : ay) / big;
  const double z2 = z * z;
  double a =
      z * (0.9998660 + z2 * (-0.3302995 + z2 * (0.1801410 + z2 * (-0.0851330 + z2 * 0.0208351))));
  if (steep) a = std::numbers::pi / 2 - a;
  if (x < 0.0) a = std::numbers::pi - a;
  return y < 0.0 ? -a : a;
}
inline constexpr double kBearingPad = 4e-5;  // its error, over 3x

// Pad for a fan whose yaws are at most `max_abs_yaw` in magnitude: cos/sin are within ~1 ulp and
// reducing yaw mod 2 pi loses ~2 u |yaw|. The constant term also keeps arcs clear of rounding
// at bin edges (x * bins / 2 pi is within ~1e-13 of exact).
inline double yaw_pad(double max_abs_yaw) { return 1e-10 + 1e-14 * max_abs_yaw; }

// Beams that can hit the cylinder over circle (cx, cy, radius) within t_max. Returns false when
// none can.
//
// intersect_cylinder() accepts a beam from outside iff h = |f x d| <= |d| r (f = origin - centre)
// and the beam points at the centre (b = f.d < 0), up to rounding of ~3 u |f| in h and ~2 u r in
// |d| r: so sin(angle to -f) <= r / |f| + 5 u. Its entry distance c / q (c = (|f| - r)(|f| + r),
// q = |b| + sqrt(disc) >= sqrt(c)) is at least the exact one, itself >= |f| - r, less
// sqrt(10 u) |f| (the rounding of disc near tangency, through the square root).
inline bool circle_arc(double ox, double oy, double cx, double cy, double radius, double t_max,
                       double pad, Reach* out) {
  const double fx = ox - cx;
  const double fy = oy - cy;
  const double dist = std::sqrt(fx * fx + fy * fy);
  if (dist <= radius * (1.0 + 1e-9)) {  // inside, on, or within rounding of the circle
    *out = {{0.0, 0.0, true}, 0.0};
    return true;
  }
  const double near = (dist - radius) * (1.0 - 1e-9) - 1e-7 * dist;
  if (near > t_max) return false;
  const double ratio = std::min(radius / dist * (1.0 + 1e-12) + 1e-12, 1.0);
  const double half = atan2_approx(ratio, std::sqrt(1.0 - ratio * ratio));  // asin(ratio)
  const double bearing = atan2_approx(-fy, -fx);
  const double widen = half + pad + 2 * kBearingPad;
  *out = {{bearing - widen, bearing + widen, false}, std::max(near, 0.0)};
  return true;
}

// Beams that can hit the wall over segment a-b within t_max. Returns false when none can.
//
// With W = a - o, B = b - o and E = b - a as intersect_wall() rounds them, c = W x E, and
// S = |W| + |B| + |E|: when the origin is off the wall's line (h = |c| / |E| well above
// rounding), the sign of c is exact, the test's sign normalisation follows it, and a beam d
// passes only if W x d and d x B (each computed within ~3 u (|W| + |E|)) have that sign: d lies
// in the arc from W to B, widened at each end by at most ~8 u S / min(|W|, |B|) (B's own
// rounding included). Beams near -W or -B, where those products also vanish, fail the t >= 0
// test as long as h > ~3 u |W|. A hit's computed distance is within a relative 6 u S / h + u of
// its exact value, which is at least the segment's distance from the origin.
inline bool wall_arc(double ox, double oy, Vec2 a, Vec2 b, double t_max, double pad, Reach* out) {
  const double ex = b.x - a.x;
  const double ey = b.y - a.y;
  if (ex == 0.0 && ey == 0.0) return false;  // intersect_wall: parallel to every beam
  const double wx = a.x - ox;
  const double wy = a.y - oy;
  const double vx = b.x - ox;
  const double vy = b.y - oy;
  const double lw = std::sqrt(wx * wx + wy * wy);
  const double lv = std::sqrt(vx * vx + vy * vy);
  const double le = std::sqrt(ex * ex + ey * ey);
  const double sum = lw + lv + le;
  const double c = wx * ey - wy * ex;
  const double h = std::abs(c) / le;  // distance from the origin to the wall's line
  const double end_pad = 64.0 * kUnit * sum / std::min(lw, lv);
  if (h <= 256.0 * kUnit * sum || end_pad >= 0.5) {  // on or within rounding of the line
    *out = {{0.0, 0.0, true}, 0.0};
    return true;
  }
  // Distance to the segment: to an end if the foot of the perpendicular falls outside it.
  const double foot = -(wx * ex + wy * ey);  // in units of le^2
  const double dist = foot <= 0.0 ? lw : foot >= le * le ? lv : h;
  const double near = dist * (1.0 - 16.0 * kUnit * sum / h - 1e-12) - 1e-12 * sum;
  if (near > t_max) return false;
  const double ta = atan2_approx(wy, wx);
  const double tb = atan2_approx(vy, vx);
  // c > 0: B is counter-clockwise of W, the arc runs W -> B; else B -> W.
  double lo = c > 0.0 ? ta : tb;
  double hi = c > 0.0 ? tb : ta;
  // An arc smaller than the bearings' error may come out reversed: widening covers it.
  if (hi < lo - 2 * kBearingPad) hi += kTwoPi;
  const double widen = pad + end_pad + 2 * kBearingPad;
  *out = {{lo - widen, hi + widen, false}, std::max(near, 0.0)};
  return true;
}

}  // namespace ubot::scene::internal
