// The 2D fan path of cast_fan() against cast() of the same rays (Embree packets) and against an
// exhaustive exact reference (scene_oracle.h), in random scenes built to hit the edge cases:
// origins inside, on and next to shapes, beams through vertices, along walls and tangent to
// circles, max_distance exactly at a hit, mixed heights, moving bodies, 10 km from the origin,
// unsorted and noisy yaws.
//
// The fan must equal the reference bit for bit (distance, body, normal) on every beam, and so
// equal cast() wherever cast() does. cast() can lose a hit that Embree's single precision fails
// to propose (a beam starting on a wall at grazing incidence, below ~ulp / pad radians); such
// beams are counted and must stay rare.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <iostream>
#include <numbers>
#include <sstream>
#include <string>
#include <thread>

#include "scene_oracle.h"
#include "ubot/core/angles.h"
#include "ubot/core/error.h"
#include "ubot/core/numbers.h"

namespace ubot::scene {
namespace {

using testing::box;
using testing::cases;
using testing::circle;
using testing::kCaseDivisor;
using testing::polygon;
using testing::polyline;
using testing::Rng;
using testing::TestWorld;
using testing::with_z;

std::vector<Ray> fan_rays(const Eigen::Vector3d& o, const std::vector<double>& yaws,
                          double max_distance) {
  std::vector<Ray> rays;
  for (const double yaw : yaws) {
    rays.push_back({o, {std::cos(yaw), std::sin(yaw), 0.0}, max_distance});
  }
  return rays;
}

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
  s << "body " << h.body << " at " << h.distance << " normal " << h.normal.transpose();
  return s.str();
}

struct FanStats {
  int beams = 0;
  int hits = 0;
  int ray_losses = 0;  // beams where cast() missed the reference's answer

