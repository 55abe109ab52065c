// GridMap helpers: occupied flags and merged cell rectangles (ubot/config/grid_map.h).
#include "ubot/config/grid_map.h"

namespace ubot {

std::vector<std::uint8_t> GridMap::occupied_rows() const {
  std::vector<std::uint8_t> rows(static_cast<std::size_t>(nx) * ny);
  for (int i = 0; i < nx; ++i) {
    for (int j = 0; j < ny; ++j) rows[static_cast<std::size_t>(j) * nx + i] = occupied(i, j);
  }
  return rows;
}

std::size_t GridMap::occupied_count() const {
  std::size_t n = 0;
  for (float v : occupancy) n += v > kOccupiedAbove;
  return n;
}

Eigen::Vector2d GridMap::corner_min(const CellRect& r) const {
  return {origin.x() + r.i0 * cell.x(), origin.y() + r.j0 * cell.y()};
}

Eigen::Vector2d GridMap::corner_max(const CellRect& r) const {
  return {origin.x() + r.i1 * cell.x(), origin.y() + r.j1 * cell.y()};
}

std::vector<CellRect> GridMap::merged_rectangles() const {
  const std::vector<std::uint8_t> rows = occupied_rows();
  std::vector<CellRect> done;
  // Rectangles still growing upwards, keyed by their run [i0, i1) in the previous row.
  std::vector<CellRect> open, next;
  for (int j = 0; j <= ny; ++j) {
    next.clear();
    std::size_t k = 0;  // open is sorted by i0; walk it alongside this row's runs
    int i = 0;
    while (j < ny && i < nx) {
      if (!rows[static_cast<std::size_t>(j) * nx + i]) {
        ++i;
        continue;
      }
      const int i0 = i;
      while (i < nx && rows[static_cast<std::size_t>(j) * nx + i]) ++i;
      while (k < open.size() && open[k].i0 < i0) done.push_back(open[k++]);
      if (k < open.size() && open[k].i0 == i0 && open[k].i1 == i) {
        CellRect grown = open[k++];
        grown.j1 = j + 1;
        next.push_back(grown);
      } else {
        next.push_back({i0, j, i, j + 1});
      }
    }
    while (k < open.size()) done.push_back(open[k++]);
    open.swap(next);
  }
  return done;
}

}  // namespace ubot
