// Exactness: rays constructed to hit a known point of a shape at a known distance, at the
// origin and 10 km away from it. Each trial moves one dynamic body (so updates are exercised).
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "scene_test_util.h"

namespace ubot::scene {
namespace {

using testing::box;
using testing::cast_one;
using testing::circle;
using testing::polyline;
using testing::ray2d;
using testing::Rng;
using testing::with_z;

constexpr double kTolerance = 1e-9;  // metres
constexpr int kTrials = 2000;

// A direction entering the surface with outward normal n, at up to ~80 degrees of incidence.
Eigen::Vector2d entering(Rng& rng, const Eigen::Vector2d& n) {
  return -(Eigen::Rotation2Dd(rng.uniform(-1.4, 1.4)) * n);
}

// Builds a ray whose xy travel from the origin to `p` along unit `d` is `length`; the ray's
// direction has xy length `scale` and a random vertical part, so the expected distance (in
// units of |direction|) is length / scale.
Ray ray_to(Rng& rng, const Eigen::Vector2d& p, const Eigen::Vector2d& d, double length,
           double scale) {
  const Eigen::Vector2d o = p - length * d;
  return {{o.x(), o.y(), rng.uniform(-5.0, 5.0)},
          {scale * d.x(), scale * d.y(), rng.uniform(-0.5, 0.5)}};
}

class SceneExact : public ::testing::TestWithParam<Eigen::Vector2d> {};

TEST_P(SceneExact, RaysEnterCirclesAtTheAnalyticDistance) {
  const Eigen::Vector2d offset = GetParam();
  Rng rng(11);
  Scene scene;
  const BodyId id = scene.add_body(circle(offset.x(), offset.y(), 1.0), true, 1);
  scene.commit();
  double worst = 0.0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const Eigen::Vector2d c = offset + Eigen::Vector2d(rng.uniform(-20, 20), rng.uniform(-20, 20));
    const double r = rng.uniform(0.05, 3.0);
    scene.update_body(id, circle(c.x(), c.y(), r));
    scene.commit();
    const Eigen::Vector2d n = rng.unit2();
    const double length = rng.uniform(0.01, 30.0), scale = rng.uniform(0.5, 2.0);
    const Ray ray = ray_to(rng, c + r * n, entering(rng, n), length, scale);
    const RayHit hit = cast_one(scene, ray);
    ASSERT_EQ(hit.body, id) << "trial " << trial;
    worst = std::max(worst, std::abs(hit.distance * scale - length));
    EXPECT_NEAR(hit.normal.x(), n.x(), 1e-9);
    EXPECT_NEAR(hit.normal.y(), n.y(), 1e-9);
    EXPECT_EQ(hit.normal.z(), 0.0);
  }
  EXPECT_LT(worst, kTolerance);
}

TEST_P(SceneExact, RaysEnterRotatedBoxesAtTheAnalyticDistance) {
  const Eigen::Vector2d offset = GetParam();
  Rng rng(12);
  Scene scene;
  const BodyId id = scene.add_body(box(offset.x(), offset.y(), 1, 1), true, 1);
  scene.commit();
  double worst = 0.0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const Eigen::Vector2d c = offset + Eigen::Vector2d(rng.uniform(-20, 20), rng.uniform(-20, 20));
    const BodyGeometry g =
        box(c.x(), c.y(), rng.uniform(0.05, 3.0), rng.uniform(0.05, 3.0), rng.angle());
    scene.update_body(id, g);
    scene.commit();
    const int k = static_cast<int>(rng.uniform(0, 4)) % 4;
    const Eigen::Vector2d a = g.vertices[k], b = g.vertices[(k + 1) % 4];
    const Eigen::Vector2d n = Eigen::Vector2d(b.y() - a.y(), a.x() - b.x()).normalized();
    const double length = rng.uniform(0.01, 30.0), scale = rng.uniform(0.5, 2.0);
    const Eigen::Vector2d p = a + rng.uniform(0.02, 0.98) * (b - a);
    const RayHit hit = cast_one(scene, ray_to(rng, p, entering(rng, n), length, scale));
    ASSERT_EQ(hit.body, id) << "trial " << trial;
    worst = std::max(worst, std::abs(hit.distance * scale - length));
    EXPECT_NEAR(hit.normal.x(), n.x(), 1e-9);
    EXPECT_NEAR(hit.normal.y(), n.y(), 1e-9);
  }
  EXPECT_LT(worst, kTolerance);
}

