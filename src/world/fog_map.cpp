#include "ubot/world/fog_map.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace ubot {

FogMap::FogMap(double width, double height, double resolution, const Eigen::Vector2d& offset)
    : offset_(offset) {
  // std::nearbyint rounds half to even in the default rounding mode, as Python's round().
  nx_ = std::max(1, static_cast<int>(std::nearbyint(width / resolution)));
  ny_ = std::max(1, static_cast<int>(std::nearbyint(height / resolution)));
  rx_ = width / nx_;
  ry_ = height / ny_;
  explored_.assign(static_cast<std::size_t>(nx_) * ny_, 0);
}

double FogMap::explored_ratio() const {
  return explored_.empty()
             ? 0.0
             : static_cast<double>(explored_count_) / static_cast<double>(explored_.size());
}

void FogMap::mark(double x, double y) {
  const double gx = std::floor((x - offset_.x()) / rx_), gy = std::floor((y - offset_.y()) / ry_);
  if (!(gx >= 0 && gx < nx_ && gy >= 0 && gy < ny_)) return;
  std::uint8_t& cell = explored_[static_cast<std::size_t>(gx) * ny_ + static_cast<std::size_t>(gy)];
  explored_count_ += cell == 0;
  cell = 1;
}

void FogMap::reveal_from_lidar(const Eigen::Vector3d& pose, std::span<const double> angles,
                               std::span<const double> ranges) {
  if (!enabled() || angles.empty() || ranges.empty()) return;
  const double max_range = *std::max_element(ranges.begin(), ranges.end());
  if (!(max_range > 0.0)) return;
  // The same sample distances for every beam (IR-SIM's arange), each clamped to its range.
  const double step = 0.5 * std::min(rx_, ry_);
  const long samples = static_cast<long>(max_range / step) + 2;
  for (std::size_t i = 0; i < std::min(angles.size(), ranges.size()); ++i) {
    const double yaw = pose.z() + angles[i];
    const double c = std::cos(yaw), s = std::sin(yaw);
    for (long k = 0; k < samples; ++k) {
      const double d = std::min(static_cast<double>(k) * step, ranges[i]);
      mark(pose.x() + d * c, pose.y() + d * s);
    }
  }
}

void FogMap::reveal_fov(const Eigen::Vector3d& pose, double fov, double radius) {
  if (!enabled() || !(radius > 0.0) || !(fov > 0.0)) return;
  const double x0 = pose.x(), y0 = pose.y(), theta = pose.z();
  // IR-SIM's window of cells, with Python's int() (towards zero).
  auto to_int = [](double v) { return static_cast<long>(std::trunc(v)); };
  const long gx0 = std::max(0L, to_int((x0 - radius - offset_.x()) / rx_));
  const long gx1 = std::min<long>(nx_, to_int((x0 + radius - offset_.x()) / rx_) + 1);
  const long gy0 = std::max(0L, to_int((y0 - radius - offset_.y()) / ry_));
  const long gy1 = std::min<long>(ny_, to_int((y0 + radius - offset_.y()) / ry_) + 1);
  const double half = 0.5 * fov, cos_half = std::cos(half);
  const bool sector = fov < 2.0 * std::numbers::pi;
  for (long i = gx0; i < gx1; ++i) {
    for (long j = gy0; j < gy1; ++j) {
      const double dx = offset_.x() + (static_cast<double>(i) + 0.5) * rx_ - x0;
      const double dy = offset_.y() + (static_cast<double>(j) + 0.5) * ry_ - y0;
      const double dist_sq = dx * dx + dy * dy;
      if (!(dist_sq <= radius * radius)) continue;
      if (sector) {
        if (cos_half >= 0.0) {  // fov <= pi: the projection on the heading decides
          const double proj = dx * std::cos(theta) + dy * std::sin(theta);
          if (!(proj >= 0.0 && proj * proj >= cos_half * cos_half * dist_sq)) continue;
        } else {
          const double bearing =
              std::abs(std::fmod(std::fmod(std::atan2(dy, dx) - theta + std::numbers::pi,
                                           2.0 * std::numbers::pi) +
                                     2.0 * std::numbers::pi,
                                 2.0 * std::numbers::pi) -
                       std::numbers::pi);
          if (!(bearing <= half)) continue;
        }
      }
      std::uint8_t& cell =
          explored_[static_cast<std::size_t>(i) * ny_ + static_cast<std::size_t>(j)];
      explored_count_ += cell == 0;
      cell = 1;
    }
  }
}

}  // namespace ubot
