// The 2D fan path's parts, white-box: the bounded-error atan2 its arcs rely on, and the grid of
// moving bodies (every primitive whose bounds meet the query box, exactly once).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "../../src/scene/body_grid.h"
#include "../../src/scene/fan_arcs.h"
#include "scene_test_util.h"

namespace ubot::scene {
namespace {

using testing::Rng;

TEST(FanArcs, ApproximateAtan2IsWithinItsBound) {
  Rng rng(81);
  double worst = 0.0;
  auto check = [&](double y, double x) {  // mod 2 pi: arcs may use either side of the cut
    const double d = std::abs(internal::atan2_approx(y, x) - std::atan2(y, x));
    worst = std::max(worst, std::min(d, std::abs(d - 2 * std::numbers::pi)));
  };
  for (int i = 0; i <= 200000; ++i) {  // the whole circle, densely, at several scales
    const double a = -std::numbers::pi + 2 * std::numbers::pi * i / 200000;
    for (const double scale : {1e-300, 1e-9, 1.0, 1e4, 1e300}) {
      check(scale * std::sin(a), scale * std::cos(a));
    }
  }
  for (int i = 0; i < 200000; ++i) check(rng.uniform(-1e3, 1e3), rng.uniform(-1e3, 1e3));
  for (const double y : {0.0, -0.0, 1.0, -1.0}) {
    for (const double x : {0.0, -0.0, 1.0, -1.0}) {
      if (x != 0.0 || y != 0.0) check(y, x);
    }
  }
  EXPECT_LE(worst, 1.2e-5);
  EXPECT_GT(internal::kBearingPad, 3 * worst);
}

internal::Box2 box_around(double x, double y, double half) {
  return {x - half, y - half, x + half, y + half};
}

// One grid rebuilt round after round, as a scene's is: every third round has at most 16
// primitives (no grid, each checked by every query), the others up to 500.
TEST(BodyGrid, QueriesFindEveryOverlappingPrimitiveOnce) {
  Rng rng(82);
  internal::BodyGrid grid;
  for (int round = 0; round < 30; ++round) {
    internal::GroupTables tables;
    const double spread = round % 4 == 0 ? 0.0 : round % 4 == 1 ? 1.0 : 100.0;
    const int count = round % 3 == 0 ? 1 + round % 16 : 1 + static_cast<int>(rng.uniform(0, 500));
    for (int i = 0; i < count; ++i) {
      const double x = rng.uniform(-spread, spread),
                   y = round % 5 == 0 ? 3.0 : rng.uniform(-spread, spread);
      const double size = i % 37 == 0 ? rng.uniform(10, 300) : rng.uniform(0.01, 1.0);
      switch (i % 3) {
        case 0:
          tables.circles.push_back({x, y, size, -1, 1, i, i});
          break;
        case 1:
          tables.walls.push_back({{x, y}, {x + size, y - size / 2}, -1, 1, i, i});
          break;
        default:
          tables.prisms.push_back({0, 3, box_around(x, y, size), -1, 1, i, i});
      }
    }
    grid.build(tables);
    for (int q = 0; q < 50; ++q) {
      const double half = q % 10 == 0 ? INFINITY : rng.uniform(0, 30);
      const internal::Box2 query = box_around(rng.uniform(-1.5 * spread, 1.5 * spread),
                                              rng.uniform(-1.5 * spread, 1.5 * spread), half);
      std::vector<int> found(tables.circles.size() + tables.walls.size() + tables.prisms.size());
      const std::size_t walls_at = tables.circles.size();
      const std::size_t prisms_at = walls_at + tables.walls.size();
      grid.query(query, [&](internal::PrimKind kind, std::uint32_t prim) {
        ++found[(kind == internal::PrimKind::kCircle ? 0
                 : kind == internal::PrimKind::kWall ? walls_at
                                                     : prisms_at) +
                prim];
      });
      auto overlaps = [&](const internal::Box2& b) {
        return b.min_x <= query.max_x && query.min_x <= b.max_x && b.min_y <= query.max_y &&
               query.min_y <= b.max_y;
      };
      for (std::size_t i = 0; i < tables.circles.size(); ++i) {
        const auto& c = tables.circles[i];
        ASSERT_EQ(found[i], overlaps(box_around(c.cx, c.cy, c.radius))) << round << " " << q;
      }
      for (std::size_t i = 0; i < tables.walls.size(); ++i) {
        const auto& w = tables.walls[i];
        const internal::Box2 b{std::min(w.a.x, w.b.x), std::min(w.a.y, w.b.y),
                               std::max(w.a.x, w.b.x), std::max(w.a.y, w.b.y)};
        ASSERT_EQ(found[walls_at + i], overlaps(b)) << round << " " << q;
      }
      for (std::size_t i = 0; i < tables.prisms.size(); ++i) {
        ASSERT_EQ(found[prisms_at + i], overlaps(tables.prisms[i].box)) << round << " " << q;
      }
    }
  }
}

}  // namespace
}  // namespace ubot::scene