TEST_P(SceneExact, RaysHitSegmentsFromEitherSideAtTheAnalyticDistance) {
  const Eigen::Vector2d offset = GetParam();
  Rng rng(13);
  Scene scene;
  const BodyId id = scene.add_body(polyline({offset, offset + Eigen::Vector2d(1, 0)}), true, 1);
  scene.commit();
  double worst = 0.0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const Eigen::Vector2d a = offset + Eigen::Vector2d(rng.uniform(-20, 20), rng.uniform(-20, 20));
    const Eigen::Vector2d b = a + rng.uniform(0.05, 10.0) * rng.unit2();
    scene.update_body(id, polyline({a, b}));
    scene.commit();
    Eigen::Vector2d n = Eigen::Vector2d(b.y() - a.y(), a.x() - b.x()).normalized();
    if (rng.uniform(0, 1) < 0.5) n = -n;  // the side the ray comes from
    const double length = rng.uniform(0.01, 30.0), scale = rng.uniform(0.5, 2.0);
    const Eigen::Vector2d p = a + rng.uniform(0.02, 0.98) * (b - a);
    const RayHit hit = cast_one(scene, ray_to(rng, p, entering(rng, n), length, scale));
    ASSERT_EQ(hit.body, id) << "trial " << trial;
    worst = std::max(worst, std::abs(hit.distance * scale - length));
    EXPECT_NEAR(hit.normal.x(), n.x(), 1e-9);
    EXPECT_NEAR(hit.normal.y(), n.y(), 1e-9);
  }
  EXPECT_LT(worst, kTolerance);
}

TEST_P(SceneExact, RaysFromAboveAndBelowHitTheCaps) {
  const Eigen::Vector2d offset = GetParam();
  Rng rng(14);
  Scene scene;
  const BodyId cyl = scene.add_body(circle(offset.x(), offset.y(), 1.0), true, 1);
  const BodyId prism = scene.add_body(box(offset.x() + 100, offset.y(), 1, 1), true, 2);
  scene.commit();
  double worst = 0.0;
  for (int trial = 0; trial < kTrials / 4; ++trial) {
    const double z_min = rng.uniform(-2, 0), z_max = rng.uniform(0.1, 2);
    const Eigen::Vector2d c = offset + Eigen::Vector2d(rng.uniform(-20, 20), rng.uniform(-20, 20));
    const double r = rng.uniform(0.1, 3.0), yaw = rng.angle();
    scene.update_body(cyl, with_z(circle(c.x(), c.y(), r), z_min, z_max));
    scene.update_body(prism, with_z(box(c.x() + 10, c.y(), r, r, yaw), z_min, z_max));
    scene.commit();
    for (const BodyId id : {cyl, prism}) {
      const bool from_above = rng.uniform(0, 1) < 0.5;
      const Eigen::Vector2d inside =
          c + Eigen::Vector2d(id == prism ? 10 : 0, 0) + 0.69 * r * rng.uniform(0, 1) * rng.unit2();
      const Eigen::Vector3d p(inside.x(), inside.y(), from_above ? z_max : z_min);
      Eigen::Vector3d d(rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(0.3, 1));
      if (from_above) d.z() = -d.z();
      d.normalize();
      const double length = rng.uniform(0.01, 30.0);
      const RayHit hit = cast_one(scene, {p - length * d, d});
      ASSERT_EQ(hit.body, id) << "trial " << trial;
      worst = std::max(worst, std::abs(hit.distance - length));
      EXPECT_EQ(hit.normal, Eigen::Vector3d(0, 0, from_above ? 1 : -1));
    }
  }
  EXPECT_LT(worst, kTolerance);
}

