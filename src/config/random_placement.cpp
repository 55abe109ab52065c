#include "random_placement.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace ubot::config {
namespace {

// Earlier points by square cell. A cell at least min_distance wide puts every point closer than
// min_distance to a candidate in the candidate's cell or one of its 8 neighbours.
class PointGrid {
 public:
  PointGrid(const Eigen::Vector3d& low, const Eigen::Vector3d& high, double min_distance)
      : origin_(low.head<2>()) {
    // Not narrower than 1/2^20 of the range: cell indices stay small integers even for a tiny
    // min_distance over a wide range.
    const double span = std::max(high.x() - low.x(), high.y() - low.y());
    // (A hair wider than min_distance: rounding at a cell border cannot hide a close point.)
    cell_ = std::max(min_distance, span / 1048576.0) * (1.0 + 1e-9);
    if (!(cell_ > 0.0)) cell_ = 1.0;  // a single point range: any cell will do
  }

  bool far_enough(const std::vector<std::vector<double>>& points, double x, double y,
                  double min_distance) const {
    const std::int64_t cx = index(x - origin_.x()), cy = index(y - origin_.y());
    for (std::int64_t i = cx - 1; i <= cx + 1; ++i) {
      for (std::int64_t j = cy - 1; j <= cy + 1; ++j) {
        const auto it = cells_.find(key(i, j));
        if (it == cells_.end()) continue;
        for (const int k : it->second) {
          if (!(std::hypot(points[k][0] - x, points[k][1] - y) >= min_distance)) return false;
        }
      }
    }
    return true;
  }

  void add(int id, double x, double y) {
    cells_[key(index(x - origin_.x()), index(y - origin_.y()))].push_back(id);
  }

 private:
  std::int64_t index(double offset) const {
    return static_cast<std::int64_t>(std::floor(offset / cell_));
  }
  static std::uint64_t key(std::int64_t i, std::int64_t j) {
    return (static_cast<std::uint64_t>(i) << 32) ^ static_cast<std::uint64_t>(j & 0xffffffff);
  }

  Eigen::Vector2d origin_;
  double cell_ = 1.0;
  std::unordered_map<std::uint64_t, std::vector<int>> cells_;
};

}  // namespace

std::vector<std::vector<double>> random_points(RandomStream& rng, const Eigen::Vector3d& low,
                                               const Eigen::Vector3d& high, int n,
                                               double min_distance) {
  std::vector<std::vector<double>> points;
  points.reserve(static_cast<std::size_t>(n));
  PointGrid grid(low, high, min_distance);
  for (int i = 0; i < n; ++i) {
    std::vector<double> candidate(3);
    for (int attempt = 0; attempt < 1000; ++attempt) {
      for (int k = 0; k < 3; ++k) candidate[k] = rng.uniform(low[k], high[k]);
      if (grid.far_enough(points, candidate[0], candidate[1], min_distance)) break;
    }
    grid.add(i, candidate[0], candidate[1]);
    points.push_back(std::move(candidate));
  }
  return points;
}

}  // namespace ubot::config
