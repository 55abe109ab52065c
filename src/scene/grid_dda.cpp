// 2D DDA ray casting on an occupancy grid, with jumps through free space
// (ubot/scene/grid_caster.h).
#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>

#include "ubot/core/error.h"
#include "ubot/core/numbers.h"
#include "ubot/scene/grid_caster.h"

namespace ubot::scene {
namespace {

constexpr int kMaxClearance = 255;

// The ray's parameter range inside [lo, hi] along one axis (inv_d = 1 / d), intersected into
// [t0, t1].
void clip_axis(double o, double d, double inv_d, double lo, double hi, double& t0, double& t1) {
  if (d == 0.0) {
    if (o < lo || o > hi) t1 = -kInf;
    return;
  }
  double ta = (lo - o) * inv_d, tb = (hi - o) * inv_d;
  if (ta > tb) std::swap(ta, tb);
  t0 = std::max(t0, ta);
  t1 = std::min(t1, tb);
}

// The index of the cell at `scaled` (a coordinate in cells from the grid's corner), in [lo, hi].
// floor() by truncation on the clamped value: std::floor is a libm call without SSE4.1, and this
// runs once per step.
int cell_of_scaled(double scaled, int lo, int hi) {
  const double v = std::clamp(scaled, lo - 1.0, hi + 1.0);  // in int range before the cast
  int c = static_cast<int>(v);
  c -= static_cast<double>(c) > v;
  return c < lo ? lo : c > hi ? hi : c;
}

// For each cell, the side m of the largest free square with that cell as its corner, reaching
// toward (si, sj): 0 for an occupied cell, else 1 + the least of its three neighbours' toward
// (si, sj) (the classic largest-square recurrence), capped; cells off the grid count as free.
std::vector<std::uint8_t> free_square_field(int nx, int ny, const std::vector<std::uint8_t>& occ,
                                            int cap, int si, int sj) {
  std::vector<std::uint8_t> m(occ.size());
  auto at = [&](int i, int j) -> int {
    if (i < 0 || i >= nx || j < 0 || j >= ny) return cap;
    return m[static_cast<std::size_t>(j) * nx + i];
  };
  for (int n = 0; n < ny; ++n) {
    const int j = sj > 0 ? ny - 1 - n : n;  // the neighbours toward sj come first
    for (int l = 0; l < nx; ++l) {
      const int i = si > 0 ? nx - 1 - l : l;
      const std::size_t c = static_cast<std::size_t>(j) * nx + i;
      const int least = std::min({at(i + si, j), at(i, j + sj), at(i + si, j + sj)});
      m[c] = occ[c] ? 0 : static_cast<std::uint8_t>(std::min(cap, least + 1));
    }
  }
  return m;
}

}  // namespace

GridCaster::GridCaster(int nx, int ny, const Eigen::Vector2d& origin, const Eigen::Vector2d& cell,
                       std::vector<std::uint8_t> occupied, double z_min, double z_max, int max_jump)
    : nx_(nx), ny_(ny), origin_(origin), cell_(cell), z_min_(z_min), z_max_(z_max) {
  if (nx < 1 || ny < 1 || occupied.size() != static_cast<std::size_t>(nx) * ny ||
      !(cell.x() > 0.0) || !(cell.y() > 0.0) || !origin.allFinite() || !(z_min < z_max) ||
      max_jump < 1 || max_jump > kMaxClearance) {
    throw Error("GridCaster: inconsistent grid (cells, sizes or vertical extent)");
  }
  for (int q = 0; q < 4; ++q) {
    clearance_[q] = free_square_field(nx, ny, occupied, max_jump, q & 1 ? -1 : 1, q & 2 ? -1 : 1);
  }
  inv_cell_ = cell.cwiseInverse();
}

Eigen::Vector2d GridCaster::upper() const {
  return {origin_.x() + nx_ * cell_.x(), origin_.y() + ny_ * cell_.y()};
}

GridHit GridCaster::cast_yaw(const Eigen::Vector3d& origin, double yaw, double max_distance) const {
  return cast(origin, {std::cos(yaw), std::sin(yaw), 0.0}, max_distance);
}

double GridCaster::enter_extent(double oz, double dz, double ta, double tb) const {
  if (dz == 0.0) return oz >= z_min_ && oz <= z_max_ ? ta : kInf;
  double za = (z_min_ - oz) / dz, zb = (z_max_ - oz) / dz;
  if (za > zb) std::swap(za, zb);
  const double t = std::max(ta, za);
  return t <= std::min(tb, zb) ? t : kInf;
}

// One ray's walk, a step at a time, so that cast_fan() can advance several rays in turn: their
// steps are independent, and the processor overlaps them (each step waits on the cell it reads).
struct GridCaster::Walk {
  Eigen::Vector3d o, d;
  double inv_x = 0.0, inv_y = 0.0, t = 0.0, t1 = 0.0;
  int i = 0, j = 0, si = 1, sj = 1;
  int face = 0;  // the face the ray entered the current cell through: 0 none, 1 x, 2 y
  const std::uint8_t* field = nullptr;  // the free squares toward (si, sj)
  GridHit hit;
};

// Sets `w` up for the ray; false when it misses the grid's rectangle within max_distance.
bool GridCaster::start(Walk& w, const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
                       double max_distance) const {
  double t0 = 0.0, t1 = max_distance;
  const Eigen::Vector2d hi = upper();
  w.inv_x = 1.0 / direction.x();  // +-inf along an axis
  w.inv_y = 1.0 / direction.y();
  clip_axis(origin.x(), direction.x(), w.inv_x, origin_.x(), hi.x(), t0, t1);
  clip_axis(origin.y(), direction.y(), w.inv_y, origin_.y(), hi.y(), t0, t1);
  if (!(t0 <= t1)) return false;
  w.o = origin;
  w.d = direction;
  w.t = t0;
  w.t1 = t1;
  w.i = cell_of_scaled((origin.x() + t0 * direction.x() - origin_.x()) * inv_cell_.x(), 0, nx_ - 1);
  w.j = cell_of_scaled((origin.y() + t0 * direction.y() - origin_.y()) * inv_cell_.y(), 0, ny_ - 1);
  w.si = direction.x() > 0.0 ? 1 : -1;
  w.sj = direction.y() > 0.0 ? 1 : -1;
  w.field = clearance_[(w.si < 0 ? 1 : 0) + (w.sj < 0 ? 2 : 0)].data();
  w.face = 0;
  w.hit = {};
  return true;
}

// The hit in the current (occupied) cell between ta and tb, entered through `face`, if the ray
// is within the vertical extent there.
GridHit GridCaster::hit_in_cell(const Walk& w, double ta, double tb, int face) const {
  const double t = enter_extent(w.o.z(), w.d.z(), ta, tb);
  if (t == kInf) return {};
  if (t > ta) return {t, Eigen::Vector3d(0.0, 0.0, w.d.z() > 0.0 ? -1.0 : 1.0)};
  if (face == 1) return {t, Eigen::Vector3d(-w.si, 0.0, 0.0)};
  if (face == 2) return {t, Eigen::Vector3d(0.0, -w.sj, 0.0)};
  return {t, Eigen::Vector3d::Zero()};
}

// One step: tests the current cell, then leaves the free square around it. True when the walk
// has ended (w.hit holds the hit, or none).
inline bool GridCaster::step(Walk& w) const {
  const int k = w.field[static_cast<std::size_t>(w.j) * nx_ + w.i];
  // The free square from the cell to (i + si r, j + sj r) (r = k - 1; just the cell when it is
  // occupied or its free square has side 1): the ray, moving toward (si, sj), leaves it at tx or
  // ty.
  const int r = k > 0 ? k - 1 : 0;
  const int edge_i = w.i + w.si * r, edge_j = w.j + w.sj * r;  // its far column and row
  const double tx =
      w.d.x() == 0.0 ? kInf : (origin_.x() + (edge_i + (w.si > 0)) * cell_.x() - w.o.x()) * w.inv_x;
  const double ty =
      w.d.y() == 0.0 ? kInf : (origin_.y() + (edge_j + (w.sj > 0)) * cell_.y() - w.o.y()) * w.inv_y;
  const double t_exit = std::min(tx, ty);  // a cell beyond it can still be hit at t1
  if (k == 0) {
    w.hit = hit_in_cell(w, w.t, std::max(w.t, std::min(t_exit, w.t1)), w.face);
    if (w.hit.hit()) return true;
  }
  if (t_exit > w.t1) return true;
  const double t_next = std::max(w.t, t_exit);
  if (tx < ty) {
    w.i = edge_i + w.si;
    if (r > 0) {
      w.j = cell_of_scaled((w.o.y() + tx * w.d.y() - origin_.y()) * inv_cell_.y(),
                           std::max(std::min(w.j, edge_j), 0),
                           std::min(std::max(w.j, edge_j), ny_ - 1));
    }
    w.face = 1;
  } else if (ty < tx) {
    w.j = edge_j + w.sj;
    if (r > 0) {
      w.i = cell_of_scaled((w.o.x() + ty * w.d.x() - origin_.x()) * inv_cell_.x(),
                           std::max(std::min(w.i, edge_i), 0),
                           std::min(std::max(w.i, edge_i), nx_ - 1));
    }
    w.face = 2;
  } else {
    // Through the square's corner: the two cells beside the diagonal one touch the ray there
    // too (closed squares).
    for (const auto& [a, b, face] :
         {std::tuple{edge_i + w.si, edge_j, 1}, std::tuple{edge_i, edge_j + w.sj, 2}}) {
      if (a >= 0 && a < nx_ && b >= 0 && b < ny_ && occupied(a, b)) {
        w.hit = hit_in_cell(w, t_next, t_next, face);
        return true;
      }
    }
    w.i = edge_i + w.si;
    w.j = edge_j + w.sj;
    w.face = 1;
  }
  w.t = t_next;
  return w.i < 0 || w.i >= nx_ || w.j < 0 || w.j >= ny_;
}

GridHit GridCaster::cast(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
                         double max_distance) const {
  Walk w;
  if (!start(w, origin, direction, max_distance)) return {};
  while (!step(w)) {
  }
  return w.hit;
}

void GridCaster::cast_many(std::span<const Eigen::Vector3d> origins,
                           std::span<const Eigen::Vector3d> directions,
                           std::span<const double> max_distances, std::span<GridHit> out) const {
  constexpr std::size_t kLanes = 4;
  std::array<Walk, kLanes> walks;
  for (std::size_t first = 0; first < out.size(); first += kLanes) {
    const std::size_t n = std::min(kLanes, out.size() - first);
    std::array<bool, kLanes> active{};
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t r = first + k;
      active[k] = start(walks[k], origins[r], directions[r], max_distances[r]);
      if (!active[k]) out[r] = {};
    }
    for (bool any = true; any;) {
      any = false;
      for (std::size_t k = 0; k < n; ++k) {
        if (!active[k]) continue;
        if (step(walks[k])) {
          active[k] = false;
          out[first + k] = walks[k].hit;
        } else {
          any = true;
        }
      }
    }
  }
}

}  // namespace ubot::scene
