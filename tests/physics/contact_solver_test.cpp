// The contact solver alone (physics/): momentum, wall forces, convex decomposition.
#include <gtest/gtest.h>

#include <cmath>

#include "ubot/physics/contact_solver.h"

namespace ubot::physics {
namespace {

ShapeModel circle(double r) {
  ShapeModel s;
  s.kind = ShapeKind::kCircle;
  s.radius = r;
  return s;
}

ShapeModel box(double length, double width) {
  ShapeModel s;
  s.kind = ShapeKind::kRectangle;
  s.length = length;
  s.width = width;
  s.vertices = {{-length / 2, -width / 2},
                {length / 2, -width / 2},
                {length / 2, width / 2},
                {-length / 2, width / 2}};
  return s;
}

// Carries each body's pose and velocity into the next step, as the world does.
void advance(std::vector<Body>& bodies, const StepResult& r) {
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    bodies[i].pose = r.bodies[i].pose;
    bodies[i].velocity = r.bodies[i].velocity;
    bodies[i].spin = r.bodies[i].spin;
  }
}

TEST(ContactSolver, FreeCollisionConservesMomentum) {
  const ShapeModel a_shape = circle(0.5), b_shape = circle(0.4);
  PhysicsModel props;
  props.damping = 0.0;  // no floor: nothing but the collision acts
  props.angular_damping = 0.0;
  props.friction = 0.3;
  props.restitution = 0.5;
  std::vector<Body> bodies(2);
  bodies[0] = {.id = 0,
               .kind = BodyKind::kFree,
               .shape = &a_shape,
               .props = &props,
               .pose = {0.0, 0.0, 0.0},
               .velocity = {2.0, 0.0},
               .mass = 1.0};
  bodies[1] = {.id = 1,
               .kind = BodyKind::kFree,
               .shape = &b_shape,
               .props = &props,
               .pose = {3.0, 0.3, 0.0},
               .velocity = {-1.0, 0.0},
               .mass = 3.0};
  const Eigen::Vector2d p0 = 1.0 * bodies[0].velocity + 3.0 * bodies[1].velocity;
  bool touched = false;
  for (int k = 0; k < 30; ++k) {
    const StepResult r = step(bodies, {.step_time = 0.1, .substeps = 6});
    touched = touched || !r.contacts.empty();
    advance(bodies, r);
  }
  ASSERT_TRUE(touched);
  const Eigen::Vector2d p1 = 1.0 * bodies[0].velocity + 3.0 * bodies[1].velocity;
  // The collision really exchanged momentum: the light body bounced back.
  EXPECT_LT(bodies[0].velocity.x(), 0.0);
  EXPECT_GT(std::abs(bodies[0].velocity.y()), 0.05);  // oblique: a sideways kick
  EXPECT_LE((p1 - p0).norm(), 0.01 * p0.norm());
}

TEST(ContactSolver, RobotAgainstWallPushesWithItsDriveForce) {
  const ShapeModel robot = circle(0.3), wall = box(0.2, 4.0);
  PhysicsModel props;
  std::vector<Body> bodies(2);
  bodies[0] = {.id = 0,
               .kind = BodyKind::kDriven,
               .shape = &robot,
               .props = &props,
               .pose = {0.0, 0.0, 0.0},
               .target_velocity = {1.0, 0.0},
               .mass = 10.0,
               .drive_force = 50.0};
  bodies[1] = {
      .id = 1, .kind = BodyKind::kStatic, .shape = &wall, .props = &props, .pose = {1.0, 0.0, 0.0}};
  StepResult r;
  for (int k = 0; k < 20; ++k) {
    r = step(bodies, {.step_time = 0.1, .substeps = 6});
    advance(bodies, r);
  }
  ASSERT_EQ(r.contacts.size(), 1u);
  const Contact& c = r.contacts[0];
  EXPECT_EQ(c.a, 0);
  EXPECT_EQ(c.b, 1);
  // The normal on the robot points away from the wall (-x), the wall pushes back with exactly
  // what the saturated controller drives with, and the robot rests against the wall's face.
  EXPECT_NEAR(c.normal.x(), -1.0, 1e-6);
  EXPECT_NEAR(c.normal.y(), 0.0, 1e-6);
  EXPECT_NEAR(c.normal_force, 50.0, 0.5);
  EXPECT_NEAR(c.force.x(), -50.0, 0.5);
  EXPECT_NEAR(bodies[0].pose.x(), 0.9 - 0.3, 0.02);
  EXPECT_NEAR(bodies[0].velocity.norm(), 0.0, 1e-3);
}

double area(const std::vector<Eigen::Vector2d>& p) {
  double a = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto &q = p[i], &r = p[(i + 1) % p.size()];
    a += q.x() * r.y() - r.x() * q.y();
  }
  return 0.5 * a;
}

bool convex_ccw(const std::vector<Eigen::Vector2d>& p) {
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto &a = p[i], &b = p[(i + 1) % p.size()], &c = p[(i + 2) % p.size()];
    if ((b - a).x() * (c - b).y() - (b - a).y() * (c - b).x() < 0.0) return false;
  }
  return true;
}

TEST(ConvexPieces, ConvexPolygonIsOnePiece) {
  const auto pieces = convex_pieces(box(2.0, 1.0).vertices);
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_DOUBLE_EQ(area(pieces[0]), 2.0);
}

TEST(ConvexPieces, ConcaveClockwisePolygonSplitsIntoConvexPiecesOfItsArea) {
  // An L of area 3, given clockwise.
  const std::vector<Eigen::Vector2d> l = {{0, 0}, {0, 2}, {1, 2}, {1, 1}, {2, 1}, {2, 0}};
  const auto pieces = convex_pieces(l);
  EXPECT_EQ(pieces.size(), 4u);  // ear clipping: n - 2 triangles
  double total = 0.0;
  for (const auto& p : pieces) {
    EXPECT_TRUE(convex_ccw(p));
    EXPECT_LE(p.size(), 8u);
    total += area(p);
  }
  EXPECT_NEAR(total, 3.0, 1e-12);
}

TEST(ConvexPieces, ConvexPolygonOfMoreThanEightVerticesIsTriangulated) {
  std::vector<Eigen::Vector2d> ring;
  for (int i = 0; i < 12; ++i) ring.emplace_back(std::cos(i * M_PI / 6), std::sin(i * M_PI / 6));
  const auto pieces = convex_pieces(ring);
  EXPECT_EQ(pieces.size(), 10u);
  double total = 0.0;
  for (const auto& p : pieces) total += area(p);
  EXPECT_NEAR(total, area(ring), 1e-12);
}

TEST(ContactSolver, DefaultSubstepsKeepEachAtMostOneSixtiethOfASecond) {
  EXPECT_EQ(default_substeps(0.1), 6);
  EXPECT_EQ(default_substeps(1.0 / 60.0), 1);
  EXPECT_EQ(default_substeps(0.01), 1);
  EXPECT_EQ(default_substeps(0.5), 30);
}

}  // namespace
}  // namespace ubot::physics
