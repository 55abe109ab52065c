// Semantics of the scene: nearest hit, cutoff, self-exclusion, starting inside, heights,
// dynamic updates, tangents, fans vs single rays, concurrency, and errors.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <thread>

#include "scene_test_util.h"
#include "ubot/core/error.h"

namespace ubot::scene {
namespace {

using testing::box;
using testing::cast_one;
using testing::circle;
using testing::polygon;
using testing::polyline;
using testing::ray2d;
using testing::Rng;
using testing::with_z;

TEST(Scene, NearestOfSeveralBodiesAlongTheRay) {
  Scene scene;
  const BodyId far = scene.add_body(circle(15, 0, 1), false, 1);
  const BodyId near = scene.add_body(box(5, 0, 0.5, 0.5), false, 2);
  const BodyId middle = scene.add_body(polyline({{10, -1}, {10, 1}}), false, 3);
  scene.commit();
  EXPECT_EQ(cast_one(scene, ray2d(0, 0, 1, 0)).body, near);
  EXPECT_EQ(cast_one(scene, ray2d(0, 0, 1, 0)).distance, 4.5);
  EXPECT_EQ(cast_one(scene, ray2d(7, 0, 1, 0)).body, middle);
  EXPECT_EQ(cast_one(scene, ray2d(7, 0, 1, 0)).distance, 3.0);
  EXPECT_EQ(cast_one(scene, ray2d(11, 0, 1, 0)).body, far);
  EXPECT_EQ(cast_one(scene, ray2d(11, 0, 1, 0)).distance, 3.0);
  const RayHit miss = cast_one(scene, ray2d(0, 0, -1, 0));
  EXPECT_FALSE(miss.hit());
  EXPECT_EQ(miss.distance, std::numeric_limits<double>::infinity());
}

TEST(Scene, RandomScenesMatchABruteForceReference) {
  Rng rng(21);
  Scene scene;
  std::vector<BodyGeometry> shapes;
  for (int i = 0; i < 60; ++i) {
    const double x = rng.uniform(-15, 15), y = rng.uniform(-15, 15);
    switch (i % 3) {
      case 0:
        shapes.push_back(circle(x, y, rng.uniform(0.1, 1.5)));
        break;
      case 1:
        shapes.push_back(box(x, y, rng.uniform(0.1, 1.5), rng.uniform(0.1, 1.5), rng.angle()));
        break;
      default:
        shapes.push_back(polyline({{x, y},
                                   {x + rng.uniform(-3, 3), y + rng.uniform(-3, 3)},
                                   {x + rng.uniform(-3, 3), y + rng.uniform(-3, 3)}}));
    }
    scene.add_body(shapes.back(), i % 2 == 0, 100 + i);
  }
  scene.commit();
  std::vector<Ray> rays;
  for (int i = 0; i < 5000; ++i) {
    const Eigen::Vector2d d = rng.unit2() * rng.uniform(0.2, 3.0);
    rays.push_back(ray2d(rng.uniform(-20, 20), rng.uniform(-20, 20), d.x(), d.y(),
                         rng.uniform(0, 1) < 0.2 ? rng.uniform(0, 10) : INFINITY));
  }
  std::vector<RayHit> hits(rays.size());
  scene.cast(rays, kNoUserId, hits);
  int hit_count = 0;
  for (std::size_t i = 0; i < rays.size(); ++i) {
    testing::Real best = testing::kMiss, second = testing::kMiss;
    BodyId best_body = kNoBody;
    for (std::size_t b = 0; b < shapes.size(); ++b) {
      const testing::Real t = testing::ref_distance(rays[i], shapes[b]);
      if (t < best) {
        second = best;
        best = t;
        best_body = static_cast<BodyId>(b);
      } else {
        second = std::min(second, t);
      }
    }
    if (best > rays[i].max_distance) best_body = kNoBody;
    if (best_body == kNoBody) {
      EXPECT_FALSE(hits[i].hit()) << "ray " << i;
      continue;
    }
    ++hit_count;
    ASSERT_TRUE(hits[i].hit()) << "ray " << i;
    EXPECT_NEAR(hits[i].distance, static_cast<double>(best), 1e-9) << "ray " << i;
    if (second - best > 1e-7) {
      EXPECT_EQ(hits[i].body, best_body) << "ray " << i;
    }
  }
  EXPECT_GT(hit_count, 1000);
}

TEST(Scene, MaxDistanceIsInclusive) {
  Scene scene;
  scene.add_body(circle(10, 0, 2), false, 1);  // entry at exactly 8
  scene.commit();
  EXPECT_TRUE(cast_one(scene, ray2d(0, 0, 1, 0, 8.0)).hit());
  EXPECT_TRUE(cast_one(scene, ray2d(0, 0, 1, 0, 8.0 + 1e-9)).hit());
  EXPECT_FALSE(cast_one(scene, ray2d(0, 0, 1, 0, 8.0 - 1e-9)).hit());
  EXPECT_FALSE(cast_one(scene, ray2d(0, 0, 1, 0, 0.0)).hit());
  // In units of |direction|: a direction of length 2 reaches the circle at t = 4.
  EXPECT_TRUE(cast_one(scene, ray2d(0, 0, 2, 0, 4.0)).hit());
  EXPECT_FALSE(cast_one(scene, ray2d(0, 0, 2, 0, 4.0 - 1e-9)).hit());
}

TEST(Scene, IgnoredBodyIsInvisibleFromInside) {
  Scene scene;
  const BodyId wall = scene.add_body(polyline({{3, -5}, {3, 5}}), false, 1);
  const BodyId own_circle = scene.add_body(circle(0, 0, 0.5), true, 7);
  const BodyId own_box = scene.add_body(box(0, 1, 0.5, 0.3), true, 8);
  scene.commit();
  const RayHit from_circle = cast_one(scene, ray2d(0, 0, 1, 0), 7);
  EXPECT_EQ(from_circle.body, wall);
  EXPECT_EQ(from_circle.distance, 3.0);
  const RayHit from_box = cast_one(scene, ray2d(0, 1, 1, 0), 8);
  EXPECT_EQ(from_box.body, wall);
  EXPECT_EQ(from_box.distance, 3.0);
  // Not ignored: the ray starts inside and hits at 0 with a zero normal.
  const RayHit inside_circle = cast_one(scene, ray2d(0, 0, 1, 0), 8);
  EXPECT_EQ(inside_circle.body, own_circle);
  EXPECT_EQ(inside_circle.distance, 0.0);
  EXPECT_EQ(inside_circle.normal, Eigen::Vector3d::Zero());
  const RayHit inside_box = cast_one(scene, ray2d(0.2, 1, 1, 0), 7);
  EXPECT_EQ(inside_box.body, own_box);
  EXPECT_EQ(inside_box.distance, 0.0);
  EXPECT_EQ(inside_box.normal, Eigen::Vector3d::Zero());
}

TEST(Scene, RayStartingInsideAConcavePolygonHitsAtZero) {
  Scene scene;
  // An L shape: the notch (x > 1, y > 1) is outside.
  const BodyId l =
      scene.add_body(polygon({{0, 0}, {3, 0}, {3, 1}, {1, 1}, {1, 3}, {0, 3}}), false, 1);
  scene.commit();
  EXPECT_EQ(cast_one(scene, ray2d(2.5, 0.5, 0, 1)).distance, 0.0);
  EXPECT_EQ(cast_one(scene, ray2d(0.5, 2.5, 1, 0)).distance, 0.0);
  const RayHit notch = cast_one(scene, ray2d(2, 2, -1, 0));
  EXPECT_EQ(notch.body, l);
  EXPECT_EQ(notch.distance, 1.0);
  EXPECT_EQ(notch.normal, Eigen::Vector3d(1, 0, 0));
  // The same ray starting inside a circle lying inside the polygon: both contain the origin;
  // the tie at 0 goes to the lower body id, whatever the traversal order.
  const BodyId inner = scene.add_body(circle(0.5, 0.5, 0.2), false, 2);
  scene.commit();
  EXPECT_EQ(cast_one(scene, ray2d(0.5, 0.5, 1, 0)).body, l);
  EXPECT_EQ(cast_one(scene, ray2d(0.5, 0.5, 1, 0), 1).body, inner);
}

TEST(Scene, PolylineIsHitFromBothSides) {
  Scene scene;
  const BodyId line = scene.add_body(polyline({{0, 0}, {2, 0}, {2, 2}}), false, 1);
  scene.commit();
  const RayHit below = cast_one(scene, ray2d(1, -1, 0, 1));
  const RayHit above = cast_one(scene, ray2d(1, 1, 0, -1));
  EXPECT_EQ(below.body, line);
  EXPECT_EQ(above.body, line);
  EXPECT_EQ(below.distance, 1.0);
  EXPECT_EQ(above.distance, 1.0);
  EXPECT_EQ(below.normal, Eigen::Vector3d(0, -1, 0));
  EXPECT_EQ(above.normal, Eigen::Vector3d(0, 1, 0));
  // An open polyline has no inside: from "within" its bend, rays see the segments.
  EXPECT_EQ(cast_one(scene, ray2d(1, 1, 1, 0)).distance, 1.0);
}

TEST(Scene, HeightsLimitWhatARayHits) {
  Scene scene;
  const BodyId low = scene.add_body(with_z(circle(5, 0, 1), 0.0, 1.0), false, 1);
  const BodyId tall = scene.add_body(circle(10, 0, 1), false, 2);  // default: unbounded
  const BodyId low_box = scene.add_body(with_z(box(0, 5, 1, 1), 0.0, 1.0), false, 3);
  scene.commit();
  auto at_height = [](double z, double dx, double dy) { return Ray{{0, 0, z}, {dx, dy, 0}}; };
  EXPECT_EQ(cast_one(scene, at_height(0.5, 1, 0)).body, low);
  EXPECT_EQ(cast_one(scene, at_height(1.5, 1, 0)).body, tall);
  EXPECT_EQ(cast_one(scene, at_height(-0.5, 1, 0)).body, tall);
  EXPECT_EQ(cast_one(scene, at_height(1.0, 1, 0)).body, low);  // z_max is inclusive
  EXPECT_EQ(cast_one(scene, at_height(5000.0, 1, 0)).body, tall);
  EXPECT_EQ(cast_one(scene, at_height(0.5, 0, 1)).body, low_box);
  EXPECT_FALSE(cast_one(scene, at_height(1.5, 0, 1)).hit());
  // Looking down onto the low box from above: its top cap.
  const RayHit top = cast_one(scene, Ray{{0, 5, 3}, {0, 0, -1}});
  EXPECT_EQ(top.body, low_box);
  EXPECT_EQ(top.distance, 2.0);
  EXPECT_EQ(top.normal, Eigen::Vector3d(0, 0, 1));
}

TEST(Scene, MovingADynamicBodyTakesEffectAtCommit) {
  Scene scene;
  const BodyId fixed = scene.add_body(circle(0, 5, 1), false, 1);
  const BodyId robot = scene.add_body(circle(5, 0, 1), true, 2);
  scene.commit();
  const Ray east = ray2d(0, 0, 1, 0), north = ray2d(0, 0, 0, 1);
  EXPECT_EQ(cast_one(scene, east).distance, 4.0);
  scene.update_body(robot, circle(8, 0, 1));
  EXPECT_EQ(cast_one(scene, east).distance, 4.0);  // not yet committed
  scene.commit();
  EXPECT_EQ(cast_one(scene, east).distance, 7.0);
  EXPECT_EQ(cast_one(scene, east).body, robot);
  EXPECT_EQ(cast_one(scene, north).distance, 4.0);
  EXPECT_EQ(cast_one(scene, north).body, fixed);
  // Far away and back: the rebuilt dynamic BVH keeps finding it.
  scene.update_body(robot, circle(500, 300, 1));
  scene.commit();
  EXPECT_FALSE(cast_one(scene, east).hit());
  scene.update_body(robot, circle(3, 0, 0.5));
  scene.commit();
  EXPECT_EQ(cast_one(scene, east).distance, 2.5);
  EXPECT_EQ(cast_one(scene, north).body, fixed);
}

TEST(Scene, MovingDynamicPolygonsAndPolylines) {
  Scene scene;
  const BodyId b = scene.add_body(box(5, 0, 1, 1), true, 1);
  const BodyId l = scene.add_body(polyline({{0, 3}, {1, 3}}), true, 2);
  scene.commit();
  scene.update_body(b, box(10, 0, 1, 1));
  scene.update_body(l, polyline({{-1, 6}, {1, 6}}));
  scene.commit();
  EXPECT_EQ(cast_one(scene, ray2d(0, 0, 1, 0)).distance, 9.0);
  EXPECT_EQ(cast_one(scene, ray2d(0, 0, 0, 1)).distance, 6.0);
  EXPECT_EQ(cast_one(scene, ray2d(10, 0, 0, 1)).body, b);  // inside the moved box
  EXPECT_EQ(cast_one(scene, ray2d(10, 0, 0, 1)).distance, 0.0);
  EXPECT_FALSE(cast_one(scene, ray2d(5, 0, 0, -1)).hit());  // old place is empty
}

TEST(Scene, BodiesAddedAfterCommitAppearAtTheNextCommit) {
  Scene scene;
  scene.add_body(circle(10, 0, 1), false, 1);
  scene.commit();
  const BodyId late = scene.add_body(box(5, 0, 1, 1), false, 2);
  EXPECT_EQ(cast_one(scene, ray2d(0, 0, 1, 0)).distance, 9.0);
  scene.commit();
  EXPECT_EQ(cast_one(scene, ray2d(0, 0, 1, 0)).body, late);
  EXPECT_EQ(scene.body_count(), 2u);
  EXPECT_EQ(scene.user_id(late), 2);
}

TEST(Scene, TangentAndGrazingRaysAreHandled) {
  Scene scene;
  scene.add_body(circle(5, 0, 1), false, 1);
  scene.add_body(box(0, 5, 1, 1), false, 2);
  scene.commit();
  for (const double y : {1.0, std::nextafter(1.0, 0.0), std::nextafter(1.0, 2.0)}) {
    const RayHit hit = cast_one(scene, ray2d(0, y, 1, 0));
    if (hit.hit()) {
      EXPECT_NEAR(hit.distance, 5.0, 1e-6);
    }
  }
  // Along a box's edge line, and exactly through its corner.
  const RayHit along = cast_one(scene, ray2d(-3, 4, 1, 0));
  if (along.hit()) {
    EXPECT_EQ(along.distance, 2.0);
  }
  const RayHit corner = cast_one(scene, ray2d(-2, 3, 1, 1));
  EXPECT_TRUE(corner.hit());
  EXPECT_EQ(corner.distance, 1.0);
  // Starting exactly on a surface.
  EXPECT_EQ(cast_one(scene, ray2d(4, 0, 1, 0)).distance, 0.0);
  EXPECT_EQ(cast_one(scene, ray2d(0, 4, 0, 1)).distance, 0.0);
}

TEST(Scene, FanEqualsTheSameRaysCastOneByOne) {
  Rng rng(31);
  Scene scene;
  for (int i = 0; i < 40; ++i) {
    const double x = rng.uniform(-10, 10), y = rng.uniform(-10, 10);
    if (i % 2 == 0) {
      scene.add_body(circle(x, y, rng.uniform(0.2, 1)), i % 4 == 0, i);
    } else {
      scene.add_body(box(x, y, rng.uniform(0.2, 1), rng.uniform(0.2, 1), rng.angle()), false, i);
    }
  }
  scene.commit();
  std::vector<double> yaws;
  for (int i = 0; i < 360; ++i) yaws.push_back(-std::numbers::pi + i * std::numbers::pi / 180);
  for (int trial = 0; trial < 10; ++trial) {
    const Eigen::Vector3d origin(rng.uniform(-10, 10), rng.uniform(-10, 10), 0.0);
    const double range = trial % 2 == 0 ? 8.0 : INFINITY;
    const int ignore = static_cast<int>(rng.uniform(0, 40));
    std::vector<RayHit> fan(yaws.size()), single(yaws.size());
    scene.cast_fan(origin, yaws, range, ignore, fan);
    for (std::size_t i = 0; i < yaws.size(); ++i) {
      const Ray ray{origin, {std::cos(yaws[i]), std::sin(yaws[i]), 0.0}, range};
      single[i] = cast_one(scene, ray, ignore);
      EXPECT_EQ(fan[i].body, single[i].body) << i;
      EXPECT_EQ(fan[i].distance, single[i].distance) << i;
      EXPECT_EQ(fan[i].normal, single[i].normal) << i;
    }
  }
}

TEST(Scene, ConcurrentCastsMatchSerialCasts) {
  Rng rng(41);
  Scene scene;
  for (int i = 0; i < 200; ++i) {
    scene.add_body(circle(rng.uniform(-30, 30), rng.uniform(-30, 30), rng.uniform(0.2, 1)),
                   i % 2 == 0, i);
  }
  scene.commit();
  std::vector<Ray> rays;
  for (int i = 0; i < 20000; ++i) {
    const Eigen::Vector2d d = rng.unit2();
    rays.push_back(ray2d(rng.uniform(-30, 30), rng.uniform(-30, 30), d.x(), d.y()));
  }
  std::vector<RayHit> serial(rays.size()), a(rays.size()), b(rays.size());
  scene.cast(rays, 4, serial);
  std::thread ta([&] { scene.cast(rays, 4, a); });
  std::thread tb([&] { scene.cast(rays, 4, b); });
  ta.join();
  tb.join();
  for (std::size_t i = 0; i < rays.size(); ++i) {
    ASSERT_EQ(a[i].body, serial[i].body);
    ASSERT_EQ(b[i].body, serial[i].body);
    ASSERT_EQ(a[i].distance, serial[i].distance);
    ASSERT_EQ(b[i].distance, serial[i].distance);
  }
}

TEST(Scene, EmptySceneMisses) {
  Scene scene;
  scene.commit();
  EXPECT_FALSE(cast_one(scene, ray2d(0, 0, 1, 0)).hit());
}

TEST(Scene, BadInputThrows) {
  Scene scene;
  EXPECT_THROW(scene.add_body(circle(0, 0, 0), false, 1), Error);
  EXPECT_THROW(scene.add_body(circle(0, 0, -1), false, 1), Error);
  EXPECT_THROW(scene.add_body(circle(NAN, 0, 1), false, 1), Error);
  EXPECT_THROW(scene.add_body(circle(0, 0, INFINITY), false, 1), Error);
  EXPECT_THROW(scene.add_body(polygon({{0, 0}, {1, 0}}), false, 1), Error);
  EXPECT_THROW(scene.add_body(polyline({{0, 0}}), false, 1), Error);
  EXPECT_THROW(scene.add_body(polyline({{0, 0}, {INFINITY, 0}}), false, 1), Error);
  EXPECT_THROW(scene.add_body(with_z(circle(0, 0, 1), 1.0, 1.0), false, 1), Error);
  EXPECT_THROW(scene.add_body(with_z(circle(0, 0, 1), 0.0, NAN), false, 1), Error);
  EXPECT_THROW(scene.add_body(circle(0, 0, 1), false, kNoUserId), Error);
  EXPECT_EQ(scene.body_count(), 0u);

  const BodyId fixed = scene.add_body(circle(0, 0, 1), false, 1);
  const BodyId robot = scene.add_body(circle(5, 0, 1), true, 2);
  const BodyId poly = scene.add_body(box(0, 5, 1, 1), true, 3);
  const Ray ray = ray2d(0, 0, 1, 0);
  RayHit hit;
  EXPECT_THROW(scene.cast({&ray, 1}, kNoUserId, {&hit, 1}), Error);  // before commit
  EXPECT_THROW(scene.update_body(fixed, circle(1, 0, 1)), Error);
  EXPECT_THROW(scene.update_body(robot, box(5, 0, 1, 1)), Error);
  EXPECT_THROW(scene.update_body(robot, circle(5, 0, 0)), Error);
  EXPECT_THROW(scene.update_body(poly, polygon({{0, 0}, {1, 0}, {1, 1}})), Error);
  EXPECT_THROW(scene.update_body(7, circle(1, 0, 1)), Error);
  EXPECT_THROW(scene.user_id(-1), Error);
  scene.commit();

  const double yaw = 0.0;
  EXPECT_THROW(scene.cast({&ray, 1}, kNoUserId, {}), Error);
  for (const Ray& bad : {ray2d(NAN, 0, 1, 0), ray2d(0, 0, 0, 0), ray2d(0, 0, INFINITY, 0),
                         ray2d(0, 0, 1, 0, -1.0), ray2d(0, 0, 1, 0, NAN)}) {
    EXPECT_THROW(scene.cast({&bad, 1}, kNoUserId, {&hit, 1}), Error);
  }
  const double bad_yaw = NAN;
  EXPECT_THROW(scene.cast_fan({0, 0, 0}, {&bad_yaw, 1}, 10.0, kNoUserId, {&hit, 1}), Error);
  EXPECT_THROW(scene.cast_fan({0, 0, 0}, {&yaw, 1}, -1.0, kNoUserId, {&hit, 1}), Error);
  EXPECT_THROW(scene.cast_fan({0, 0, 0}, {&yaw, 1}, 10.0, kNoUserId, {}), Error);
}

// Embree asserts on a float ray origin beyond ~1.8e18 m (its FLT_LARGE): casts say so instead,
// counting the float allowance that moves Embree's origin back (which a huge scene enlarges).
TEST(Scene, OriginsBeyondEmbreesFloatRangeThrow) {
  Scene scene;
  const BodyId unit = scene.add_body(circle(0, 0, 1), false, 1);
  scene.commit();
  RayHit hit;
  const Ray far = ray2d(1e17, 0, -1, 0);  // inside the range: still exact
  scene.cast({&far, 1}, kNoUserId, {&hit, 1});
  EXPECT_EQ(hit.body, unit);
  EXPECT_EQ(hit.distance, 1e17 - 1);
  for (const Ray& out : {ray2d(1e19, 0, -1, 0), ray2d(0, -2e18, 0, 1)}) {
    try {
      scene.cast({&out, 1}, kNoUserId, {&hit, 1});
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("scene: ray 0 starts too far out"), std::string::npos)
          << e.what();
    }
  }
  const double yaw = 0.0;
  EXPECT_THROW(scene.cast_fan({-1e19, 0, 0}, {&yaw, 1}, 10.0, kNoUserId, {&hit, 1}), Error);

  // A body 1e30 m wide: the allowance alone takes Embree's origin out of range.
  Scene huge;
  huge.add_body(circle(0, 0, 1e30), false, 1);
  huge.commit();
  const Ray inside = ray2d(0, 0, 1, 0);
  EXPECT_THROW(huge.cast({&inside, 1}, kNoUserId, {&hit, 1}), Error);
}

}  // namespace
}  // namespace ubot::scene
