#include "random_placement.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "ubot/core/stop.h"

namespace ubot::config {
namespace {

// Earlier points by square cell. A cell at least min_distance wide puts every point closer than
// min_distance to a candidate in the candidate's cell or one of its 8 neighbours. The cells are
// a dense array of list heads (each point links to the previous one of its cell): a lookup is an
// index, not a hash (3x faster when a full range makes 1000 tries per point). Cells are also at
// least wide enough that there are O(n) of them, so a tiny min_distance over a wide range costs
// no more memory than the points.
class PointGrid {
 public:
  PointGrid(const Eigen::Vector3d& low, const Eigen::Vector3d& high, int n, double min_distance)
      : origin_(low.head<2>()) {
    const double w = high.x() - low.x(), h = high.y() - low.y();
    const double cells_wanted = 4.0 * std::max(n, 1);
    // (A hair wider than min_distance: rounding at a cell border cannot hide a close point.)
    cell_ = std::max({min_distance, std::sqrt(w * h / cells_wanted), w / cells_wanted,
                      h / cells_wanted}) *
            (1.0 + 1e-9);
    if (!(cell_ > 0.0)) cell_ = 1.0;  // a single point range: any cell will do
    columns_ = static_cast<std::int64_t>(std::floor(w / cell_)) + 1;
    rows_ = static_cast<std::int64_t>(std::floor(h / cell_)) + 1;
    head_.assign(static_cast<std::size_t>(columns_ * rows_), -1);
    next_.reserve(static_cast<std::size_t>(std::max(n, 0)));
  }

  bool far_enough(const std::vector<std::vector<double>>& points, double x, double y,
                  double min_distance) const {
    const std::int64_t cx = column(x), cy = row(y);
    for (std::int64_t i = std::max<std::int64_t>(cx - 1, 0); i <= std::min(cx + 1, columns_ - 1);
         ++i) {
      for (std::int64_t j = std::max<std::int64_t>(cy - 1, 0); j <= std::min(cy + 1, rows_ - 1);
           ++j) {
        for (int k = head_[static_cast<std::size_t>(i * rows_ + j)]; k >= 0; k = next_[k]) {
          if (!(std::hypot(points[k][0] - x, points[k][1] - y) >= min_distance)) return false;
        }
      }
    }
    return true;
  }

  // Points are added in order 0, 1, 2, ...
  void add(double x, double y) {
    int& head = head_[static_cast<std::size_t>(column(x) * rows_ + row(y))];
    next_.push_back(head);
    head = static_cast<int>(next_.size()) - 1;
  }

 private:
  // Draws lie in [low, high): the clamp only guards the last cell against rounding.
  std::int64_t column(double x) const { return clamp(index(x - origin_.x()), columns_); }
  std::int64_t row(double y) const { return clamp(index(y - origin_.y()), rows_); }
  std::int64_t index(double offset) const {
    return static_cast<std::int64_t>(std::floor(offset / cell_));
  }
  static std::int64_t clamp(std::int64_t i, std::int64_t count) {
    return std::clamp<std::int64_t>(i, 0, count - 1);
  }

  Eigen::Vector2d origin_;
  double cell_ = 1.0;
  std::int64_t columns_ = 1, rows_ = 1;
  std::vector<int> head_;  // per cell: its newest point, or -1
  std::vector<int> next_;  // per point: the previous point of its cell, or -1
};

// Objects in a row that find no free spot in 1000 draws each before the range counts as full.
// 100 000 draws missing a free area of fraction f happen with probability (1 - f)^100000: below
// 1e-4 for f = 1e-4, so a full range is told apart from bad luck.
constexpr int kFullAfter = 100;

}  // namespace

RandomPoints random_points(RandomStream& rng, const Eigen::Vector3d& low,
                           const Eigen::Vector3d& high, int n, double min_distance) {
  RandomPoints placed;
  std::vector<std::vector<double>>& points = placed.points;
  points.reserve(static_cast<std::size_t>(n));
  PointGrid grid(low, high, n, min_distance);
  int crowded_in_a_row = 0;
  for (int i = 0; i < n; ++i) {
    // Near a full range each point takes up to 1000 draws: a long placement stops on a signal.
    if (i % 256 == 0) throw_if_stop_requested();
    std::vector<double> candidate(3);
    bool apart = false;
    for (int attempt = 0; attempt < 1000 && !apart; ++attempt) {
      for (int k = 0; k < 3; ++k) candidate[k] = rng.uniform(low[k], high[k]);
      apart = grid.far_enough(points, candidate[0], candidate[1], min_distance);
    }
    crowded_in_a_row = apart ? 0 : crowded_in_a_row + 1;
    if (!apart) ++placed.crowded;
    grid.add(candidate[0], candidate[1]);
    points.push_back(std::move(candidate));
    if (crowded_in_a_row == kFullAfter && i + 1 < n) {
      placed.full = true;
      break;
    }
  }
  return placed;
}

double max_points_apart(const Eigen::Vector3d& low, const Eigen::Vector3d& high,
                        double min_distance) {
  const double w = (high.x() - low.x()) / min_distance, h = (high.y() - low.y()) / min_distance;
  return 2.0 / std::sqrt(3.0) * w * h + (w + h) + 1.0;
}

double max_points_by_random_draws(const Eigen::Vector3d& low, const Eigen::Vector3d& high,
                                  double min_distance) {
  constexpr double kJammingCover = 0.547;
  constexpr double kPi = 3.14159265358979323846;
  const double area = (high.x() - low.x() + min_distance) * (high.y() - low.y() + min_distance);
  return kJammingCover * area / (kPi * min_distance * min_distance / 4.0);
}

}  // namespace ubot::config
