#include "body_grid.h"

#include <algorithm>
#include <cmath>

namespace ubot::scene::internal {
namespace {

// Cells per primitive at most: bounds the grid's memory and its build time.
constexpr double kMaxCellsPerPrim = 4.0;
// Up to this many primitives there is no grid: every query checks each (a few moving robots'
// grid cost more to build each step than the queries it saved).
constexpr std::size_t kFewPrimitives = 16;

Box2 bounds_of(const WallRecord& w) {
  return {std::min(w.a.x, w.b.x), std::min(w.a.y, w.b.y), std::max(w.a.x, w.b.x),
          std::max(w.a.y, w.b.y)};
}

double centre(double lo, double hi) { return 0.5 * lo + 0.5 * hi; }

}  // namespace

void BodyGrid::gather(const GroupTables& t) {
  all_.clear();
  for (std::uint32_t i = 0; i < t.circles.size(); ++i) {
    const CircleRecord& c = t.circles[i];
    all_.push_back({{c.cx - c.radius, c.cy - c.radius, c.cx + c.radius, c.cy + c.radius},
                    i,
                    PrimKind::kCircle});
  }
  for (std::uint32_t i = 0; i < t.walls.size(); ++i) {
    all_.push_back({bounds_of(t.walls[i]), i, PrimKind::kWall});
  }
  for (std::uint32_t i = 0; i < t.prisms.size(); ++i) {
    all_.push_back({t.prisms[i].box, i, PrimKind::kPrism});
  }
}

// Cell size ~ the mean spacing of the primitives (about one per cell), and no smaller than
// their mean half-size, so that most are filed in a cell rather than set aside.
void BodyGrid::choose_cells() {
  Box2 span{kInf, kInf, -kInf, -kInf};
  double half_sum = 0.0, magnitude = 0.0;
  for (const Entry& e : all_) {
    const double cx = centre(e.box.min_x, e.box.max_x), cy = centre(e.box.min_y, e.box.max_y);
    span = {std::min(span.min_x, cx), std::min(span.min_y, cy), std::max(span.max_x, cx),
            std::max(span.max_y, cy)};
    half_sum += 0.5 * std::max(e.box.max_x - e.box.min_x, e.box.max_y - e.box.min_y);
    magnitude = std::max({magnitude, std::abs(e.box.min_x), std::abs(e.box.max_x),
                          std::abs(e.box.min_y), std::abs(e.box.max_y)});
  }
  const double n = static_cast<double>(all_.size());
  const double w = span.max_x - span.min_x, h = span.max_y - span.min_y;
  cell_ = std::max({std::sqrt(w * h / n), half_sum / n, 1e-9 * (magnitude + 1.0)});
  while ((w / cell_ + 1.0) * (h / cell_ + 1.0) > kMaxCellsPerPrim * n + 16.0) cell_ *= 2.0;
  x0_ = span.min_x;
  y0_ = span.min_y;
  inv_cell_ = 1.0 / cell_;
  nx_ = static_cast<int>(w * inv_cell_) + 1;
  ny_ = static_cast<int>(h * inv_cell_) + 1;
}

void BodyGrid::build(const GroupTables& tables) {
  gather(tables);
  oversize_.clear();
  entries_.clear();
  cell_start_.clear();
  reach_ = 0.0;
  if (all_.size() <= kFewPrimitives) {
    oversize_.swap(all_);  // all of them, checked by every query
    return;
  }
  choose_cells();
  const std::size_t cells = static_cast<std::size_t>(nx_) * ny_;
  cell_start_.assign(cells + 1, 0);
  cell_of_.resize(all_.size());  // each primitive's cell, or `cells` for the oversize ones
  double magnitude = 0.0;
  for (std::size_t i = 0; i < all_.size(); ++i) {
    const Box2& b = all_[i].box;
    const double half = 0.5 * std::max(b.max_x - b.min_x, b.max_y - b.min_y);
    if (half > cell_) {
      oversize_.push_back(all_[i]);
      cell_of_[i] = static_cast<std::uint32_t>(cells);
      continue;
    }
    reach_ = std::max(reach_, half);
    magnitude = std::max(
        {magnitude, std::abs(b.min_x), std::abs(b.max_x), std::abs(b.min_y), std::abs(b.max_y)});
    const std::size_t cell = static_cast<std::size_t>(cell_y(centre(b.min_y, b.max_y))) * nx_ +
                             cell_x(centre(b.min_x, b.max_x));
    cell_of_[i] = static_cast<std::uint32_t>(cell);
    ++cell_start_[cell + 1];
  }
  // A centre and half-size that round apart by an ulp still lie within the reach.
  reach_ = reach_ * (1.0 + 1e-9) + 1e-12 * (magnitude + 1.0);
  for (std::size_t c = 0; c < cells; ++c) cell_start_[c + 1] += cell_start_[c];
  entries_.resize(cell_start_[cells]);
  cursor_.assign(cell_start_.begin(), cell_start_.end() - 1);
  for (std::size_t i = 0; i < all_.size(); ++i) {
    if (cell_of_[i] < cells) entries_[cursor_[cell_of_[i]]++] = all_[i];
  }
}

}  // namespace ubot::scene::internal
