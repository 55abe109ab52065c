// The scene's 3D content: spheres, triangle meshes and the ground, against analytic distances
// computed independently (long double, textbook formulas), at the origin and 10 km away.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <memory>

#include "scene_test_util.h"
#include "ubot/core/error.h"

namespace ubot::scene {
namespace {

using testing::box;
using testing::cast_one;
using testing::circle;
using testing::Real;
using testing::Rng;
using testing::with_z;

constexpr int kSolidTrials = 10000;

Eigen::Vector3d random_unit(Rng& rng) {
  const double z = rng.uniform(-1.0, 1.0), a = rng.angle();
  const double s = std::sqrt(1.0 - z * z);
  return {s * std::cos(a), s * std::sin(a), z};
}

// Textbook ray-sphere entry in long double: smallest t >= 0 of |o + t d - c| = r, 0 inside.
Real ref_sphere(const Ray& ray, const Eigen::Vector3d& c, double r) {
  Real m[3], d[3];
  for (int k = 0; k < 3; ++k) {
    m[k] = Real(ray.origin[k]) - c[k];
    d[k] = ray.direction[k];
  }
  const Real a = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  const Real b = 2 * (m[0] * d[0] + m[1] * d[1] + m[2] * d[2]);
  const Real cc = m[0] * m[0] + m[1] * m[1] + m[2] * m[2] - Real(r) * r;
  if (cc <= 0) return 0;
  const Real disc = b * b - 4 * a * cc;
  if (disc < 0) return testing::kMiss;
  const Real t = (-b - std::sqrt(disc)) / (2 * a);
  return t >= 0 ? t : testing::kMiss;
}

// A unit cube [-0.5, 0.5]^3 as 12 outward-facing triangles.
std::shared_ptr<TriangleMesh> cube_mesh(double half = 0.5) {
  auto m = std::make_shared<TriangleMesh>();
  for (int i = 0; i < 8; ++i) {
    m->vertices.emplace_back((i & 1) ? half : -half, (i & 2) ? half : -half,
                             (i & 4) ? half : -half);
  }
  m->triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                  {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  return m;
}

// A flat n x n grid of unit squares at z = 0, two triangles each (shared edges everywhere).
std::shared_ptr<TriangleMesh> grid_mesh(int n) {
  auto m = std::make_shared<TriangleMesh>();
  for (int j = 0; j <= n; ++j) {
    for (int i = 0; i <= n; ++i) m->vertices.emplace_back(i, j, 0.0);
  }
  auto at = [n](int i, int j) { return static_cast<std::uint32_t>(j * (n + 1) + i); };
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      m->triangles.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
      m->triangles.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
    }
  }
  return m;
}

Eigen::Isometry3d pose(const Eigen::Vector3d& t, const Eigen::Vector3d& axis, double angle) {
  Eigen::Isometry3d x = Eigen::Isometry3d::Identity();
  x.linear() = Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
  x.translation() = t;
  return x;
}

class SceneSolids : public ::testing::TestWithParam<Eigen::Vector3d> {};

// Distance from the sphere's centre to the ray's line, relative to the radius, minus 1: near 0
// for grazing rays, whose hit or miss may go either way within ~1e-15.
double grazing(const Ray& ray, const Eigen::Vector3d& c, double r) {
  const Eigen::Vector3d d = ray.direction.normalized();
  return std::abs((c - ray.origin).cross(d).norm() / r - 1.0);
}

TEST_P(SceneSolids, RandomRaysMeetRandomSpheresAtTheAnalyticDistance) {
  const Eigen::Vector3d offset = GetParam();
  Rng rng(21);
  double worst = 0.0;
  int hits = 0, inside = 0;
  constexpr int kSpheres = 20, kBatch = 200;
  for (int batch = 0; batch < kSolidTrials / kBatch; ++batch) {
    Scene scene;
    std::vector<std::pair<Eigen::Vector3d, double>> spheres;
    for (int k = 0; k < kSpheres; ++k) {
      const Eigen::Vector3d c =
          offset + Eigen::Vector3d(rng.uniform(-20, 20), rng.uniform(-20, 20), rng.uniform(-5, 5));
      const double r = rng.uniform(0.05, 3.0);
      scene.add_sphere(c, r, k % 2 == 1, k);
      spheres.emplace_back(c, r);
    }
    scene.commit();
    for (int trial = 0; trial < kBatch; ++trial) {
      // Aim near a random sphere: sometimes from inside, often close to tangent, some misses.
      const auto& [c, r] = spheres[static_cast<std::size_t>(rng.uniform(0, kSpheres)) % kSpheres];
      const Eigen::Vector3d target = c + rng.uniform(0.0, 1.3 * r) * random_unit(rng);
      const Eigen::Vector3d o = c + rng.uniform(0.0, 30.0) * random_unit(rng);
      const double scale = rng.uniform(0.5, 2.0);
      const Ray ray{o, scale * (target - o).normalized()};
      Real ref = testing::kMiss;
      int nearest = -1;
      bool ambiguous = false;
      for (int k = 0; k < kSpheres; ++k) {
        const Real t = ref_sphere(ray, spheres[k].first, spheres[k].second);
        ambiguous |= grazing(ray, spheres[k].first, spheres[k].second) < 1e-12;
        if (t < ref) ref = t, nearest = k;
      }
      if (ambiguous) continue;
      const RayHit hit = cast_one(scene, ray);
      if (nearest < 0) {
        EXPECT_FALSE(hit.hit()) << "batch " << batch << " trial " << trial;
        continue;
      }
      ASSERT_EQ(scene.user_id(hit.body), nearest) << "batch " << batch << " trial " << trial;
      ++hits;
      if (ref == 0) {
        ++inside;
        EXPECT_EQ(hit.distance, 0.0);
        continue;
      }
      worst = std::max(worst, static_cast<double>(std::abs(Real(hit.distance) - ref) * scale));
      const Eigen::Vector3d p = o + hit.distance * ray.direction;
      const auto& [cn, rn] = spheres[static_cast<std::size_t>(nearest)];
      EXPECT_NEAR((hit.normal - (p - cn) / rn).norm(), 0.0, 1e-9);
    }
  }
  EXPECT_GT(hits, kSolidTrials / 2);
  EXPECT_GT(inside, 0);
  // Achieved: ~5e-14 m, at the origin and 10 km away.
  EXPECT_LT(worst, 1e-9) << "metres";
}

TEST_P(SceneSolids, RaysMeetMeshesAtTheAnalyticDistance) {
  const Eigen::Vector3d offset = GetParam();
  Rng rng(22);
  Scene scene;
  const Scene::MeshId cube = scene.add_mesh(cube_mesh());
  const BodyId id = scene.add_mesh_body(cube, pose(offset, {0, 0, 1}, 0.0), true, 9);
  scene.commit();
  double worst = 0.0;
  Eigen::Isometry3d placed = Eigen::Isometry3d::Identity();
  for (int trial = 0; trial < kSolidTrials; ++trial) {
    const Eigen::Isometry3d x = pose(
        offset + Eigen::Vector3d(rng.uniform(-20, 20), rng.uniform(-20, 20), rng.uniform(-5, 5)),
        random_unit(rng), rng.angle());
    if (trial % 10 == 0) {
      scene.update_mesh_body(id, x);
      scene.commit();
      placed = x;
    }
    // A point on a random face, and an origin on that face's outer side: for a convex body the
    // face point is where the ray enters.
    const int axis = static_cast<int>(rng.uniform(0, 3)) % 3;
    const double side = rng.uniform(0, 1) < 0.5 ? -1.0 : 1.0;
    Eigen::Vector3d p_m(rng.uniform(-0.49, 0.49), rng.uniform(-0.49, 0.49),
                        rng.uniform(-0.49, 0.49));
    p_m[axis] = 0.5 * side;
    Eigen::Vector3d n_m = Eigen::Vector3d::Zero();
    n_m[axis] = side;
    Eigen::Vector3d dir_m = random_unit(rng);
    if (dir_m.dot(n_m) > -0.2) dir_m = (dir_m - (dir_m.dot(n_m) + 0.5) * n_m).normalized();
    const double length = rng.uniform(0.01, 30.0), scale = rng.uniform(0.5, 2.0);
    const Eigen::Vector3d p = placed * p_m, d = placed.linear() * dir_m;
    const Ray ray{p - length * d, scale * d};
    const RayHit hit = cast_one(scene, ray);
    ASSERT_EQ(hit.body, id) << "trial " << trial;
    // Reference: the face plane n.(q - p) = 0 met by the ray, in long double.
    const Eigen::Vector3d n = placed.linear() * n_m;
    Real num = 0, den = 0;
    for (int k = 0; k < 3; ++k) {
      num += Real(n[k]) * (Real(p[k]) - Real(ray.origin[k]));
      den += Real(n[k]) * Real(ray.direction[k]);
    }
    worst = std::max(worst, static_cast<double>(std::abs(Real(hit.distance) - num / den)));
    EXPECT_NEAR((hit.normal - n).norm(), 0.0, 1e-9);
  }
  // Achieved: ~4e-14 m at the origin, ~8e-12 m 10 km away (the pose's double rounding).
  EXPECT_LT(worst, 1e-9) << "metres";
}

INSTANTIATE_TEST_SUITE_P(NearAndFar, SceneSolids,
                         ::testing::Values(Eigen::Vector3d(0, 0, 0),
                                           Eigen::Vector3d(1e4, -1e4, 20)));

TEST(SceneSolidsGrid, RaysThroughSharedEdgesAndVerticesNeverSlipThrough) {
  Rng rng(23);
  Scene scene;
  const Scene::MeshId grid = scene.add_mesh(grid_mesh(50));
  const BodyId id = scene.add_mesh_body(grid, Eigen::Isometry3d::Identity(), false, 1);
  scene.commit();
  int rays = 0;
  for (int trial = 0; trial < kSolidTrials; ++trial) {
    // A grid vertex, or the midpoint of an edge or of a diagonal.
    const double i = std::floor(rng.uniform(1, 49)), j = std::floor(rng.uniform(1, 49));
    const int kind = trial % 4;
    const Eigen::Vector3d target(i + (kind == 1 || kind == 3 ? 0.5 : 0.0),
                                 j + (kind == 2 || kind == 3 ? 0.5 : 0.0), 0.0);
    Eigen::Vector3d u = random_unit(rng);
    u.z() = -std::abs(u.z()) - 0.05;
    const Eigen::Vector3d d = u.normalized();
    const double h = rng.uniform(0.1, 20.0);
    const Ray ray{target - (h / -d.z()) * d, d};
    const RayHit hit = cast_one(scene, ray);
    ASSERT_EQ(hit.body, id) << "trial " << trial << " slipped through at " << target.transpose();
    EXPECT_NEAR(hit.distance, h / -d.z(), 1e-9);
    EXPECT_EQ(hit.normal, Eigen::Vector3d::UnitZ());
    ++rays;
  }
  EXPECT_EQ(rays, kSolidTrials);
}

TEST(SceneSolidsMesh, OneSidedTriangleIsHitFromBothSidesAndBodiesShareAMesh) {
  auto tri = std::make_shared<TriangleMesh>();
  tri->vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  tri->triangles = {{0, 1, 2}};
  Scene scene;
  const Scene::MeshId m = scene.add_mesh(tri);
  const BodyId a = scene.add_mesh_body(m, pose({0, 0, 1}, {0, 0, 1}, 0), false, 1);
  const BodyId b = scene.add_mesh_body(m, pose({0, 0, 3}, {0, 0, 1}, 0), false, 2);
  scene.commit();
  const RayHit up = cast_one(scene, {{0.2, 0.2, 0.0}, {0, 0, 1}});
  EXPECT_EQ(up.body, a);
  EXPECT_DOUBLE_EQ(up.distance, 1.0);
  EXPECT_EQ(up.normal, -Eigen::Vector3d::UnitZ());
  const RayHit down = cast_one(scene, {{0.2, 0.2, 5.0}, {0, 0, -1}});
  EXPECT_EQ(down.body, b);
  EXPECT_DOUBLE_EQ(down.distance, 2.0);
  EXPECT_EQ(down.normal, Eigen::Vector3d::UnitZ());
  // The upper body ignored (a sensor's own body): the lower one is next.
  EXPECT_EQ(cast_one(scene, {{0.2, 0.2, 5.0}, {0, 0, -1}}, 2).body, a);
  // Outside the triangle: nothing; max_distance short of it: nothing.
  EXPECT_FALSE(cast_one(scene, {{0.8, 0.8, 0.0}, {0, 0, 1}}).hit());
  EXPECT_FALSE(cast_one(scene, {{0.2, 0.2, 0.0}, {0, 0, 1}, 0.999}).hit());
}

TEST(SceneSolidsMesh, MovingMeshBodyFollowsItsPose) {
  Scene scene;
  const Scene::MeshId cube = scene.add_mesh(cube_mesh());
  const BodyId id = scene.add_mesh_body(cube, pose({5, 0, 0}, {0, 0, 1}, 0), true, 1);
  scene.commit();
  const Ray ray{{0, 0, 0}, {1, 0, 0}};
  EXPECT_DOUBLE_EQ(cast_one(scene, ray).distance, 4.5);
  scene.update_mesh_body(id, pose({8, 0, 0}, {0, 0, 1}, M_PI / 4));
  EXPECT_DOUBLE_EQ(cast_one(scene, ray).distance, 4.5);  // not before commit()
  scene.commit();
  EXPECT_NEAR(cast_one(scene, ray).distance, 8.0 - std::sqrt(0.5), 1e-12);
}

TEST(SceneSolidsSphere, NearestAmongSpheresAndExtrudedShapes) {
  Scene scene;
  const BodyId wall = scene.add_body(with_z(box(10, 0, 0.5, 5), 0, 2), false, 1);
  const BodyId s1 = scene.add_sphere({6, 0, 1}, 1.0, false, 2);
  const BodyId s2 = scene.add_sphere({3, 0, 5}, 1.0, true, 3);
  scene.commit();
  EXPECT_EQ(cast_one(scene, {{0, 0, 1}, {1, 0, 0}}).body, s1);
  EXPECT_DOUBLE_EQ(cast_one(scene, {{0, 0, 1}, {1, 0, 0}}).distance, 5.0);
  EXPECT_EQ(cast_one(scene, {{0, 0, 1}, {1, 0, 0}}, 2).body, wall);
  EXPECT_DOUBLE_EQ(cast_one(scene, {{0, 0, 1}, {1, 0, 0}}, 2).distance, 9.5);
  EXPECT_EQ(cast_one(scene, {{0, 0, 5}, {1, 0, 0}}).body, s2);
  scene.update_sphere(s2, {3, 0, 1});
  scene.commit();
  const RayHit h = cast_one(scene, {{0, 0, 1}, {1, 0, 0}});
  EXPECT_EQ(h.body, s2);
  EXPECT_DOUBLE_EQ(h.distance, 2.0);
  EXPECT_EQ(h.normal, -Eigen::Vector3d::UnitX());
  // Inside a sphere: distance 0, no normal.
  const RayHit in = cast_one(scene, {{3, 0, 1.5}, {0, 1, 0}});
  EXPECT_EQ(in.body, s2);
  EXPECT_EQ(in.distance, 0.0);
  EXPECT_EQ(in.normal, Eigen::Vector3d::Zero());
}

TEST(SceneSolidsGround, DownwardRaysHitTheGroundAtTheAnalyticDistance) {
  Rng rng(24);
  Scene scene;
  const BodyId ground = scene.set_ground(-0.5, -1);
  scene.add_body(circle(3, 0, 0.5), false, 1);  // an unbounded-height 2D body
  scene.commit();
  EXPECT_EQ(scene.user_id(ground), -1);
  for (int trial = 0; trial < 2000; ++trial) {
    const Eigen::Vector3d o(rng.uniform(-1e4, 1e4), rng.uniform(-1e4, 1e4), rng.uniform(-0.5, 9));
    Eigen::Vector3d d = random_unit(rng);
    d.z() = -std::abs(d.z());
    const double scale = rng.uniform(0.5, 2.0);
    const RayHit h = cast_one(scene, {o, scale * d});
    if (std::hypot(o.x() - 3, o.y()) < 50) continue;  // keep clear of the circle
    if (d.z() == 0.0) continue;
    ASSERT_EQ(h.body, ground) << "trial " << trial;
    const Real ref = (Real(-0.5) - Real(o.z())) / (Real(d.z()) * scale);
    EXPECT_NEAR(h.distance, static_cast<double>(ref), 1e-9 * std::max(1.0, h.distance));
    EXPECT_EQ(h.normal, Eigen::Vector3d::UnitZ());
  }
  // Up, or level on the plane: no hit. Below the plane: inside, at 0.
  EXPECT_FALSE(cast_one(scene, {{0, 0, -0.5}, {0, 1, 0.1}}).hit());
  EXPECT_FALSE(cast_one(scene, {{0, 0, -0.5}, {0, 1, 0}}).hit());
  EXPECT_EQ(cast_one(scene, {{0, 0, -0.6}, {0, 1, 0}}).distance, 0.0);
  EXPECT_EQ(cast_one(scene, {{0, 0, -0.6}, {0, 1, 0}}).body, ground);
  // A 2D scan on the ground's plane sees the circle, not the ground.
  std::vector<RayHit> out(1);
  const double yaw = 0.0;
  scene.cast_fan({0, 0, -0.5}, {&yaw, 1}, 10.0, kNoUserId, out);
  EXPECT_DOUBLE_EQ(out[0].distance, 2.5);
  EXPECT_THROW(scene.set_ground(0.0, -1), Error);
}

TEST(SceneSolidsFan, FansSeeSpheresAndMeshesToo) {
  // cast_fan() gives what cast() gives for the same horizontal rays, 3D content included.
  Scene scene;
  scene.add_body(circle(-4, 0, 0.5), false, 1);
  scene.add_sphere({0, 3, 0.5}, 1.0, true, 2);
  scene.add_mesh_body(scene.add_mesh(cube_mesh()), pose({3, 0, 0.5}, {0, 0, 1}, 0.3), false, 3);
  scene.set_ground(0.0, -1);
  scene.commit();
  std::vector<double> yaws;
  for (int i = 0; i < 720; ++i) yaws.push_back(-M_PI + i * M_PI / 360);
  std::vector<RayHit> fan(yaws.size()), rays(yaws.size());
  const Eigen::Vector3d o(0, 0, 0.5);
  scene.cast_fan(o, yaws, 20.0, kNoUserId, fan);
  std::vector<Ray> r;
  for (double y : yaws) r.push_back({o, {std::cos(y), std::sin(y), 0}, 20.0});
  scene.cast(r, kNoUserId, rays);
  int spheres = 0, meshes = 0;
  for (std::size_t i = 0; i < yaws.size(); ++i) {
    ASSERT_EQ(fan[i].body, rays[i].body) << i;
    ASSERT_EQ(fan[i].distance, rays[i].distance) << i;
    if (!fan[i].hit()) continue;
    spheres += scene.user_id(fan[i].body) == 2;
    meshes += scene.user_id(fan[i].body) == 3;
  }
  EXPECT_EQ(spheres, 77);  // within asin(1/3) = 19.47 degrees of its bearing: 2 x 38 + 1 beams
  EXPECT_GT(meshes, 40);
  EXPECT_NEAR(fan[540].distance, 2.0, 1e-12);  // yaw pi/2: the sphere of radius 1 at y = 3
}

TEST(SceneSolidsFan, TableFansSeeSolidsThroughEmbreeAndMarkTheirHits) {
  // With 3D content in reach the table forms take Embree's path too: the same hits as cast()
  // along the table's directions, and cast_fan_hits() marks exactly those beams.
  Scene scene;
  scene.add_body(circle(-4, 0, 0.5), false, 1);
  scene.add_sphere({0, 3, 0.5}, 1.0, true, 2);
  scene.commit();
  std::vector<double> angles;
  for (int i = 0; i < 720; ++i) angles.push_back(-M_PI + i * M_PI / 360);
  const FanTable table(angles);
  const double heading = 0.3;
  const Eigen::Vector3d o(0, 0, 0.5);
  std::vector<RayHit> fan(table.size()), sparse(table.size()), rays(table.size());
  std::vector<std::uint64_t> bits((table.size() + 63) / 64);
  scene.cast_fan(o, heading, table, 20.0, kNoUserId, fan);
  scene.cast_fan_hits(o, heading, table, 20.0, kNoUserId, sparse, bits);
  std::vector<Ray> r;
  const FanTable::Heading h = FanTable::heading(heading);
  for (std::size_t i = 0; i < table.size(); ++i) r.push_back({o, table.direction(h, i), 20.0});
  scene.cast(r, kNoUserId, rays);
  int spheres = 0;
  for (std::size_t i = 0; i < table.size(); ++i) {
    ASSERT_EQ(fan[i].body, rays[i].body) << i;
    ASSERT_EQ(fan[i].distance, rays[i].distance) << i;
    ASSERT_EQ((bits[i / 64] >> (i % 64) & 1) != 0, fan[i].hit()) << i;
    if (fan[i].hit()) {
      ASSERT_EQ(sparse[i].distance, fan[i].distance) << i;
    }
    spheres += fan[i].hit() && scene.user_id(fan[i].body) == 2;
  }
  // Yaws -180 + 0.5 k + 17.19 degrees within 19.47 of 90: k = 467 ... 544.
  EXPECT_EQ(spheres, 78);
}

TEST(SceneSolidsFan, FansAgreeWithRaysWhereverSolidsAreOutOfTheirReachOrHeight) {
  // Fans take the exact 2D path when no solid spans their height within their reach, and
  // Embree otherwise: either way they give what cast() gives, at the edges of those bounds too.
  Scene scene;
  scene.add_body(circle(-4, 0, 0.5), false, 1);
  scene.add_sphere({0, 3, 2.0}, 1.0, true, 2);  // spans z 1..3
  scene.add_mesh_body(scene.add_mesh(cube_mesh()), pose({30, 0, 0.5}, {0, 0, 1}, 0.3), false, 3);
  scene.commit();
  std::vector<double> yaws;
  for (int i = 0; i < 720; ++i) yaws.push_back(-M_PI + i * M_PI / 360);
  std::vector<RayHit> fan(yaws.size()), rays(yaws.size());
  int solid_hits = 0;
  for (const Eigen::Vector3d& o :
       {Eigen::Vector3d(0, 0, 0.5), Eigen::Vector3d(0, 0, 1.0), Eigen::Vector3d(0, 0, 1.5),
        Eigen::Vector3d(0, 0, 3.0), Eigen::Vector3d(10, 0, 0.5), Eigen::Vector3d(25, 0, 0.5)}) {
    for (double reach : {4.0, 20.0}) {
      scene.cast_fan(o, yaws, reach, kNoUserId, fan);
      std::vector<Ray> r;
      for (double y : yaws) r.push_back({o, {std::cos(y), std::sin(y), 0}, reach});
      scene.cast(r, kNoUserId, rays);
      for (std::size_t i = 0; i < yaws.size(); ++i) {
        ASSERT_EQ(fan[i].body, rays[i].body) << o.transpose() << " reach " << reach << " " << i;
        ASSERT_EQ(fan[i].distance, rays[i].distance) << o.transpose() << " " << i;
        solid_hits += fan[i].hit() && scene.user_id(fan[i].body) >= 2;
      }
    }
  }
  EXPECT_GT(solid_hits, 100);  // the cases that do meet the sphere or the cube met them
}

TEST(SceneSolidsErrors, BadInputIsRejectedWithAMessage) {
  Scene scene;
  EXPECT_THROW(scene.add_sphere({0, 0, NAN}, 1.0, false, 1), Error);
  EXPECT_THROW(scene.add_sphere({0, 0, 0}, 0.0, false, 1), Error);
  auto bad = std::make_shared<TriangleMesh>();
  bad->vertices = {{0, 0, 0}, {1, 0, 0}};
  bad->triangles = {{0, 1, 2}};
  try {
    scene.add_mesh(bad);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "scene: add_mesh: triangle 0 refers to vertex 2 of 2");
  }
  EXPECT_THROW(scene.add_mesh(std::make_shared<TriangleMesh>()), Error);
  EXPECT_THROW(scene.add_mesh_body(0, Eigen::Isometry3d::Identity(), false, 1), Error);
  const Scene::MeshId m = scene.add_mesh(cube_mesh());
  Eigen::Isometry3d scaled = Eigen::Isometry3d::Identity();
  scaled.linear() *= 2.0;
  EXPECT_THROW(scene.add_mesh_body(m, scaled, false, 1), Error);
  const BodyId s = scene.add_sphere({0, 0, 0}, 1.0, true, 1);
  const BodyId fixed = scene.add_mesh_body(m, Eigen::Isometry3d::Identity(), false, 2);
  EXPECT_THROW(scene.update_body(s, circle(0, 0, 1)), Error);
  EXPECT_THROW(scene.update_mesh_body(s, Eigen::Isometry3d::Identity()), Error);
  EXPECT_THROW(scene.update_mesh_body(fixed, Eigen::Isometry3d::Identity()), Error);
  EXPECT_THROW(scene.update_sphere(fixed, {0, 0, 0}), Error);
}

}  // namespace
}  // namespace ubot::scene
