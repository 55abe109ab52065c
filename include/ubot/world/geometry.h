#pragma once
// Shapes placed in the world plane, and the exact 2D predicates the world needs: intersection
// (collisions), containment, distances (clearance), centroids, and the field-of-view sector test.
#include <vector>

#include <Eigen/Core>

#include "ubot/config/world_model.h"

namespace ubot {

struct Aabb {
  Eigen::Vector2d min = Eigen::Vector2d::Zero();
  Eigen::Vector2d max = Eigen::Vector2d::Zero();
  bool overlaps(const Aabb& o) const {
    return min.x() <= o.max.x() && o.min.x() <= max.x() && min.y() <= o.max.y() &&
           o.min.y() <= max.y();
  }
};

// An object's shape at its current pose, in world coordinates.
struct WorldShape {
  bool circle = true;  // circle (center, radius) or vertex chain
  bool closed = true;  // polygon (closed ring) vs. linestring (open chain)
  Eigen::Vector2d center = Eigen::Vector2d::Zero();
  double radius = 0.0;
  std::vector<Eigen::Vector2d> vertices;
  Aabb box;
  // A compound shape's parts at the same pose (the fields above: their convex hull). The
  // predicates below test the parts, so a compound collides and is seen exactly.
  std::vector<WorldShape> parts;
};

// Places a body-frame shape at pose (x, y, yaw): p_W = R(yaw) p_B + (x, y), computed as IR-SIM's
// shapely affine transform does. Reuses `out`'s storage.
// Distance from p to the segment a-b (a point when a == b).
double point_segment_distance(const Eigen::Vector2d& p, const Eigen::Vector2d& a,
                              const Eigen::Vector2d& b);

void place_shape(const ShapeModel& shape, double x, double y, double yaw, WorldShape& out);
WorldShape place_shape(const ShapeModel& shape, double x, double y, double yaw);

// True when the two shapes share at least one point (touching counts), like shapely intersects.
bool intersects(const WorldShape& a, const WorldShape& b);
// Euclidean distance between the two shapes: 0 when they share a point (touching, overlapping,
// or one inside the other), else the smallest distance between their points. Exact for circles
// (no polygonising); a compound shape is its parts, not their hull. Symmetric.
double distance(const WorldShape& a, const WorldShape& b);
// True when p is inside or on a closed shape, or on a linestring.
bool contains(const WorldShape& shape, const Eigen::Vector2d& p);
// Distance from p to the shape's boundary (0 on it).
double boundary_distance(const WorldShape& shape, const Eigen::Vector2d& p);
// Area centroid of a closed shape; length-weighted midpoint of a linestring.
Eigen::Vector2d centroid(const WorldShape& shape);

// True when any part of the shape lies in the circular sector with apex `apex`, centred on
// `heading`, opening angle `fov` (>= 2 pi: a full disc) and radius `radius` (SPEC §10).
bool intersects_sector(const WorldShape& shape, const Eigen::Vector2d& apex, double heading,
                       double fov, double radius);

}  // namespace ubot