  ~FanStats() {
    std::cout << "  " << beams << " beams, " << hits << " hits, cast() lost " << ray_losses << "\n";
  }
};

// A cast_fan_hits() answer against the dense one of the same beams: exactly the hits (without
// normals) and their bits, every other entry of `sparse` as `untouched()` left it.
RayHit untouched() {
  RayHit h;
  h.distance = -7.0;
  h.user_id = -7;
  return h;
}

void check_hits_form(const std::vector<RayHit>& dense, const std::vector<RayHit>& sparse,
                     const std::vector<std::uint64_t>& bits, const std::string& what) {
  for (std::size_t i = 0; i < dense.size(); ++i) {
    const bool bit = (bits[i / 64] >> (i % 64) & 1) != 0;
    ASSERT_EQ(bit, dense[i].hit()) << what << " beam " << i;
    if (bit) {
      RayHit without_normal = dense[i];
      without_normal.normal.setZero();  // the hits form computes none
      ASSERT_TRUE(same(sparse[i], without_normal)) << what << " beam " << i;
      ASSERT_EQ(sparse[i].user_id, dense[i].user_id) << what << " beam " << i;
    } else {
      ASSERT_EQ(sparse[i].distance, -7.0) << what << " beam " << i << " was written";
    }
  }
  for (std::size_t i = dense.size(); i < 64 * bits.size(); ++i) {
    ASSERT_EQ(bits[i / 64] >> (i % 64) & 1, 0u) << what << ": bit past the beams";
  }
}

// Casts a FanTable's fan at `heading` both ways (cast_fan(), cast_fan_hits()), the same rays
// (the table's directions) through cast(), and the reference; compares beam by beam.
void check_table_fan(const TestWorld& w, const Eigen::Vector3d& o, double heading,
                     const FanTable& table, double max_distance, int ignore,
                     const std::string& what, FanStats* stats) {
  const std::size_t n = table.size();
  std::vector<RayHit> fan(n), rays(n), sparse(n, untouched());
  std::vector<std::uint64_t> bits((n + 63) / 64, ~std::uint64_t{0});
  w.scene().cast_fan(o, heading, table, max_distance, ignore, fan);
  w.scene().cast_fan_hits(o, heading, table, max_distance, ignore, sparse, bits);
  std::vector<Ray> beams;
  const FanTable::Heading h = FanTable::heading(heading);
  for (std::size_t i = 0; i < n; ++i) beams.push_back({o, table.direction(h, i), max_distance});
  w.scene().cast(beams, ignore, rays);
  for (std::size_t i = 0; i < n; ++i) {
    const RayHit exact = w.oracle(beams[i], ignore);
    ASSERT_TRUE(same(fan[i], exact))
        << what << " table beam " << i << " angle " << table.angles()[i] << " heading " << heading
        << " origin " << o.transpose() << " range " << max_distance << ": fan " << describe(fan[i])
        << ", reference " << describe(exact) << ", cast() " << describe(rays[i]);
    stats->ray_losses += !same(rays[i], exact);
    stats->hits += fan[i].hit();
  }
  check_hits_form(fan, sparse, bits, what + " table");
  stats->beams += static_cast<int>(n);
}

// Casts the fan, the same rays through cast(), and the reference; compares beam by beam.
void check_fan(const TestWorld& w, const Eigen::Vector3d& o, const std::vector<double>& yaws,
               double max_distance, int ignore, const std::string& what, FanStats* stats) {
  std::vector<RayHit> fan(yaws.size()), rays(yaws.size()), sparse(yaws.size(), untouched());
  std::vector<std::uint64_t> bits((yaws.size() + 63) / 64, ~std::uint64_t{0});
  w.scene().cast_fan(o, yaws, max_distance, ignore, fan);
  w.scene().cast_fan_hits(o, yaws, max_distance, ignore, sparse, bits);
  const std::vector<Ray> beams = fan_rays(o, yaws, max_distance);
  w.scene().cast(beams, ignore, rays);
  for (std::size_t i = 0; i < yaws.size(); ++i) {
    const RayHit exact = w.oracle(beams[i], ignore);
    ASSERT_TRUE(same(fan[i], exact))
        << what << " beam " << i << " yaw " << yaws[i] << " origin " << o.transpose() << " range "
        << max_distance << ": fan " << describe(fan[i]) << ", reference " << describe(exact)
        << ", cast() " << describe(rays[i]);
    stats->ray_losses += !same(rays[i], exact);
    stats->hits += fan[i].hit();
  }
  check_hits_form(fan, sparse, bits, what);
  stats->beams += static_cast<int>(yaws.size());
}

// A star-shaped polygon, usually non-convex.
BodyGeometry star(Rng& rng, const Eigen::Vector2d& c, double size) {
  const int n = 3 + static_cast<int>(rng.uniform(0, 8));
  std::vector<double> angles;
  for (int i = 0; i < n; ++i) angles.push_back(rng.angle());
  std::sort(angles.begin(), angles.end());
  std::vector<Eigen::Vector2d> v;
  for (const double a : angles) {
    v.push_back(c + rng.uniform(0.2, 1.0) * size * Eigen::Vector2d(std::cos(a), std::sin(a)));
  }
  return polygon(v);
}

BodyGeometry random_shape(Rng& rng, const Eigen::Vector2d& c) {
  const double size = rng.uniform(0.1, 2.5);
  BodyGeometry g;
  switch (static_cast<int>(rng.uniform(0, 4))) {
    case 0:
      g = circle(c.x(), c.y(), size);
      break;
    case 1:
      g = box(c.x(), c.y(), size, rng.uniform(0.05, 2.0), rng.angle());
      break;
    case 2:
      g = star(rng, c, size);
      break;
    default: {
      std::vector<Eigen::Vector2d> v{c};
      const int n = 1 + static_cast<int>(rng.uniform(0, 4));
      for (int i = 0; i < n; ++i) v.push_back(v.back() + rng.uniform(0.0, 3.0) * rng.unit2());
      g = polyline(v);
    }
  }
  // Heights: mostly unbounded, some above or below the scan plane, some ending exactly on it.
  switch (static_cast<int>(rng.uniform(0, 6))) {
    case 0:
      return with_z(g, 0.5, 2.0);
    case 1:
      return with_z(g, -2.0, -0.5);
    case 2:
      return with_z(g, 0.0, 1.0);
    case 3:
      return with_z(g, -1.0, 0.0);
    default:
      return g;
  }
}

// Points worth starting a fan from: random, inside or on bodies, at vertices, on wall lines.
Eigen::Vector2d special_origin(Rng& rng, const std::vector<BodyGeometry>& shapes,
                               const Eigen::Vector2d& centre, double spread) {
  const BodyGeometry& g = shapes[static_cast<std::size_t>(rng.uniform(0, shapes.size()))];
  const int pick = static_cast<int>(rng.uniform(0, 6));
  if (g.kind == ShapeKind::kCircle) {
    const Eigen::Vector2d u = rng.unit2();
    if (pick == 0) return g.center;
    if (pick == 1) return g.center + g.radius * u;  // on the circle (rounded)
    if (pick == 2) return g.center + g.radius * (1 + 1e-12) * u;
  } else {
    const std::size_t n = g.vertices.size();
    const std::size_t k = static_cast<std::size_t>(rng.uniform(0, n));
    const Eigen::Vector2d a = g.vertices[k], b = g.vertices[(k + 1) % n];
    if (pick == 0) return a;                                 // a vertex
    if (pick == 1) return a + rng.uniform(0, 1) * (b - a);   // on an edge (rounded)
    if (pick == 2) return a + rng.uniform(-3, 4) * (b - a);  // on the edge's line
    if (pick == 3) return 0.5 * (a + b) + 0.1 * (b - a).norm() * rng.unit2();
  }
  return centre + Eigen::Vector2d(rng.uniform(-spread, spread), rng.uniform(-spread, spread));
}

// Yaws of a lidar: evenly spread over a sector or the full circle, in scan order.
std::vector<double> scan_yaws(Rng& rng, int n) {
  const double heading = rng.uniform(-20.0, 20.0);
  const double range = rng.uniform(0, 1) < 0.5 ? 2 * kPi : rng.uniform(0.1, 2 * kPi);
  std::vector<double> yaws;
  for (int i = 0; i < n; ++i) yaws.push_back(heading - range / 2 + i * range / std::max(n - 1, 1));
  return yaws;
}

// Beams aimed exactly at vertices, along edges and tangent to circles, shuffled in.
void add_aimed_yaws(Rng& rng, const std::vector<BodyGeometry>& shapes, const Eigen::Vector2d& o,
                    std::vector<double>* yaws) {
  for (const BodyGeometry& g : shapes) {
    if (g.kind == ShapeKind::kCircle) {
      const Eigen::Vector2d d = g.center - o;
      const double bearing = std::atan2(d.y(), d.x());
      const double ratio = g.radius / d.norm();
      if (ratio < 1) {
        yaws->push_back(bearing + std::asin(ratio));
        yaws->push_back(bearing - std::asin(ratio));
      }
      continue;
    }
    for (std::size_t k = 0; k < g.vertices.size(); ++k) {
      const Eigen::Vector2d a = g.vertices[k] - o;
      const Eigen::Vector2d e = g.vertices[(k + 1) % g.vertices.size()] - g.vertices[k];
      yaws->push_back(std::atan2(a.y(), a.x()));
      yaws->push_back(std::atan2(e.y(), e.x()));
      yaws->push_back(std::nextafter(std::atan2(a.y(), a.x()), 10.0));
    }
  }
  std::shuffle(yaws->begin(), yaws->end(),
               std::mt19937_64(static_cast<std::uint64_t>(rng.uniform(0, 1e9))));
}

// Random bodies around `centre`; 40% of them move. Body i has user id 100 + i.
void add_random_bodies(Rng& rng, const Eigen::Vector2d& centre, int count, double spread,
                       TestWorld* w) {
  for (int i = 0; i < count; ++i) {
    const Eigen::Vector2d c =
        centre + Eigen::Vector2d(rng.uniform(-spread, spread), rng.uniform(-spread, spread));
    w->add(random_shape(rng, c), rng.uniform(0, 1) < 0.4, 100 + i);
  }
  w->commit();
}

// Moves every dynamic body by up to `step` (same kind and vertex count), then commits.
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

std::vector<BodyGeometry> shapes_of(const TestWorld& w) {
  std::vector<BodyGeometry> shapes;
  for (const auto& b : w.bodies()) shapes.push_back(b.geometry);
  return shapes;
}

class SceneFan : public ::testing::TestWithParam<Eigen::Vector2d> {};

TEST_P(SceneFan, RandomScenesMatchTheReference) {
  const Eigen::Vector2d centre = GetParam();
  Rng rng(71);
  FanStats stats;
  for (int world = 0; world < 6; ++world) {  // every kind of world, also when sanitized
    TestWorld w;
    const double spread = world % 2 == 0 ? 8.0 : 30.0;
    add_random_bodies(rng, centre, 40 + 20 * world, spread, &w);
    for (int trial = 0; trial < cases(40); ++trial) {
      if (trial % 5 == 4) move_dynamic(rng, trial % 10 == 9 ? 50.0 : 0.5, &w);
      const std::vector<BodyGeometry> shapes = shapes_of(w);
      const Eigen::Vector2d o = special_origin(rng, shapes, centre, spread);
      const double z = trial % 7 == 0 ? 1.0 : trial % 7 == 1 ? -1.0 : 0.0;
      std::vector<double> yaws = scan_yaws(rng, 1 + static_cast<int>(rng.uniform(0, 400)));
      if (trial % 3 == 0) add_aimed_yaws(rng, shapes, o, &yaws);
      const double range = trial % 4 == 0 ? kInf : rng.uniform(0.0, 15.0);
      const int ignore = trial % 2 == 0 ? kNoUserId : 100 + static_cast<int>(rng.uniform(0, 40));
      check_fan(w, {o.x(), o.y(), z}, yaws, range, ignore,
                "world " + std::to_string(world) + " trial " + std::to_string(trial), &stats);
      if (HasFatalFailure()) return;
      // The same beams as a lidar's fixed pattern turned by a heading.
      const double heading = rng.uniform(-20.0, 20.0);
      std::vector<double> angles;
      for (const double yaw : yaws) angles.push_back(yaw - heading);
      check_table_fan(w, {o.x(), o.y(), z}, heading, FanTable(angles), range, ignore,
                      "world " + std::to_string(world) + " trial " + std::to_string(trial), &stats);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(stats.hits, 10000 / kCaseDivisor);
  EXPECT_LT(stats.ray_losses, stats.beams / 500);
}

// Worlds of a few static shapes take every one as a candidate instead of Embree's point query
// (fan.cpp); far ones, ones above or below the scan and the ignored body must drop out the same.
TEST_P(SceneFan, FewStaticShapesMatchTheReference) {
  const Eigen::Vector2d centre = GetParam();
  Rng rng(77);
  FanStats stats;
  for (int world = 0; world < cases(30); ++world) {
    TestWorld w;
    const double spread = world % 3 == 0 ? 30.0 : 6.0;
    const int count = 1 + world % 5;
    for (int i = 0; i < count; ++i) {
      const Eigen::Vector2d c =
          centre + Eigen::Vector2d(rng.uniform(-spread, spread), rng.uniform(-spread, spread));
      w.add(random_shape(rng, c), i == 0 && world % 2 == 1, 100 + i);
    }
    w.commit();
    const std::vector<BodyGeometry> shapes = shapes_of(w);
    for (int trial = 0; trial < 8; ++trial) {
      const Eigen::Vector2d o = special_origin(rng, shapes, centre, spread);
      const double z = trial % 5 == 0 ? 1.0 : 0.0;
      const double range = trial % 3 == 0 ? kInf : rng.uniform(0.5, 12.0);
      const int ignore = trial % 4 == 1 ? 100 + static_cast<int>(rng.uniform(0, count)) : kNoUserId;
      const std::string what = "world " + std::to_string(world) + " trial " + std::to_string(trial);
      check_fan(w, {o.x(), o.y(), z}, scan_yaws(rng, 200), range, ignore, what, &stats);
      if (HasFatalFailure()) return;
      check_table_fan(w, {o.x(), o.y(), z}, rng.uniform(-4.0, 4.0),
                      FanTable(scan_angles(6.283185307179586, 360)), range, ignore, what, &stats);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(stats.hits, 5000 / kCaseDivisor);
}

TEST_P(SceneFan, MaxDistanceExactlyAtAHitIsInclusive) {
  const Eigen::Vector2d centre = GetParam();
  Rng rng(72);
  TestWorld w;
  add_random_bodies(rng, centre, 60, 10.0, &w);
  FanStats stats;
  for (int trial = 0; trial < cases(40); ++trial) {
    const Eigen::Vector3d o(centre.x() + rng.uniform(-10, 10), centre.y() + rng.uniform(-10, 10),
                            0.0);
    const std::vector<double> yaws = scan_yaws(rng, 180);
    std::vector<RayHit> out(yaws.size());
    w.scene().cast_fan(o, yaws, kInf, kNoUserId, out);
    for (std::size_t i = 0; i < out.size(); i += 17) {
      if (!out[i].hit()) continue;
      for (const double range : {out[i].distance, std::nextafter(out[i].distance, 0.0)}) {
        check_fan(w, o, yaws, range, kNoUserId, "trial " + std::to_string(trial), &stats);
        if (HasFatalFailure()) return;
      }
    }
    // A table's fan, at exactly its own hits' distances.
    const FanTable table(scan_angles(rng.uniform(0.1, 2 * kPi), 180));
    const double heading = rng.uniform(-kPi, kPi);
    check_table_fan(w, o, heading, table, kInf, kNoUserId, "table", &stats);
    if (HasFatalFailure()) return;
    std::vector<RayHit> table_out(table.size());
    w.scene().cast_fan(o, heading, table, kInf, kNoUserId, table_out);
    for (std::size_t i = 0; i < table_out.size(); i += 17) {
      if (!table_out[i].hit()) continue;
      for (const double range :
           {table_out[i].distance, std::nextafter(table_out[i].distance, 0.0)}) {
        check_table_fan(w, o, heading, table, range, kNoUserId,
                        "table trial " + std::to_string(trial), &stats);
        if (HasFatalFailure()) return;
      }
    }
  }
  EXPECT_LT(stats.ray_losses, stats.beams / 500);
}

TEST_P(SceneFan, NoisyUnsortedYawsMatchTheReference) {
  const Eigen::Vector2d centre = GetParam();
  Rng rng(73);
  TestWorld w;
  add_random_bodies(rng, centre, 80, 12.0, &w);
  const std::vector<BodyGeometry> shapes = shapes_of(w);
  FanStats stats;
  for (int trial = 0; trial < cases(60); ++trial) {
    const Eigen::Vector2d o = special_origin(rng, shapes, centre, 12.0);
    std::vector<double> yaws = scan_yaws(rng, 360);
    const double noise = trial % 3 == 0 ? 0.001 : trial % 3 == 1 ? 0.05 : 3.0;
    for (double& yaw : yaws) yaw += rng.uniform(-noise, noise);
    if (trial % 2 == 0) std::reverse(yaws.begin(), yaws.end());
    check_fan(w, {o.x(), o.y(), 0.0}, yaws, rng.uniform(1, 20), kNoUserId,
              "trial " + std::to_string(trial), &stats);
    if (HasFatalFailure()) return;
  }
  EXPECT_LT(stats.ray_losses, stats.beams / 500);
}

INSTANTIATE_TEST_SUITE_P(Offsets, SceneFan,
                         ::testing::Values(Eigen::Vector2d(0, 0), Eigen::Vector2d(1e4, 1e4),
                                           Eigen::Vector2d(-1e4, 7e3)));

// Hand-made degenerate cases: origins on a wall's line and at its ends, on a circle, at a
// polygon's reflex corner, beams along walls and axes, a zero-length wall, max_distance 0.
TEST(SceneFan, DegenerateGeometryMatchesTheReference) {
  TestWorld w;
  w.add(polyline({{0, 0}, {4, 0}, {4, 0}, {4, 3}}), false, 1);
  w.add(box(10, 0, 1, 1), false, 2);
  w.add(circle(0, 10, 2), true, 3);
  w.add(polygon({{-10, -10}, {-6, -10}, {-8, -8}, {-6, -6}, {-10, -6}}), true, 4);
  w.commit();
  std::vector<double> yaws;
  for (int i = 0; i < 720; ++i) yaws.push_back(-kPi + i * kPi / 360);
  // Beams along the axes and diagonals, and within 1e-20 rad and one ulp of them. (Yaws whose
  // sine underflows single precision are left out: Embree sees those rays as axis-parallel.)
  for (const double y : {0.0, kPi / 2, kPi, -kPi / 2, kPi / 4, 3 * kPi / 4, -kPi / 4}) {
    for (const double d : {0.0, 1e-20, -1e-20}) yaws.push_back(y + d);
    if (y != 0.0) {
      yaws.push_back(std::nextafter(y, 10.0));
      yaws.push_back(std::nextafter(y, -10.0));
    }
  }
  const std::vector<Eigen::Vector2d> origins{
      {-3, 0},  {0, 0},     {2, 0},   {4, 0},   {6, 0},    {4, -2},     {4, 5},        {9, 0},
      {9, 1},   {11, 1},    {10, 0},  {0, 8},   {0, 12},   {2, 10},     {0, 10},       {-8, -8},
      {-9, -9}, {-10, -10}, {-7, -8}, {-6, -8}, {-12, -8}, {1e-300, 0}, {-1e-9, 1e-17}};
  FanStats stats;
  for (const Eigen::Vector2d& o : origins) {
    for (const double range : {0.0, 1.0, 2.0, 6.0, kInf}) {
      check_fan(w, {o.x(), o.y(), 0.0}, yaws, range, kNoUserId,
                "origin " + std::to_string(o.x()) + "," + std::to_string(o.y()), &stats);
      if (HasFatalFailure()) return;
      for (const double heading : {0.0, kPi / 2, -kPi, 1e-20}) {
        check_table_fan(w, {o.x(), o.y(), 0.0}, heading, FanTable(yaws), range, kNoUserId,
                        "table, origin " + std::to_string(o.x()) + "," + std::to_string(o.y()),
                        &stats);
        if (HasFatalFailure()) return;
      }
    }
  }
}

// Many small moving bodies (the scale benchmark's shape) and some long ones, several commits
// without a ray cast in between (Embree's BVHs are then rebuilt on demand).
TEST(SceneFan, DenseMovingCrowdMatchesTheReference) {
  Rng rng(74);
  TestWorld w;
  for (int i = 0; i < 600; ++i) {
    const Eigen::Vector2d c(rng.uniform(0, 60), rng.uniform(0, 60));
    w.add(i % 50 == 0 ? box(c.x(), c.y(), 15, 0.2, rng.angle()) : circle(c.x(), c.y(), 0.3), true,
          i);
  }
  w.commit();
  const std::vector<double> yaws = scan_yaws(rng, 360);
  FanStats stats;
  for (int step = 0; step < 30; ++step) {
    move_dynamic(rng, 0.3, &w);
    if (step % 3 != 2) continue;
    for (int k = 0; k < cases(10); ++k) {
      const int robot = static_cast<int>(rng.uniform(0, 600));
      const BodyGeometry& g = w.geometry(robot);
      const Eigen::Vector2d o = g.kind == ShapeKind::kCircle ? g.center : g.vertices[0];
      check_fan(w, {o.x(), o.y(), 0.0}, yaws, 10.0, robot, "step " + std::to_string(step), &stats);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_EQ(stats.ray_losses, 0);
}

TEST(SceneFan, ConcurrentFansMatchSerialFans) {
  Rng rng(75);
  TestWorld w;
  add_random_bodies(rng, {0, 0}, 150, 20.0, &w);
  std::vector<Eigen::Vector3d> origins;
  std::vector<std::vector<double>> yaws;
  for (int i = 0; i < 200; ++i) {
    origins.emplace_back(rng.uniform(-20, 20), rng.uniform(-20, 20), 0.0);
    yaws.push_back(scan_yaws(rng, 100 + i));
  }
  auto run = [&](std::vector<std::vector<RayHit>>* out) {
    for (std::size_t i = 0; i < origins.size(); ++i) {
      (*out)[i].resize(yaws[i].size());
      w.scene().cast_fan(origins[i], yaws[i], 12.0, kNoUserId, (*out)[i]);
    }
  };
  std::vector<std::vector<RayHit>> serial(origins.size()), a(origins.size()), b(origins.size());
  run(&serial);
  move_dynamic(rng, 0.0, &w);  // a commit: the next ray casts rebuild Embree, concurrently
  std::vector<RayHit> ray_hits(yaws[0].size());
  std::thread ta([&] { run(&a); });
  std::thread tb([&] {
    w.scene().cast(fan_rays(origins[0], yaws[0], 12.0), kNoUserId, ray_hits);
    run(&b);
  });
  std::thread tc([&] { w.scene().cast(fan_rays(origins[0], yaws[0], 12.0), kNoUserId, ray_hits); });
  ta.join();
  tb.join();
  tc.join();
  for (std::size_t i = 0; i < origins.size(); ++i) {
    for (std::size_t k = 0; k < yaws[i].size(); ++k) {
      ASSERT_TRUE(same(a[i][k], serial[i][k])) << i << " " << k;
      ASSERT_TRUE(same(b[i][k], serial[i][k])) << i << " " << k;
    }
  }
}

TEST(SceneFan, HugeYawsTakeTheRayPath) {
  Rng rng(76);
  TestWorld w;
  add_random_bodies(rng, {0, 0}, 40, 10.0, &w);
  std::vector<double> yaws = scan_yaws(rng, 90);
  for (double& yaw : yaws) yaw += 2 * kPi * 1e5;  // beyond the fan path's pads
  FanStats stats;
  check_fan(w, {1, 2, 0}, yaws, 8.0, kNoUserId, "huge yaws", &stats);
  check_table_fan(w, {1, 2, 0}, 2 * kPi * 1e5, FanTable(scan_yaws(rng, 90)), 8.0, kNoUserId,
                  "huge heading", &stats);
  EXPECT_EQ(stats.ray_losses, 0);  // the fans went through cast()'s path
}

TEST(SceneFan, EmptyFanAndEmptyScene) {
  Scene scene;
  scene.commit();
  std::vector<RayHit> out;
  scene.cast_fan({0, 0, 0}, {}, 10.0, kNoUserId, out);
  const double yaw = 1.0;
  RayHit hit;
  scene.cast_fan({0, 0, 0}, {&yaw, 1}, kInf, kNoUserId, {&hit, 1});
  EXPECT_FALSE(hit.hit());
  const FanTable none(std::vector<double>{});
  scene.cast_fan({0, 0, 0}, 1.0, none, 10.0, kNoUserId, out);
  scene.cast_fan_hits({0, 0, 0}, 1.0, none, 10.0, kNoUserId, out, {});
  const FanTable one(std::vector<double>{0.5});
  std::uint64_t bits = 1;
  scene.cast_fan_hits({0, 0, 0}, 1.0, one, 10.0, kNoUserId, {&hit, 1}, {&bits, 1});
  EXPECT_EQ(bits, 0u);
}

TEST(SceneFan, NewFormsRefuseBadInput) {
  Scene scene;
  scene.commit();
  const FanTable table(std::vector<double>{0.0, 1.0});
  std::vector<RayHit> out(2), short_out(1);
  std::uint64_t bits = 0;
  EXPECT_THROW(scene.cast_fan({0, 0, 0}, kInf, table, 10.0, kNoUserId, out), Error);
  EXPECT_THROW(scene.cast_fan({0, 0, 0}, 0.0, table, 10.0, kNoUserId, short_out), Error);
  EXPECT_THROW(scene.cast_fan_hits({0, 0, 0}, 0.0, table, 10.0, kNoUserId, out, {}), Error);
  EXPECT_THROW(
      scene.cast_fan_hits({0, 0, 0}, std::nan(""), table, 10.0, kNoUserId, out, {&bits, 1}), Error);
  const std::vector<double> yaws{0.0, 1.0}, bad_yaws{0.0, std::nan("")};
  EXPECT_THROW(scene.cast_fan_hits({0, 0, 0}, yaws, 10.0, kNoUserId, out, {}), Error);
  EXPECT_THROW(scene.cast_fan_hits({0, 0, 0}, bad_yaws, 10.0, kNoUserId, out, {&bits, 1}), Error);
  EXPECT_THROW(scene.cast_fan_hits({0, 0, 0}, yaws, 10.0, kNoUserId, short_out, {&bits, 1}), Error);
  EXPECT_THROW(FanTable(std::vector<double>{0.0, kInf}), Error);
}

}  // namespace
}  // namespace ubot::scene
