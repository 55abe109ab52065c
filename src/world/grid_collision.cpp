// Collisions with the grid map (grid_collision.h).
#include "grid_collision.h"

#include <algorithm>
#include <cmath>

namespace ubot::detail {
namespace {

// The cells whose closed span along one axis meets [lo, hi], clamped to [0, n - 1].
std::pair<int, int> cell_range(double lo, double hi, double origin, double size, int n) {
  const double a = std::floor((lo - origin) / size) - 1.0;  // one more on each side: rounding
  const double b = std::floor((hi - origin) / size) + 1.0;
  return {static_cast<int>(std::max(a, 0.0)), static_cast<int>(std::min(b, n - 1.0))};
}

// Calls `test` with each occupied cell (as a closed square) whose box may meet `box`, until it
// returns true.
template <class Test>
bool any_occupied_cell(const GridMap& grid, const Aabb& box, const Test& test) {
  const auto [i0, i1] =
      cell_range(box.min.x(), box.max.x(), grid.origin.x(), grid.cell.x(), grid.nx);
  const auto [j0, j1] =
      cell_range(box.min.y(), box.max.y(), grid.origin.y(), grid.cell.y(), grid.ny);
  WorldShape cell;
  cell.circle = false;
  for (int i = i0; i <= i1; ++i) {
    for (int j = j0; j <= j1; ++j) {
      if (!grid.occupied(i, j)) continue;
      const Eigen::Vector2d lo = grid.corner_min({i, j, i + 1, j + 1});
      const Eigen::Vector2d hi = grid.corner_max({i, j, i + 1, j + 1});
      cell.vertices = {lo, {hi.x(), lo.y()}, hi, {lo.x(), hi.y()}};
      cell.box = {lo, hi};
      if (cell.box.overlaps(box) && test(cell)) return true;
    }
  }
  return false;
}

}  // namespace

bool touches_grid(const GridMap& grid, const WorldShape& shape) {
  return any_occupied_cell(grid, shape.box,
                           [&](const WorldShape& cell) { return intersects(shape, cell); });
}

bool sector_touches_grid(const GridMap& grid, const Eigen::Vector2d& apex, double heading,
                         double fov, double radius) {
  if (!apex.allFinite() || !std::isfinite(radius)) return false;
  const Aabb box{apex.array() - radius, apex.array() + radius};
  return any_occupied_cell(grid, box, [&](const WorldShape& cell) {
    return intersects_sector(cell, apex, heading, fov, radius);
  });
}

}  // namespace ubot::detail
