// 2D DDA ray casting on an occupancy grid, with jumps through free space
// (ubot/scene/grid_caster.h).
#include <algorithm>
#include <cmath>

#include "ubot/core/error.h"
#include "ubot/scene/grid_caster.h"

namespace ubot::scene {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
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

int clamp_index(int c, int lo, int hi) { return c < lo ? lo : c > hi ? hi : c; }

// The index of the cell at `scaled` (a coordinate in cells from the grid's corner), in [lo, hi].
// floor() by truncation on the clamped value: std::floor is a libm call without SSE4.1, and this
// runs once per step.
int cell_of_scaled(double scaled, int lo, int hi) {
  const double v = std::clamp(scaled, lo - 1.0, hi + 1.0);  // in int range before the cast
  int c = static_cast<int>(v);
  c -= static_cast<double>(c) > v;
  return c < lo ? lo : c > hi ? hi : c;
}

// Chebyshev distance to the nearest occupied cell: two chamfer passes over the 8-neighbourhood
// with unit steps give it exactly (Rosenfeld and Pfaltz, 1966).
std::vector<std::uint8_t> clearance_field(int nx, int ny, const std::vector<std::uint8_t>& occ,
                                          int cap) {
  std::vector<std::uint8_t> d(occ.size());
  auto at = [&](int i, int j) -> std::uint8_t& { return d[static_cast<std::size_t>(j) * nx + i]; };
  auto relax = [&](int i, int j, int a, int b) {
    if (a >= 0 && a < nx && b >= 0 && b < ny) at(i, j) = std::min<int>(at(i, j), at(a, b) + 1);
  };
  for (std::size_t c = 0; c < occ.size(); ++c) d[c] = occ[c] ? 0 : static_cast<std::uint8_t>(cap);
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      for (const auto& [a, b] : {std::pair{i - 1, j}, {i - 1, j - 1}, {i, j - 1}, {i + 1, j - 1}}) {
        relax(i, j, a, b);
      }
    }
  }
  for (int j = ny - 1; j >= 0; --j) {
    for (int i = nx - 1; i >= 0; --i) {
      for (const auto& [a, b] : {std::pair{i + 1, j}, {i + 1, j + 1}, {i, j + 1}, {i - 1, j + 1}}) {
        relax(i, j, a, b);
      }
    }
  }
  return d;
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
  clearance_ = clearance_field(nx, ny, occupied, max_jump);
  inv_cell_ = cell.cwiseInverse();
}

Eigen::Vector2d GridCaster::upper() const {
  return {origin_.x() + nx_ * cell_.x(), origin_.y() + ny_ * cell_.y()};
}

GridHit GridCaster::cast_yaw(const Eigen::Vector3d& origin, double yaw, double max_distance) const {
  return cast(origin, {std::cos(yaw), std::sin(yaw), 0.0}, max_distance);
}

GridHit GridCaster::cast(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
                         double max_distance) const {
  double t0 = 0.0, t1 = max_distance;
  const Eigen::Vector2d hi = upper();
  const Eigen::Vector2d inv(1.0 / direction.x(), 1.0 / direction.y());  // +-inf along an axis
  clip_axis(origin.x(), direction.x(), inv.x(), origin_.x(), hi.x(), t0, t1);
  clip_axis(origin.y(), direction.y(), inv.y(), origin_.y(), hi.y(), t0, t1);
  if (!(t0 <= t1)) return {};
  return walk(origin, direction, inv, t0, t1);
}

double GridCaster::enter_extent(double oz, double dz, double ta, double tb) const {
  if (dz == 0.0) return oz >= z_min_ && oz <= z_max_ ? ta : kInf;
  double za = (z_min_ - oz) / dz, zb = (z_max_ - oz) / dz;
  if (za > zb) std::swap(za, zb);
  const double t = std::max(ta, za);
  return t <= std::min(tb, zb) ? t : kInf;
}

