#include "ubot/media/medium.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "ubot/core/numbers.h"

namespace ubot::media {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
// Angular slack of the fan's bearing test: far above the rounding of atan2/asin (~1e-16), far
// below any beam spacing, so no ray that meets a cell is ever left out.
constexpr double kBearingSlack = 1e-9;

bool seen_by(const MediumSnapshot& s, const SmokeSettings& settings) {
  if (!s.usable()) return false;
  // Legacy tag path: only for sensors that look for this tag ("" switches the path off).
  return s.legacy_tag.empty() || s.legacy_tag == settings.smoke_volume_tag;
}

}  // namespace

double entry_distance(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
                      const Eigen::Vector3d& center, double radius, double max_distance) {
  const Eigen::Vector3d m = origin - center;
  const double c = m.squaredNorm() - radius * radius;
  if (c <= 0.0) return 0.0;  // inside or on the sphere
  const double b = m.dot(direction);
  if (b >= 0.0) return kInf;  // outside and pointing away
  const double disc = b * b - c;
  if (disc < 0.0) return kInf;
  // Entry root -b - sqrt(disc), written as c / (-b + sqrt(disc)) to avoid cancellation when
  // the sphere is small and far.
  const double t = c / (-b + std::sqrt(disc));
  return t <= max_distance ? t : kInf;
}

MediaView::MediaView(std::span<const MediumSnapshot> snapshots, const SmokeSettings& settings)
    : MediaView(snapshots, settings, Eigen::Vector3d::Zero(), kInf) {}

MediaView::MediaView(std::span<const MediumSnapshot> snapshots, const SmokeSettings& settings,
                     const Eigen::Vector3d& origin, double max_distance) {
  if (!settings.enable_smoke_interference) return;
  const double scale = settings.radius_scale();
  for (std::size_t s = 0; s < snapshots.size(); ++s) {
    if (!seen_by(snapshots[s], settings)) continue;
    const std::vector<MediumCell>& cells = snapshots[s].cells;
    for (std::size_t k = 0; k < cells.size(); ++k) {
      const MediumCell& cell = cells[k];
      if (cell.effective_density() < settings.smoke_density_threshold) continue;
      const double radius = cell.effective_radius() * scale;
      // |p - o| - r > max, without a square root for the many cells far away.
      const double reach = max_distance + radius;
      if ((cell.position - origin).squaredNorm() > reach * reach) continue;
      cells_.push_back({cell.position, radius, static_cast<int>(s), static_cast<int>(k)});
    }
  }
}

double MediaView::entry_distance(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
                                 double max_distance) const {
  double best = kInf;
  for (const Cell& c : cells_) {
    const double t = media::entry_distance(origin, direction, c.center, c.radius, max_distance);
    if (t < best) best = t;
  }
  return best;
}

MediaView MediaView::culled(const Eigen::Vector3d& origin, double max_distance) const {
  MediaView out;
  for (const Cell& c : cells_) {
    if ((c.center - origin).norm() - c.radius <= max_distance) out.cells_.push_back(c);
  }
  return out;
}

void MediaView::fan_entry_distances(const HorizontalFan& fan, std::span<double> distance,
                                    std::span<int> cell) const {
  const std::size_t n = fan.yaws.size();
  std::fill(distance.begin(), distance.begin() + n, kInf);
  std::fill(cell.begin(), cell.begin() + n, -1);
  if (cells_.empty() || n == 0) return;
  auto limit = [&](std::size_t i) {
    return fan.limits.empty() ? fan.max_distance : std::min(fan.limits[i], fan.max_distance);
  };
  // Ray directions, computed the first time a cell needs them (per-thread scratch: sensors
  // sample in parallel, and a scan must not allocate).
  thread_local std::vector<Eigen::Vector3d> dirs;
  thread_local std::vector<std::uint8_t> have_dir;
  dirs.resize(n);
  have_dir.assign(n, 0);
  auto test = [&](std::size_t i, int k, const Cell& c, double reach) {
    const double max = limit(i);
    if (reach > max) return;  // the cell lies beyond this ray's limit
    if (!have_dir[i]) {
      dirs[i] = {std::cos(fan.yaws[i]), std::sin(fan.yaws[i]), 0.0};
      have_dir[i] = 1;
    }
    const double t = media::entry_distance(fan.origin, dirs[i], c.center, c.radius, max);
    if (t < distance[i]) {
      distance[i] = t;
      cell[i] = k;
    }
  };
  for (int k = 0; k < static_cast<int>(cells_.size()); ++k) {
    const Cell& c = cells_[k];
    const Eigen::Vector3d m = c.center - fan.origin;
    if (m.squaredNorm() - c.radius * c.radius <= 0.0) {  // inside: every ray enters at 0
      for (std::size_t i = 0; i < n; ++i) test(i, k, c, 0.0);
      continue;
    }
    const double reach = m.norm() - c.radius;  // no ray enters the cell closer than this
    if (reach > fan.max_distance) continue;
    // The scan plane meets the sphere in a disc of radius sqrt(rho2) around the centre's foot.
    const double rho2 = c.radius * c.radius - m.z() * m.z();
    if (rho2 < 0.0) continue;
    const double d = std::hypot(m.x(), m.y());
    const double half = (rho2 >= d * d ? std::numbers::pi / 2.0 : std::asin(std::sqrt(rho2) / d)) +
                        fan.jitter + kBearingSlack;
    if (n == 1 || fan.step <= 0.0 || half >= std::numbers::pi) {
      for (std::size_t i = 0; i < n; ++i) test(i, k, c, reach);
      continue;
    }
    // Rays whose nominal yaw lies within `half` of the cell's bearing, with the bearing taken
    // relative to the first ray in [0, 2π) and tried one turn either side for wrap-around.
    double rel = std::atan2(m.y(), m.x()) - fan.first_yaw;
    rel -= kTwoPi * std::floor(rel / kTwoPi);
    for (const double shift : {-kTwoPi, 0.0, kTwoPi}) {
      const double lo = (rel + shift - half) / fan.step, hi = (rel + shift + half) / fan.step;
      if (hi < 0.0 || lo > static_cast<double>(n - 1)) continue;
      const std::size_t i0 = static_cast<std::size_t>(std::max(0.0, std::ceil(lo)));
      const std::size_t i1 =
          static_cast<std::size_t>(std::min(static_cast<double>(n - 1), std::floor(hi)));
      for (std::size_t i = i0; i <= i1; ++i) test(i, k, c, reach);
    }
  }
}

}  // namespace ubot::media
