#pragma once
// How one lidar beam of ubot is compared with the same beam of IR-SIM.
//
// IR-SIM's lidars cast against the objects' shapely geometries, and a circle there is
// Point(c).buffer(r): a regular 64-gon (16 segments per quarter) whose vertices lie on the
// circle. ubot's circles are exact (SPEC §1, README "Behaviour, as IR-SIM"). Every edge of the
// 64-gon lies in the ring r·cos(π/64) <= |p − c| <= r, and the polygon lies inside the circle.
// So, where ubot's beam ends on a circle, IR-SIM's beam ends no nearer, inside that ring (up to
// r·(1 − cos(π/64)) ≈ 0.0012·r radially, more along a slanting beam), or, when the beam only
// crosses the ring and never enters the inner disc, it may slip between circle and polygon and
// end farther away. Every other beam (polygons, rectangles, linestrings, misses) must agree to
// 1e-9 m, the same tolerance as the poses.
#include <Eigen/Core>

namespace ubot::irsim_parity {

inline constexpr double kTolerance = 1e-9;  // m and rad: poses, velocities, exact ranges

struct Circle {
  Eigen::Vector2d center;
  double radius = 0.0;
};

enum class BeamMatch {
  kExact,       // |ubot − IR-SIM| <= 1e-9
  kCircleRing,  // ubot on a circle, IR-SIM no nearer and inside that circle's 64-gon ring
  kGrazing,     // ubot on a circle whose inner disc the beam misses: IR-SIM may see past it
  kMismatch,
};

// Classifies one beam from `origin` along the unit vector `direction`, given the ranges each
// simulator measured and the circle ubot's beam hit (null: it hit no circle, or nothing).
BeamMatch match_beam(const Eigen::Vector2d& origin, const Eigen::Vector2d& direction,
                     double ubot_range, double irsim_range, const Circle* ubot_hit);

// Radius of the circle inscribed in IR-SIM's 64-gon of a circle of radius r.
double polygon_inner_radius(double r);

}  // namespace ubot::irsim_parity
