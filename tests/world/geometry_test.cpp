#include "ubot/world/geometry.h"
#include "ubot/core/angles.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace ubot {
namespace {

WorldShape circle(double x, double y, double r) {
  ShapeModel m;
  m.radius = r;
  return place_shape(m, x, y, 0.0);
}

WorldShape box(double x, double y, double yaw, double length, double width) {
  ShapeModel m;
  m.kind = ShapeKind::kRectangle;
  m.vertices = {{-length / 2, -width / 2},
                {length / 2, -width / 2},
                {length / 2, width / 2},
                {-length / 2, width / 2}};
  return place_shape(m, x, y, yaw);
}

WorldShape line(std::vector<Eigen::Vector2d> v) {
  ShapeModel m;
  m.kind = ShapeKind::kLinestring;
  m.vertices = std::move(v);
  return place_shape(m, 0, 0, 0);
}

TEST(Geometry, PlacesShapesLikeAnAffineTransform) {
  ShapeModel m;
  m.radius = 1.0;
  m.center = {1.0, 1.0};
  // IR-SIM: center is a body-frame offset (lidar_world's obstacle at (5,5) is a disc at (6,6)).
  EXPECT_TRUE(place_shape(m, 5, 5, 0).center.isApprox(Eigen::Vector2d(6, 6)));
  EXPECT_TRUE(place_shape(m, 5, 5, kPi / 2).center.isApprox(Eigen::Vector2d(4, 6)));
  const WorldShape b = box(6, 5, 1.0, 1.5, 1.2);
  const Eigen::Vector2d corner(6 + std::cos(1.0) * 0.75 - std::sin(1.0) * 0.6,
                               5 + std::sin(1.0) * 0.75 + std::cos(1.0) * 0.6);
  EXPECT_TRUE(b.vertices[2].isApprox(corner));
}

TEST(Geometry, CircleCircleTouchingCounts) {
  EXPECT_TRUE(intersects(circle(0, 0, 1), circle(2, 0, 1)));
  EXPECT_FALSE(intersects(circle(0, 0, 1), circle(2.000001, 0, 1)));
  EXPECT_TRUE(intersects(circle(0, 0, 5), circle(1, 0, 1)));  // containment
}

TEST(Geometry, CirclePolygon) {
  const WorldShape b = box(0, 0, 0, 2, 2);  // [-1, 1]²
  EXPECT_TRUE(intersects(circle(1.5, 0, 0.5), b));
  EXPECT_FALSE(intersects(circle(1.5001, 0, 0.5), b));
  EXPECT_TRUE(intersects(circle(0, 0, 0.1), b));  // inside
  // Near a corner: distance to the corner decides, not the bounding box.
  EXPECT_FALSE(intersects(circle(1.4, 1.4, 0.5), b));
  EXPECT_TRUE(intersects(circle(1.3, 1.3, 0.5), b));
}

TEST(Geometry, PolygonPolygonAndLines) {
  const WorldShape a = box(0, 0, 0, 2, 2);
  EXPECT_TRUE(intersects(a, box(2, 0, 0, 2, 2)));  // edge contact
  EXPECT_FALSE(intersects(a, box(2.01, 0, 0, 2, 2)));
  EXPECT_TRUE(intersects(a, box(0, 0, 0.3, 0.5, 0.5)));           // containment, no edge crossing
  EXPECT_TRUE(intersects(a, box(1.3, 0.5, kPi / 4, 0.5, 0.5)));   // corner pokes in
  EXPECT_FALSE(intersects(a, box(1.9, 1.9, kPi / 4, 0.5, 0.5)));  // boxes overlap, shapes do not
  EXPECT_TRUE(intersects(a, line({{-3, 0}, {3, 0}})));
  EXPECT_TRUE(intersects(a, line({{-0.5, 0}, {0.5, 0}})));  // line inside the polygon
  EXPECT_FALSE(intersects(a, line({{-3, 1.5}, {3, 1.5}})));
  EXPECT_TRUE(intersects(line({{0, 0}, {1, 1}}), line({{0, 1}, {1, 0}})));
  EXPECT_FALSE(intersects(line({{0, 0}, {1, 1}}), line({{0, 1}, {0.4, 0.6001}})));
  EXPECT_TRUE(intersects(circle(0, 1.0, 0.5), line({{-3, 0.5}, {3, 0.5}})));
}

// Two circles side by side, as one compound shape (its outline: their hull, a stadium).
WorldShape two_discs(double x, double y, double yaw) {
  ShapeModel m;
  m.kind = ShapeKind::kPolygon;
  m.vertices = {{-2, -0.5}, {2, -0.5}, {2, 0.5}, {-2, 0.5}};  // hull, as the loader keeps it
  ShapeModel left, right;
  left.radius = right.radius = 0.5;
  left.center = {-1.5, 0};
  right.center = {1.5, 0};
  m.parts = {left, right};
  return place_shape(m, x, y, yaw);
}

TEST(Geometry, DistanceCircleCircle) {
  EXPECT_DOUBLE_EQ(distance(circle(0, 0, 1), circle(3, 4, 0.5)), 5.0 - 1.0 - 0.5);
  EXPECT_EQ(distance(circle(0, 0, 1), circle(2, 0, 1)), 0.0);    // touching
  EXPECT_EQ(distance(circle(0, 0, 1), circle(1.5, 0, 1)), 0.0);  // overlapping
  EXPECT_EQ(distance(circle(0, 0, 5), circle(1, 0, 1)), 0.0);    // containment
}

TEST(Geometry, DistanceCirclePolygon) {
  const WorldShape b = box(0, 0, 0, 2, 2);                        // [-1, 1]²
  EXPECT_DOUBLE_EQ(distance(circle(3, 0.5, 0.5), b), 2.0 - 0.5);  // to the edge x = 1
  EXPECT_DOUBLE_EQ(distance(circle(4, 5, 1), b), 5.0 - 1.0);      // to the corner (1, 1)
  EXPECT_EQ(distance(circle(1.5, 0, 0.5), b), 0.0);               // touching
  EXPECT_EQ(distance(circle(0.2, 0.1, 0.1), b), 0.0);             // inside the box
  EXPECT_EQ(distance(circle(3, 0, 10), b), 0.0);  // the box inside the circle, centre outside
  // The diamond box(0, 0, pi/4, 2, 2): vertices at sqrt2 on the axes, edges 1 from the centre.
  const WorldShape diamond = box(0, 0, kPi / 4, 2, 2);
  EXPECT_NEAR(distance(circle(3, 0, 0.5), diamond), 3.0 - std::sqrt(2.0) - 0.5, 1e-12);
  EXPECT_NEAR(distance(circle(2, 2, 0.5), diamond), 2.0 * std::sqrt(2.0) - 1.0 - 0.5, 1e-12);
}

TEST(Geometry, DistancePolygonPolygon) {
  const WorldShape a = box(0, 0, 0, 2, 2);
  EXPECT_DOUBLE_EQ(distance(a, box(5, 0.3, 0, 2, 2)), 3.0);  // parallel edges x = 1, x = 4
  EXPECT_DOUBLE_EQ(distance(a, box(4, 5, 0, 2, 2)), std::hypot(2.0, 3.0));  // corner to corner
  // Rotated: vertex to vertex along the x axis, and a diamond's vertex to a's edge x = 1.
  const WorldShape diamond = box(5, 0, kPi / 4, 2, 2);
  EXPECT_NEAR(distance(box(0, 0, kPi / 4, 2, 2), diamond), 5.0 - 2.0 * std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(distance(a, diamond), 5.0 - std::sqrt(2.0) - 1.0, 1e-12);
  EXPECT_EQ(distance(a, box(2, 0, 0, 2, 2)), 0.0);                // edge contact
  EXPECT_EQ(distance(a, box(1.3, 0.5, kPi / 4, 0.5, 0.5)), 0.0);  // corner pokes in
  EXPECT_EQ(distance(a, box(0, 0, 0.3, 0.5, 0.5)), 0.0);          // containment, no edge crossing
  EXPECT_EQ(distance(box(0, 0, 0.3, 0.5, 0.5), a), 0.0);
  // Bounding boxes overlap, shapes do not: a's corner (1, 1) faces the small diamond's edge,
  // 0.25 from its centre (1.9, 1.9) along the diagonal.
  EXPECT_NEAR(distance(a, box(1.9, 1.9, kPi / 4, 0.5, 0.5)), 0.9 * std::sqrt(2.0) - 0.25, 1e-12);
}

TEST(Geometry, DistanceLinestrings) {
  const WorldShape a = box(0, 0, 0, 2, 2);
  EXPECT_DOUBLE_EQ(distance(a, line({{-3, 3}, {3, 3}})), 2.0);
  EXPECT_EQ(distance(a, line({{-3, 0}, {3, 0}})), 0.0);      // crossing
  EXPECT_EQ(distance(a, line({{-0.5, 0}, {0.5, 0}})), 0.0);  // inside the polygon
  EXPECT_DOUBLE_EQ(distance(line({{0, 0}, {1, 0}}), line({{3, 1}, {3, 5}})), std::hypot(2.0, 1.0));
  EXPECT_DOUBLE_EQ(distance(line({{0, 0}, {4, 0}}), line({{1, 2}, {3, 2}})), 2.0);  // parallel
  EXPECT_EQ(distance(line({{0, 0}, {1, 1}}), line({{0, 1}, {1, 0}})), 0.0);
  EXPECT_DOUBLE_EQ(distance(circle(0, 3, 1), line({{-3, 0}, {3, 0}})), 2.0);
  EXPECT_DOUBLE_EQ(distance(circle(5, 0, 1), line({{-3, 0}, {3, 0}})), 1.0);  // past its end
  EXPECT_EQ(distance(circle(0, 1, 0.5), line({{-3, 0}, {0, 0}, {0, 3}})), 0.0);
  // A single vertex is a point.
  EXPECT_DOUBLE_EQ(distance(circle(0, 0, 1), line({{3, 4}})), 4.0);
  EXPECT_DOUBLE_EQ(distance(line({{3, 4}}), a), std::hypot(2.0, 3.0));
}

// The single-vertex rule of the edge walk serves every test, not distance alone: a one-vertex
// linestring is a point to collisions and containment too.
TEST(Geometry, AOneVertexLinestringIsAPointEverywhere) {
  const WorldShape dot = line({{0.5, 0.5}});
  EXPECT_TRUE(intersects(dot, box(0, 0, 0, 2, 2)));     // inside the square
  EXPECT_TRUE(intersects(circle(0.5, 1.0, 0.5), dot));  // on the circle's edge
  EXPECT_FALSE(intersects(circle(0.5, 1.2, 0.5), dot));
  EXPECT_FALSE(intersects(dot, line({{-3, 3}, {3, 3}})));
  EXPECT_TRUE(intersects(dot, line({{0, 0.5}, {1, 0.5}})));  // on the segment
  EXPECT_TRUE(contains(dot, Eigen::Vector2d(0.5, 0.5)));
  EXPECT_FALSE(contains(dot, Eigen::Vector2d(0.5, 0.6)));
  EXPECT_DOUBLE_EQ(boundary_distance(dot, Eigen::Vector2d(3.5, 4.5)), 5.0);
}

TEST(Geometry, DistanceToACompoundIsToItsParts) {
  const WorldShape discs = two_discs(0, 0, 0);  // discs of radius 0.5 at (-1.5, 0), (1.5, 0)
  // (0, 2) is 1.5 from the hull's edge y = 0.5 but hypot(1.5, 2) from each disc's centre.
  EXPECT_DOUBLE_EQ(distance(discs, circle(0, 2, 0.1)), 2.5 - 0.5 - 0.1);
  // Inside the hull, but clear of both discs.
  EXPECT_DOUBLE_EQ(distance(discs, circle(0, 0, 0.2)), 1.5 - 0.5 - 0.2);
  EXPECT_DOUBLE_EQ(distance(discs, circle(4, 0, 1)), 4.0 - 1.5 - 0.5 - 1.0);
  // Rotated a quarter turn: the discs sit at (0, -1.5) and (0, 1.5).
  EXPECT_NEAR(distance(two_discs(0, 0, kPi / 2), box(3, 1.5, 0, 2, 2)), 2.0 - 0.5, 1e-12);
  EXPECT_NEAR(distance(two_discs(0, 0, 0), two_discs(0, 3, 0)), 3.0 - 1.0, 1e-12);
}

TEST(Geometry, DistanceIsSymmetric) {
  const std::vector<WorldShape> shapes = {circle(0, 0, 1),
                                          circle(3.3, -2.1, 0.4),
                                          box(5, 1, 0.7, 2, 1),
                                          box(-4, 3, 2.1, 1.5, 0.5),
                                          box(0.5, 0.2, 0.3, 0.4, 0.4),
                                          line({{-6, -6}, {-2, -5}, {1, -7}}),
                                          line({{7, 7}}),
                                          two_discs(-1, 5, 0.4)};
  for (const WorldShape& a : shapes) {
    for (const WorldShape& b : shapes) EXPECT_EQ(distance(a, b), distance(b, a));
    EXPECT_EQ(distance(a, a), 0.0);
  }
}

TEST(Geometry, Centroids) {
  EXPECT_TRUE(centroid(box(3, 4, 0.7, 2, 1)).isApprox(Eigen::Vector2d(3, 4)));
  EXPECT_TRUE(centroid(line({{0, 0}, {2, 0}, {2, 2}})).isApprox(Eigen::Vector2d(1.5, 0.5)));
  EXPECT_TRUE(centroid(circle(1, 2, 3)).isApprox(Eigen::Vector2d(1, 2)));
}

TEST(Geometry, FieldOfViewSector) {
  const Eigen::Vector2d apex(0, 0);
  const double fov = kPi / 2;  // ±45°
  // Centre straight ahead, far part beyond the radius but the near edge inside.
  EXPECT_TRUE(intersects_sector(circle(5.5, 0, 0.6), apex, 0.0, fov, 5.0));
  EXPECT_FALSE(intersects_sector(circle(5.7, 0, 0.6), apex, 0.0, fov, 5.0));
  // Centre outside the angle, but the disc reaches across the sector edge.
  EXPECT_TRUE(intersects_sector(circle(2, 2.5, 0.5), apex, 0.0, fov, 5.0));
  EXPECT_FALSE(intersects_sector(circle(2, 3.0, 0.3), apex, 0.0, fov, 5.0));
  // Behind the apex.
  EXPECT_FALSE(intersects_sector(circle(-2, 0, 0.5), apex, 0.0, fov, 5.0));
  // Close and straight ahead: always seen (IR-SIM's own test misses this case; SPEC §10 wins).
  EXPECT_TRUE(intersects_sector(circle(1.0, 0, 0.9), apex, 0.0, fov, 5.0));
  // Heading matters.
  EXPECT_TRUE(intersects_sector(circle(0, 3, 0.2), apex, kPi / 2, fov, 5.0));
  // A wall crossing the sector with no vertex inside it.
  EXPECT_TRUE(intersects_sector(line({{3, -10}, {3, 10}}), apex, 0.0, fov, 5.0));
  EXPECT_FALSE(intersects_sector(line({{6, -10}, {6, 10}}), apex, 0.0, fov, 5.0));
  // A segment that only cuts the arc.
  EXPECT_TRUE(intersects_sector(line({{4.9, -0.5}, {5.2, 0.5}}), apex, 0.0, fov, 5.0));
  // Full circle: a disc.
  EXPECT_TRUE(intersects_sector(circle(-4, 0, 0.5), apex, 0.0, 2 * kPi, 5.0));
  // Apex inside a polygon.
  EXPECT_TRUE(intersects_sector(box(0, 0, 0, 20, 20), apex, 0.0, fov, 5.0));
}

}  // namespace
}  // namespace ubot
