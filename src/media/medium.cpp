#include "ubot/media/medium.h"

#include <cmath>

namespace ubot::media {

double entry_distance(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
                      const Eigen::Vector3d& center, double radius, double max_distance) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
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

MediaView::MediaView(std::span<const MediumSnapshot> snapshots, const SmokeSettings& settings) {
  if (!settings.enable_smoke_interference) return;
  const double scale = settings.radius_scale();
  for (std::size_t s = 0; s < snapshots.size(); ++s) {
    if (!snapshots[s].usable()) continue;
    for (const MediumCell& cell : snapshots[s].cells) {
      if (cell.effective_density() < settings.smoke_density_threshold) continue;
      cells_.push_back({cell.position, cell.effective_radius() * scale, static_cast<int>(s)});
    }
  }
}

double MediaView::entry_distance(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
                                 double max_distance) const {
  double best = std::numeric_limits<double>::infinity();
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

}  // namespace ubot::media