GridHit GridCaster::walk(const Eigen::Vector3d& o, const Eigen::Vector3d& d,
                         const Eigen::Vector2d& inv, double t0, double t1) const {
  const double px = o.x() + t0 * d.x(), py = o.y() + t0 * d.y();
  int i = cell_of_scaled((px - origin_.x()) * inv_cell_.x(), 0, nx_ - 1);
  int j = cell_of_scaled((py - origin_.y()) * inv_cell_.y(), 0, ny_ - 1);
  const int si = d.x() > 0.0 ? 1 : -1, sj = d.y() > 0.0 ? 1 : -1;
  const double inv_x = inv.x(), inv_y = inv.y();
  // The face a ray entering the current cell crossed (none yet: it starts inside).
  Eigen::Vector3d normal = Eigen::Vector3d::Zero();
  const Eigen::Vector3d normal_x(-si, 0.0, 0.0), normal_y(0.0, -sj, 0.0);
  auto hit_at = [&](double ta, double tb, const Eigen::Vector3d& n) -> GridHit {
    const double t = enter_extent(o.z(), d.z(), ta, tb);
    if (t == kInf) return {};
    return {t, t > ta ? Eigen::Vector3d(0.0, 0.0, d.z() > 0.0 ? -1.0 : 1.0) : n};
  };
  auto occupied_at = [&](int a, int b) {
    return a >= 0 && a < nx_ && b >= 0 && b < ny_ && clearance(a, b) == 0;
  };
  // The column / row the ray is in at t, within [lo, hi] (the square it leaves).
  auto column_at = [&](double at, int lo, int hi) {
    return cell_of_scaled((o.x() + at * d.x() - origin_.x()) * inv_cell_.x(), lo, hi);
  };
  auto row_at = [&](double at, int lo, int hi) {
    return cell_of_scaled((o.y() + at * d.y() - origin_.y()) * inv_cell_.y(), lo, hi);
  };
  double t = t0;
  while (true) {
    const int k = clearance(i, j);
    // The free square [i - r, i + r] x [j - r, j + r] around the cell (r = k - 1; just the cell
    // when it is occupied or next to an occupied one); the ray leaves it at tx or ty.
    const int r = k > 0 ? k - 1 : 0;
    const int edge_i = i + si * r, edge_j = j + sj * r;  // its far column and row
    const double tx =
        d.x() == 0.0 ? kInf : (origin_.x() + (edge_i + (si > 0)) * cell_.x() - o.x()) * inv_x;
    const double ty =
        d.y() == 0.0 ? kInf : (origin_.y() + (edge_j + (sj > 0)) * cell_.y() - o.y()) * inv_y;
    const double t_exit = std::min(tx, ty);  // a cell beyond it can still be hit at t1
    if (k == 0) {
      const GridHit h = hit_at(t, std::max(t, std::min(t_exit, t1)), normal);
      if (h.hit()) return h;
    }
    if (t_exit > t1) return {};
    const double t_next = std::max(t, t_exit);
    if (tx < ty) {
      i = edge_i + si;
      if (r > 0) j = clamp_index(row_at(tx, j - r, j + r), 0, ny_ - 1);
      normal = normal_x;
    } else if (ty < tx) {
      j = edge_j + sj;
      if (r > 0) i = clamp_index(column_at(ty, i - r, i + r), 0, nx_ - 1);
      normal = normal_y;
    } else {
      // Through the square's corner: the two cells beside the diagonal one touch the ray there
      // too (closed squares).
      if (occupied_at(edge_i + si, edge_j)) return hit_at(t_next, t_next, normal_x);
      if (occupied_at(edge_i, edge_j + sj)) return hit_at(t_next, t_next, normal_y);
      i = edge_i + si;
      j = edge_j + sj;
      normal = normal_x;
    }
    if (i < 0 || i >= nx_ || j < 0 || j >= ny_) return {};
    t = t_next;
  }
}

}  // namespace ubot::scene
