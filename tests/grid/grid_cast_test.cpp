// Ray casting on grid maps: analytic ranges to cell edges, corners, 3D cell extents, the DDA's
// jumps against the plain walk, and the DDA against merged cell rectangles in the Embree scene.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "ubot/config/grid_map.h"
#include "ubot/core/angles.h"
#include "ubot/core/numbers.h"
#include "ubot/scene/grid_caster.h"
#include "ubot/scene/scene.h"

namespace ubot {
namespace {

using scene::GridCaster;

// 10 x 10 cells of 0.5 m from (-2, 1): the column i = 7 (x in [1.5, 2]) for j >= 2, and the
// single cell (2, 8).
GridMap known_grid() {
  GridMap g;
  g.nx = g.ny = 10;
  g.origin = {-2.0, 1.0};
  g.cell = {0.5, 0.5};
  g.occupancy.assign(100, 0.0f);
  for (int j = 2; j < 10; ++j) g.occupancy[7 * 10 + j] = 100.0f;
  g.occupancy[2 * 10 + 8] = 80.0f;
  return g;
}

GridCaster caster_of(const GridMap& g, int max_jump = 255, double z_min = -kInf,
                     double z_max = kInf) {
  return GridCaster(g.nx, g.ny, g.origin, g.cell, g.occupied_rows(), z_min, z_max, max_jump);
}

TEST(GridCast, BeamsEndOnCellEdges) {
  const GridMap g = known_grid();
  const GridCaster c = caster_of(g);
  const Eigen::Vector3d o(0.25, 3.3, 0.0);
  // +x: the column's left edge x = 1.5.
  scene::GridHit h = c.cast_yaw(o, 0.0, 10.0);
  EXPECT_DOUBLE_EQ(h.distance, 1.25);
  EXPECT_EQ(h.normal, Eigen::Vector3d(-1, 0, 0));
  // 30 degrees up: x = 1.5 at t = 1.25 / cos 30, y = 3.3 + t / 2 = 4.02 (inside the column).
  h = c.cast_yaw(o, kPi / 6, 10.0);
  EXPECT_NEAR(h.distance, 1.25 / std::cos(kPi / 6), 1e-15);
  // Straight up, x = 0.25 in column 4: nothing (cell (2, 8) is at x in [-1, -0.5]).
  EXPECT_FALSE(c.cast_yaw(o, kPi / 2, 10.0).hit());
  // From (-0.75, 1.2) up into cell (2, 8): its bottom edge y = 5.
  h = c.cast({-0.75, 1.2, 0.0}, {0, 1, 0}, 10.0);
  EXPECT_DOUBLE_EQ(h.distance, 3.8);
  EXPECT_EQ(h.normal, Eigen::Vector3d(0, -1, 0));
  // Range limits: the column lies beyond a 1.2 m range; exactly at 1.25 it is hit.
  EXPECT_FALSE(c.cast_yaw(o, 0.0, 1.2).hit());
  EXPECT_DOUBLE_EQ(c.cast_yaw(o, 0.0, 1.25).distance, 1.25);
  // From outside the grid (x = -5) along +x at y = 5.25: enters, crosses cell (2, 8) at x = -1.
  EXPECT_DOUBLE_EQ(c.cast({-5.0, 5.25, 0.0}, {1, 0, 0}, 10.0).distance, 4.0);
  // Starting inside an occupied cell: distance 0, no normal.
  h = c.cast({1.75, 3.0, 0.0}, {-1, 0, 0}, 10.0);
  EXPECT_EQ(h.distance, 0.0);
  EXPECT_EQ(h.normal, Eigen::Vector3d::Zero());
  // Non-unit directions report distances in units of |direction|.
  EXPECT_DOUBLE_EQ(c.cast(o, {2, 0, 0}, 10.0).distance, 0.625);
}

TEST(GridCast, CornersOfOccupiedCellsAreHit) {
  const GridMap g = known_grid();
  const GridCaster c = caster_of(g);
  // The column's bottom-left corner is (1.5, 2). A ray from (2.5, 1) up and to the left crosses
  // the free cells (8, 0), (7, 1), passes through that corner at t = sqrt 2 into the free cell
  // (6, 2): it only touches the occupied (7, 2) there, and a closed square counts as hit.
  const scene::GridHit h = c.cast({2.5, 1.0, 0.0}, {-std::sqrt(0.5), std::sqrt(0.5), 0.0}, 10.0);
  EXPECT_NEAR(h.distance, std::sqrt(2.0), 1e-15);
  // With (7, 2) free, the same ray passes on.
  GridMap open = g;
  open.occupancy[7 * 10 + 2] = 0.0f;
  EXPECT_FALSE(
      caster_of(open).cast({2.5, 1.0, 0.0}, {-std::sqrt(0.5), std::sqrt(0.5), 0.0}, 1.5).hit());
}

TEST(GridCast, CellsHaveAVerticalExtentIn3d) {
  const GridMap g = known_grid();
  const GridCaster c = caster_of(g, 255, 0.0, 1.0);
  // Over the top (z = 1.5) nothing; at z = 0.5 the wall.
  EXPECT_FALSE(c.cast({0.25, 3.3, 1.5}, {1, 0, 0}, 10.0).hit());
  EXPECT_DOUBLE_EQ(c.cast({0.25, 3.3, 0.5}, {1, 0, 0}, 10.0).distance, 1.25);
  // Down onto the column's top (x = 1.75): from z = 3, straight down: 2 m, normal +z.
  scene::GridHit h = c.cast({1.75, 3.3, 3.0}, {0, 0, -1}, 10.0);
  EXPECT_DOUBLE_EQ(h.distance, 2.0);
  EXPECT_EQ(h.normal, Eigen::Vector3d(0, 0, 1));
  // Sloping down from z 2: z(t) = 2 - t / sqrt 2, x(t) = 0.25 + t / sqrt 2; at x = 1.5 z = 0.75:
  // the wall face.
  h = c.cast({0.25, 3.3, 2.0}, {std::sqrt(0.5), 0.0, -std::sqrt(0.5)}, 10.0);
  EXPECT_NEAR(h.distance, 1.25 * std::sqrt(2.0), 1e-14);
  EXPECT_EQ(h.normal, Eigen::Vector3d(-1, 0, 0));
  // From z 4: over x = 1.5 at z = 2.75, over the top until z = 1 at x = 3.25 (beyond x = 2).
  EXPECT_FALSE(c.cast({0.25, 3.3, 4.0}, {std::sqrt(0.5), 0.0, -std::sqrt(0.5)}, 10.0).hit());
}

// A random grid with both casters and the Scene holding the same cells as merged rectangles.
struct RandomGrid {
  GridMap grid;
  explicit RandomGrid(unsigned seed, double fill) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    grid.nx = 60;
    grid.ny = 45;
    grid.origin = {-3.0, 2.0};
    grid.cell = {0.25, 0.2};
    for (int k = 0; k < grid.nx * grid.ny; ++k) grid.occupancy.push_back(u(rng) < fill ? 100 : 0);
  }
};

TEST(GridCast, MergedRectanglesCoverExactlyTheOccupiedCells) {
  const RandomGrid r(3, 0.4);
  std::vector<int> covered(static_cast<std::size_t>(r.grid.nx) * r.grid.ny, 0);
  for (const CellRect& c : r.grid.merged_rectangles()) {
    for (int i = c.i0; i < c.i1; ++i) {
      for (int j = c.j0; j < c.j1; ++j) ++covered[static_cast<std::size_t>(i) * r.grid.ny + j];
    }
  }
  for (int i = 0; i < r.grid.nx; ++i) {
    for (int j = 0; j < r.grid.ny; ++j) {
      EXPECT_EQ(covered[static_cast<std::size_t>(i) * r.grid.ny + j],
                r.grid.occupied(i, j) ? 1 : 0);
    }
  }
}

// The jumps cross the largest free square with the ray's cell as its corner toward the ray's
// direction: rays along cell edges (the squares' near sides) and rays from cell corners and
// edges must still meet every cell the plain walk meets. Cells of 0.25 x 0.5 m from (-3, 2) are
// exact in binary, so the origins and the axis-parallel rays lie exactly on cell edges.
TEST(GridCast, JumpsAlongCellEdgesAndFromCornersGiveThePlainWalksHits) {
  RandomGrid r(17, 0.15);
  r.grid.cell = {0.25, 0.5};
  const GridMap& g = r.grid;
  const GridCaster jumps = caster_of(g), plain = caster_of(g, 1);
  // Along the cell edges, and across them at yaws that meet no lattice corner exactly.
  const std::vector<Eigen::Vector3d> directions = {{1, 0, 0},
                                                   {-1, 0, 0},
                                                   {0, 1, 0},
                                                   {0, -1, 0},
                                                   {std::cos(0.3), std::sin(0.3), 0},
                                                   {std::cos(2.0), std::sin(2.0), 0},
                                                   {std::cos(-1.1), std::sin(-1.1), 0},
                                                   {std::cos(-2.7), std::sin(-2.7), 0}};
  int hits = 0;
  for (int i = 0; i <= g.nx; i += 3) {
    for (int j = 0; j <= g.ny; j += 2) {
      // A cell corner, and the middle of a cell's left edge.
      for (const double dy : {0.0, 0.5}) {
        const Eigen::Vector3d o(g.origin.x() + i * g.cell.x(), g.origin.y() + (j + dy) * g.cell.y(),
                                0.0);
        for (const Eigen::Vector3d& d : directions) {
          const scene::GridHit a = jumps.cast(o, d, 20.0), b = plain.cast(o, d, 20.0);
          ASSERT_EQ(a.distance, b.distance) << i << " " << j << " " << dy << " " << d.transpose();
          EXPECT_EQ(a.normal, b.normal);
          hits += a.hit();
        }
      }
    }
  }
  EXPECT_GT(hits, 3000);
}

TEST(GridCast, JumpsGiveThePlainWalksRangesBitForBitAndMatchTheScene) {
  for (const double fill : {0.05, 0.3, 0.6}) {
    const RandomGrid r(11, fill);
    const GridMap& g = r.grid;
    const GridCaster jumps = caster_of(g), plain = caster_of(g, 1);
    scene::Scene rects;
    for (const CellRect& c : g.merged_rectangles()) {
      const Eigen::Vector2d lo = g.corner_min(c), hi = g.corner_max(c);
      scene::BodyGeometry b;
      b.kind = scene::ShapeKind::kPolygon;
      b.vertices = {lo, {hi.x(), lo.y()}, hi, {lo.x(), hi.y()}};
      rects.add_body(b, false, 1);
    }
    rects.commit();
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> ux(-4.0, 13.0), uy(1.0, 12.0), yaw(-kPi, kPi);
    std::vector<double> yaws(90);
    std::vector<scene::RayHit> hits(yaws.size());
    int compared = 0;
    for (int fan = 0; fan < 40; ++fan) {
      const Eigen::Vector3d o(ux(rng), uy(rng), 0.0);
      for (double& y : yaws) y = yaw(rng);
      rects.cast_fan(o, yaws, 8.0, scene::kNoUserId, hits);
      // The interleaved walks give cast()'s hits exactly.
      std::vector<Eigen::Vector3d> origins(yaws.size(), o), directions;
      for (const double y : yaws) directions.emplace_back(std::cos(y), std::sin(y), 0.0);
      const std::vector<double> reach(yaws.size(), 8.0);
      std::vector<scene::GridHit> many(yaws.size());
      jumps.cast_many(origins, directions, reach, many);
      for (std::size_t b = 0; b < yaws.size(); ++b) {
        const scene::GridHit a = jumps.cast_yaw(o, yaws[b], 8.0);
        EXPECT_EQ(many[b].distance, a.distance);
        EXPECT_EQ(many[b].normal, a.normal);
        EXPECT_EQ(a.distance, plain.cast_yaw(o, yaws[b], 8.0).distance);
        ASSERT_EQ(a.hit(), hits[b].hit()) << fill << " " << fan << " " << b;
        if (a.hit()) {
          EXPECT_NEAR(a.distance, hits[b].distance, 1e-12 * (1.0 + a.distance));
          ++compared;
        }
      }
    }
    EXPECT_GT(compared, 500) << fill;
  }
}

TEST(GridCast, SceneFoldsTheGridIntoCastAndCastFan) {
  const GridMap g = known_grid();
  scene::Scene s;
  scene::BodyGeometry disc;
  disc.center = {0.25, 2.5};
  disc.radius = 0.3;
  const scene::BodyId disc_body = s.add_body(disc, false, 4);
  const scene::BodyId grid_body = s.set_grid(std::make_shared<const GridCaster>(caster_of(g)), -1);
  s.commit();
  const std::vector<double> yaws = {0.0, -kPi / 2, kPi};
  std::vector<scene::RayHit> fan(3);
  s.cast_fan({0.25, 3.3, 0.0}, yaws, 10.0, scene::kNoUserId, fan);
  EXPECT_EQ(fan[0].body, grid_body);
  EXPECT_EQ(s.user_id(fan[0].body), -1);
  EXPECT_DOUBLE_EQ(fan[0].distance, 1.25);
  EXPECT_EQ(fan[1].body, disc_body);  // straight down: the disc; no occupied cell below
  EXPECT_DOUBLE_EQ(fan[1].distance, 0.8 - 0.3);
  EXPECT_FALSE(fan[2].hit());
  // The table forms fold it in too; cast_fan_hits() marks the grid's and the disc's beams.
  const scene::FanTable table(yaws);
  std::vector<scene::RayHit> by_table(3), sparse(3);
  std::uint64_t bits = 0;
  s.cast_fan({0.25, 3.3, 0.0}, 0.0, table, 10.0, scene::kNoUserId, by_table);
  s.cast_fan_hits({0.25, 3.3, 0.0}, 0.0, table, 10.0, scene::kNoUserId, sparse, {&bits, 1});
  EXPECT_EQ(bits, 0b011u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(by_table[i].body, fan[i].body);
    EXPECT_EQ(sparse[i].body, fan[i].body);
    EXPECT_NEAR(sparse[i].distance, fan[i].distance, 1e-15);
  }
  EXPECT_FALSE(by_table[2].hit());
  const std::vector<scene::Ray> rays = {{{0.25, 3.3, 0.0}, {1, 0, 0}, 10.0},
                                        {{0.25, 3.3, 0.0}, {1, 0, 0}, 1.0}};
  std::vector<scene::RayHit> out(2);
  s.cast(rays, scene::kNoUserId, out);
  EXPECT_EQ(out[0].body, grid_body);
  EXPECT_DOUBLE_EQ(out[0].distance, 1.25);
  EXPECT_EQ(out[0].normal, Eigen::Vector3d(-1, 0, 0));
  EXPECT_FALSE(out[1].hit());
}

}  // namespace
}  // namespace ubot
