// cast()'s coherent path (src/scene/coherent.cpp: runs of rays from one origin, culled in nested
// groups and tested exactly without Embree) against the Embree path (the same rays cast one at a
// time: a run of one) and against the exhaustive exact reference (scene_oracle.h), in random 3D
// scenes seen by random pinhole cameras: shapes of every kind at mixed heights, moving bodies,
// spheres, the ground, cameras inside shapes and below the ground, rays in 4 x 4 tiles or
// shuffled, unit or scaled directions, per-ray ranges.
//
// The coherent path must equal the reference bit for bit (distance, body, normal) on every ray,
// and the Embree path wherever the Embree path does (it can lose a hit its float traversal fails
// to propose: scene.h); such rays are counted and must stay rare. Where the coherent path does
// not apply (a mesh within reach, rays reaching beyond 1e5 m, mixed origins), cast() answers
// through Embree, as before.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <iostream>
#include <numbers>
#include <random>
#include <sstream>
#include <string>

#include "scene_oracle.h"
#include "ubot/core/error.h"
#include "ubot/core/triangle_mesh.h"
#include "ubot/scene/grid_caster.h"

namespace ubot::scene {
// Named (not anonymous): the unity build compiles this file with the other scene tests.
namespace coherent_test {

using testing::box;
using testing::cases;
using testing::circle;
using testing::polygon;
using testing::polyline;
using testing::Rng;
using testing::TestWorld;
using testing::with_z;

bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

bool same(const RayHit& a, const RayHit& b) {
  return a.body == b.body && same_bits(a.distance, b.distance) &&
         same_bits(a.normal.x(), b.normal.x()) && same_bits(a.normal.y(), b.normal.y()) &&
         same_bits(a.normal.z(), b.normal.z());
}

std::string describe(const RayHit& h) {
  std::ostringstream s;
  s.precision(17);
  s << "body " << h.body << " (user " << h.user_id << ") at " << h.distance << " normal "
    << h.normal.transpose();
  return s.str();
}

// A random shape around c: a circle, a turned box, a star-shaped polygon or a polyline, between
// random heights (sometimes unbounded).
BodyGeometry random_shape(Rng& rng, const Eigen::Vector2d& c) {
  const double size = rng.uniform(0.05, 1.5);
  BodyGeometry g;
  const double kind = rng.uniform(0, 1);
  if (kind < 0.3) {
    g = circle(c.x(), c.y(), size);
  } else if (kind < 0.6) {
    g = box(c.x(), c.y(), size, rng.uniform(0.05, 1.5), rng.angle());
  } else if (kind < 0.85) {
    const int n = 3 + static_cast<int>(rng.uniform(0, 7));
    std::vector<double> angles;
    for (int i = 0; i < n; ++i) angles.push_back(rng.angle());
    std::sort(angles.begin(), angles.end());
    std::vector<Eigen::Vector2d> v;
    for (double a : angles) {
      v.push_back(c + rng.uniform(0.3, 1.0) * size * Eigen::Vector2d(std::cos(a), std::sin(a)));
    }
    g = polygon(v);
  } else {
    std::vector<Eigen::Vector2d> v{c};
    for (int i = 0, n = 1 + static_cast<int>(rng.uniform(0, 4)); i < n; ++i) {
      v.push_back(v.back() + size * rng.unit2());
    }
    g = polyline(v);
  }
  if (rng.uniform(0, 1) < 0.8) {
    const double z0 = rng.uniform(-1.0, 1.5);
    g = with_z(g, z0, z0 + rng.uniform(0.1, 3.0));
  }
  return g;
}

// Random bodies within `spread` of `centre` (40% moving); body i has user id 100 + i.
void add_random_bodies(Rng& rng, const Eigen::Vector2d& centre, int count, double spread,
                       TestWorld* w) {
  for (int i = 0; i < count; ++i) {
    const Eigen::Vector2d c =
        centre + Eigen::Vector2d(rng.uniform(-spread, spread), rng.uniform(-spread, spread));
    w->add(random_shape(rng, c), rng.uniform(0, 1) < 0.4, 100 + i);
  }
  w->commit();
}

void move_dynamic(Rng& rng, double step, TestWorld* w) {
  for (std::size_t id = 0; id < w->bodies().size(); ++id) {
    if (!w->bodies()[id].dynamic) continue;
    BodyGeometry g = w->bodies()[id].geometry;
    const Eigen::Vector2d delta(rng.uniform(-step, step), rng.uniform(-step, step));
    g.center += delta;
    for (Eigen::Vector2d& v : g.vertices) v += delta;
    w->update(static_cast<BodyId>(id), g);
  }
  w->commit();
}

// The rays of a w x h pinhole camera at `o` turned by (roll, pitch, yaw), as Camera builds them
// (4 x 4 pixel tiles, optical z component 1) times `scale`; `spread`: ranges differ per ray;
// `shuffle`: in random order.
std::vector<Ray> camera_rays(Rng& rng, const Eigen::Vector3d& o, int w, int h, double max_distance,
                             bool spread, bool shuffle) {
  const Eigen::Matrix3d r = (Eigen::AngleAxisd(rng.angle(), Eigen::Vector3d::UnitZ()) *
                             Eigen::AngleAxisd(rng.uniform(-1.2, 1.2), Eigen::Vector3d::UnitY()) *
                             Eigen::AngleAxisd(rng.uniform(-0.5, 0.5), Eigen::Vector3d::UnitX()))
                                .toRotationMatrix();
  const double f = w / (2.0 * std::tan(rng.uniform(0.3, 1.4)));
  const double cx = (w - 1) / 2.0, cy = (h - 1) / 2.0;
  const double kind = rng.uniform(0, 1);
  std::vector<Ray> rays;
  for (int ty = 0; ty < h; ty += 4) {
    for (int tx = 0; tx < w; tx += 4) {
      for (int v = ty; v < std::min(h, ty + 4); ++v) {
        for (int u = tx; u < std::min(w, tx + 4); ++u) {
          Eigen::Vector3d d = r * Eigen::Vector3d(1.0, -(u - cx) / f, -(v - cy) / f);
          if (kind < 0.3) {
            d.normalize();
          } else if (kind < 0.5) {
            d *= 3.7;
          }
          rays.push_back({o, d, spread ? max_distance * rng.uniform(0.2, 1.0) : max_distance});
        }
      }
    }
  }
  if (shuffle) {
    std::shuffle(rays.begin(), rays.end(),
                 std::mt19937_64(static_cast<std::uint64_t>(rng.uniform(0, 1e9))));
  }
  return rays;
}

struct Stats {
  int rays = 0;
  int hits = 0;
  int embree_losses = 0;  // rays where the Embree path missed the reference's answer

