#pragma once
// GridMap: the world's occupancy grid (`world.obstacle_map`, docs/grid-maps.md), as IR-SIM holds
// it: cell (i, j) covers x in [x0 + i rx, x0 + (i + 1) rx], y in [y0 + j ry, y0 + (j + 1) ry]
// (i along +x, j along +y from the bottom row), with an occupancy in 0..100; a cell is an
// obstacle when its occupancy is above 50. The grid is static: it belongs to no object (rays that
// hit it report object -1, like the ground), and lidars, FOV, collisions and pictures all see
// its occupied cells as closed squares.
#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace ubot {

// An axis-aligned rectangle of whole cells [i0, i1) x [j0, j1).
struct CellRect {
  int i0 = 0, j0 = 0, i1 = 0, j1 = 0;
};

struct GridMap {
  int nx = 0, ny = 0;                                // cells along x and y
  Eigen::Vector2d origin = Eigen::Vector2d::Zero();  // world position of cell (0, 0)'s corner
  Eigen::Vector2d cell = Eigen::Vector2d::Ones();    // cell size (rx, ry), metres
  std::vector<float> occupancy;                      // nx * ny values, index i * ny + j
  std::string source;  // what it was made from ("cave.png", "perlin", ...), for messages

  // IR-SIM's OCCUPANCY_THRESHOLD: values above it are obstacles.
  static constexpr float kOccupiedAbove = 50.0f;

  float value(int i, int j) const { return occupancy[static_cast<std::size_t>(i) * ny + j]; }
  bool occupied(int i, int j) const { return value(i, j) > kOccupiedAbove; }
  // Occupied flags, row-major by j (index j * nx + i): the layout the ray casters walk.
  std::vector<std::uint8_t> occupied_rows() const;
  std::size_t occupied_count() const;

  // World corners of cell rectangle r.
  Eigen::Vector2d corner_min(const CellRect& r) const;
  Eigen::Vector2d corner_max(const CellRect& r) const;

  // The occupied cells as few disjoint rectangles (maximal runs along x, then merged along y
  // where consecutive rows have the same run): their union is exactly the occupied cells.
  std::vector<CellRect> merged_rectangles() const;
};

}  // namespace ubot