// Where float arithmetic alone would fail: hits within nanometres of a wall's end, origins
// within nanometres of a surface, 10 km from the origin.
TEST_P(SceneExact, HitsNearWallEndsAndFromJustOutsideSurfaces) {
  const Eigen::Vector2d offset = GetParam();
  Rng rng(15);
  Scene scene;
  const BodyId id = scene.add_body(polyline({offset, offset + Eigen::Vector2d(1, 0)}), true, 1);
  scene.commit();
  double worst = 0.0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const Eigen::Vector2d a = offset + Eigen::Vector2d(rng.uniform(-20, 20), rng.uniform(-20, 20));
    const Eigen::Vector2d b = a + rng.uniform(0.05, 10.0) * rng.unit2();
    scene.update_body(id, polyline({a, b}));
    scene.commit();
    const Eigen::Vector2d n = Eigen::Vector2d(b.y() - a.y(), a.x() - b.x()).normalized();
    const double end_gap = std::pow(10.0, rng.uniform(-9, -4));  // metres from an end
    const bool near_a = rng.uniform(0, 1) < 0.5;
    const Eigen::Vector2d u = (b - a).normalized();
    const Eigen::Vector2d p =
        near_a ? Eigen::Vector2d(a + end_gap * u) : Eigen::Vector2d(b - end_gap * u);
    const double length =
        trial % 2 == 0 ? std::pow(10.0, rng.uniform(-9, -3)) : rng.uniform(1.0, 30.0);
    const RayHit hit = cast_one(scene, ray_to(rng, p, entering(rng, n), length, 1.0));
    ASSERT_EQ(hit.body, id) << "trial " << trial << " gap " << end_gap << " length " << length;
    worst = std::max(worst, std::abs(hit.distance - length));
  }
  EXPECT_LT(worst, kTolerance);
}

TEST_P(SceneExact, NearlyCoincidentSurfacesAreOrderedExactly) {
  const Eigen::Vector2d o = GetParam();
  for (const double gap : {1e-6, 1e-8, 1e-10}) {
    Scene scene;
    // The farther surfaces get the lower body ids, so only exact ordering picks the nearer.
    const BodyId far_wall = scene.add_body(
        polyline({o + Eigen::Vector2d(5 + gap, -1), o + Eigen::Vector2d(5 + gap, 1)}), false, 1);
    const BodyId near_wall =
        scene.add_body(polyline({o + Eigen::Vector2d(5, -1), o + Eigen::Vector2d(5, 1)}), false, 2);
    const BodyId far_circle = scene.add_body(circle(o.x() + 1 + gap, o.y() + 10, 1), false, 3);
    const BodyId near_circle = scene.add_body(circle(o.x() + 1, o.y() + 10, 1), false, 4);
    scene.commit();
    const RayHit wall = cast_one(scene, ray2d(o.x(), o.y(), 1, 0));
    EXPECT_EQ(wall.body, near_wall) << gap;
    EXPECT_NEAR(wall.distance, 5.0, 1e-11) << gap;
    const RayHit back = cast_one(scene, ray2d(o.x() + 10, o.y(), -1, 0));
    EXPECT_EQ(back.body, far_wall) << gap;
    EXPECT_NEAR(back.distance, 5.0 - gap, 1e-11) << gap;
    EXPECT_EQ(cast_one(scene, ray2d(o.x() - 5, o.y() + 10, 1, 0)).body, near_circle) << gap;
    EXPECT_EQ(cast_one(scene, ray2d(o.x() + 7, o.y() + 10, -1, 0)).body, far_circle) << gap;
  }
}

INSTANTIATE_TEST_SUITE_P(Offsets, SceneExact,
                         ::testing::Values(Eigen::Vector2d(0, 0), Eigen::Vector2d(1e4, 1e4),
                                           Eigen::Vector2d(-1e4, 7e3)));

}  // namespace
}  // namespace ubot::scene