  ~Stats() {
    std::cout << "  " << rays << " rays, " << hits << " hits, Embree path lost " << embree_losses
              << "\n";
  }
};

// Casts the rays at once (the coherent path), one at a time (Embree) and through the reference
// (when `oracle`); compares ray by ray.
void check_rays(const TestWorld& w, const std::vector<Ray>& rays, int ignore, bool oracle,
                const std::string& what, Stats* stats) {
  std::vector<RayHit> batch(rays.size());
  w.scene().cast(rays, ignore, batch);
  for (std::size_t i = 0; i < rays.size(); ++i) {
    const RayHit single = testing::cast_one(w.scene(), rays[i], ignore);
    if (oracle) {
      const RayHit exact = w.oracle(rays[i], ignore);
      ASSERT_TRUE(same(batch[i], exact))
          << what << " ray " << i << " origin " << rays[i].origin.transpose() << " direction "
          << rays[i].direction.transpose() << " range " << rays[i].max_distance << ": batch "
          << describe(batch[i]) << ", reference " << describe(exact) << ", Embree "
          << describe(single);
      if (!same(single, exact)) {
        ++stats->embree_losses;
        continue;
      }
    }
    ASSERT_TRUE(same(batch[i], single) && batch[i].user_id == single.user_id)
        << what << " ray " << i << " origin " << rays[i].origin.transpose() << " direction "
        << rays[i].direction.transpose() << ": batch " << describe(batch[i]) << ", Embree "
        << describe(single);
    stats->hits += batch[i].hit();
  }
  stats->rays += static_cast<int>(rays.size());
}

class SceneCoherentRandom : public ::testing::TestWithParam<Eigen::Vector2d> {};

TEST_P(SceneCoherentRandom, RandomScenesMatchEmbreeAndTheReference) {
  const Eigen::Vector2d centre = GetParam();
  Stats stats;
  // All twelve scenes even under the sanitizers (about 2 s there): one scene alone is too few
  // for the share of hits below, which guards that hits, not only misses, are compared.
  for (int scene = 0; scene < 12; ++scene) {
    Rng rng(1000 + scene);
    TestWorld w;
    add_random_bodies(rng, centre, 10 + static_cast<int>(rng.uniform(0, 50)), 12.0, &w);
    for (int round = 0; round < 3; ++round) {
      if (round > 0) move_dynamic(rng, 2.0, &w);
      for (int cam = 0; cam < 4; ++cam) {
        Eigen::Vector3d o(centre.x() + rng.uniform(-12, 12), centre.y() + rng.uniform(-12, 12),
                          rng.uniform(-1.5, 3.0));
        int ignore = kNoUserId;
        if (cam == 0) {  // on a body's centre or vertex, that body ignored half the time
          const std::size_t id = static_cast<std::size_t>(rng.uniform(0, 1) * w.bodies().size());
          const BodyGeometry& g = w.bodies()[id].geometry;
          const Eigen::Vector2d p = g.kind == ShapeKind::kCircle ? g.center : g.vertices[0];
          o = {p.x(), p.y(), rng.uniform(-1.5, 3.0)};
          if (rng.uniform(0, 1) < 0.5) ignore = w.bodies()[id].user_id;
        }
        const int width = 8 + static_cast<int>(rng.uniform(0, 60));
        const int height = 8 + static_cast<int>(rng.uniform(0, 40));
        const std::vector<Ray> rays =
            camera_rays(rng, o, width, height, rng.uniform(0.5, 40.0), cam == 2, cam == 3);
        check_rays(w, rays, ignore, true,
                   "scene " + std::to_string(scene) + " round " + std::to_string(round), &stats);
      }
    }
  }
  EXPECT_GT(stats.hits, stats.rays / 8);
  EXPECT_LT(stats.embree_losses, stats.rays / 10000 + 1);
}

// Near the world's origin, and 10 km from it (where the pads grow with the coordinates).
INSTANTIATE_TEST_SUITE_P(Centres, SceneCoherentRandom,
                         ::testing::Values(Eigen::Vector2d(0, 0), Eigen::Vector2d(1e4, -7e3)));

TEST(SceneCoherent, SpheresAndTheGroundMatchEmbree) {
  Stats stats;
  for (int scene = 0; scene < cases(8); ++scene) {
    Rng rng(2000 + scene);
    TestWorld w;
    add_random_bodies(rng, {0, 0}, 20, 10.0, &w);
    Scene& s = const_cast<Scene&>(w.scene());
    std::vector<BodyId> moving;
    for (int i = 0; i < 8; ++i) {
      const Eigen::Vector3d c(rng.uniform(-10, 10), rng.uniform(-10, 10), rng.uniform(-1, 2));
      const bool dynamic = i % 2 == 1;
      const BodyId id = s.add_sphere(c, rng.uniform(0.1, 1.5), dynamic, 500 + i);
      if (dynamic) moving.push_back(id);
    }
    s.set_ground(rng.uniform(-0.5, 0.5), -1);
    s.commit();
    for (int round = 0; round < 2; ++round) {
      if (round > 0) {
        for (BodyId id : moving) {
          s.update_sphere(id, {rng.uniform(-10, 10), rng.uniform(-10, 10), rng.uniform(-1, 2)});
        }
        s.commit();
      }
      for (int cam = 0; cam < 6; ++cam) {
        // Cameras above and below the ground (inside it: every ray hits at 0), one inside a
        // sphere's bounds.
        const Eigen::Vector3d o(rng.uniform(-10, 10), rng.uniform(-10, 10), rng.uniform(-1.0, 2.5));
        const int ignore = cam == 5 ? -1 : (cam == 4 ? 500 : kNoUserId);  // the ground, a sphere
        const std::vector<Ray> rays =
            camera_rays(rng, o, 40, 30, rng.uniform(1.0, 40.0), cam == 1, cam == 2);
        check_rays(w, rays, ignore, false,
                   "scene " + std::to_string(scene) + " camera " + std::to_string(cam), &stats);
      }
    }
  }
  EXPECT_GT(stats.hits, stats.rays / 2);
}

std::shared_ptr<TriangleMesh> cube_mesh() {
  auto m = std::make_shared<TriangleMesh>();
  for (int i = 0; i < 8; ++i) {
    m->vertices.emplace_back((i & 1) ? 0.5 : -0.5, (i & 2) ? 0.5 : -0.5, (i & 4) ? 0.5 : -0.5);
  }
  m->triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                  {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  return m;
}

TEST(SceneCoherent, WhereItDoesNotApplyEmbreeAnswers) {
  // A mesh within reach (not the ignored body's), rays reaching beyond 1e5 m or without a limit,
  // origins beyond 1e5 m, mixed origins and short runs: cast() answers as one ray at a time does.
  Rng rng(3000);
  TestWorld w;
  add_random_bodies(rng, {0, 0}, 30, 10.0, &w);
  Scene& s = const_cast<Scene&>(w.scene());
  Eigen::Isometry3d at = Eigen::Isometry3d::Identity();
  at.translation() = Eigen::Vector3d(3, 0, 0.5);
  s.add_mesh_body(s.add_mesh(cube_mesh()), at, false, 900);
  s.set_ground(0.0, -1);
  s.commit();
  Stats stats;
  for (const double range : {2.0, 8.0, 2e5, std::numeric_limits<double>::infinity()}) {
    for (const int ignore : {kNoUserId, 900}) {
      const std::vector<Ray> rays =
          camera_rays(rng, {0, 0, 0.5}, 48, 32, range, false, false);  // the mesh 2.5 m ahead
      check_rays(w, rays, ignore, false, "range " + std::to_string(range), &stats);
    }
  }
  // Far out: the path declines.
  check_rays(w, camera_rays(rng, {2e5, 0, 0.5}, 32, 32, 10.0, false, false), kNoUserId, false,
             "far out", &stats);
  // Runs of 1 to 200 rays from alternating origins, not aligned to packets.
  std::vector<Ray> mixed;
  for (int run = 0; run < 40; ++run) {
    const Eigen::Vector3d o(rng.uniform(-8, 8), rng.uniform(-8, 8), rng.uniform(0.1, 2.0));
    std::vector<Ray> r = camera_rays(rng, o, 16, 16, 15.0, false, false);
    r.resize(1 + static_cast<std::size_t>(rng.uniform(0, 200)) % r.size());
    mixed.insert(mixed.end(), r.begin(), r.end());
  }
  check_rays(w, mixed, kNoUserId, false, "mixed", &stats);
  EXPECT_GT(stats.hits, stats.rays / 4);
}

TEST(SceneCoherent, OccupancyGridsAreCastAfterwardsAsBefore) {
  Rng rng(4000);
  TestWorld w;
  add_random_bodies(rng, {0, 0}, 15, 8.0, &w);
  std::vector<std::uint8_t> occupied(40 * 40, 0);
  for (auto& cell : occupied) cell = rng.uniform(0, 1) < 0.05;
  Scene& s = const_cast<Scene&>(w.scene());
  s.set_grid(std::make_shared<const GridCaster>(40, 40, Eigen::Vector2d(-10, -10),
                                                Eigen::Vector2d(0.5, 0.5), occupied, 0.0, 1.0),
             -1);
  s.commit();
  Stats stats;
  for (int cam = 0; cam < 6; ++cam) {
    const Eigen::Vector3d o(rng.uniform(-9, 9), rng.uniform(-9, 9), rng.uniform(0.1, 1.5));
    check_rays(w, camera_rays(rng, o, 40, 24, 20.0, cam == 1, cam == 2), kNoUserId, false,
               "grid camera " + std::to_string(cam), &stats);
  }
  EXPECT_GT(stats.hits, stats.rays / 4);
}

TEST(SceneCoherent, BadRaysThrowWithTheirIndex) {
  TestWorld w;
  w.add(circle(3, 0, 1), false, 1);
  w.commit();
  Rng rng(5);
  std::vector<Ray> rays = camera_rays(rng, {0, 0, 0.5}, 16, 16, 10.0, false, false);
  std::vector<RayHit> out(rays.size());
  rays[100].direction = Eigen::Vector3d::Zero();
  rays[200].origin.x() = NAN;
  try {
    w.scene().cast(rays, kNoUserId, out);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ray 100 has a zero or huge direction"), std::string::npos)
        << e.what();
  }
  rays[100].direction = Eigen::Vector3d::UnitX();
  try {
    w.scene().cast(rays, kNoUserId, out);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ray 200 has a non-finite"), std::string::npos)
        << e.what();
  }
  // Rays are checked a chunk (4096) at a time as they are cast: a bad ray in a later chunk is
  // named as well.
  rays = camera_rays(rng, {0, 0, 0.5}, 128, 96, 10.0, false, false);
  out.resize(rays.size());
  rays[9000].max_distance = -1.0;
  try {
    w.scene().cast(rays, kNoUserId, out);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ray 9000 has a non-finite"), std::string::npos)
        << e.what();
  }
}

}  // namespace coherent_test
}  // namespace ubot::scene
