#include "ubot/world/geometry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace ubot {
namespace {

constexpr double kPi = std::numbers::pi;

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
