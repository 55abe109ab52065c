#include "beam_match.h"

#include <cmath>
#include <numbers>

namespace ubot::irsim_parity {

double polygon_inner_radius(double r) { return r * std::cos(std::numbers::pi / 64.0); }

namespace {

double cross(const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return a.x() * b.y() - a.y() * b.x();
}

bool ends_on(const Circle& c, const Eigen::Vector2d& p) {
  return std::abs((p - c.center).norm() - c.radius) <= kTolerance;
}

bool ends_in_ring(const Circle& c, const Eigen::Vector2d& p) {
  const double d = (p - c.center).norm();
  return d >= polygon_inner_radius(c.radius) - kTolerance && d <= c.radius + kTolerance;
}

// The beam passes the centre farther than the 64-gon's inscribed radius: it crosses only the
// ring between polygon and circle, where the polygon may leave it a gap.
bool misses_inner_disc(const Circle& c, const Eigen::Vector2d& origin,
                       const Eigen::Vector2d& direction) {
  return std::abs(cross(direction, c.center - origin)) >=
         polygon_inner_radius(c.radius) - kTolerance;
}

}  // namespace

BeamMatch match_beam(const Eigen::Vector2d& origin, const Eigen::Vector2d& direction,
                     double ubot_range, double irsim_range, const Circle* ubot_hit) {
  if (std::abs(ubot_range - irsim_range) <= kTolerance) return BeamMatch::kExact;
  if (!ubot_hit || !ends_on(*ubot_hit, origin + ubot_range * direction)) {
    return BeamMatch::kMismatch;
  }
  // The polygon lies inside the circle: IR-SIM can only see it farther away.
  if (irsim_range < ubot_range - kTolerance) return BeamMatch::kMismatch;
  if (ends_in_ring(*ubot_hit, origin + irsim_range * direction)) return BeamMatch::kCircleRing;
  if (misses_inner_disc(*ubot_hit, origin, direction)) return BeamMatch::kGrazing;
  return BeamMatch::kMismatch;
}

}  // namespace ubot::irsim_parity
