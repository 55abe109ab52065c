// The lidar2d type's piece of lidar maps (compiled into the mapping_sim library): its valid beams
// as points.
#include <algorithm>
#include <cmath>

#include "ubot/mapping/accumulator.h"
#include "ubot/sensors/lidar2d/lidar2d.h"
#include "ubot/sensors/lidar2d/lidar2d_sinks.h"

namespace ubot::mapping {

PointBatch batch_from_scan(const Lidar2d& lidar, int scanner) {
  const LaserScan& scan = lidar.scan();
  PointBatch b;
  b.scanner = scanner;
  b.origin_W = {scan.origin.x(), scan.origin.y(), scan.z};
  b.range_max = lidar.params().range_max;
  const std::vector<double>& angles = lidar.angles();
  for (std::size_t i = 0; i < scan.ranges.size(); ++i) {
    if (!scan.valid[i]) continue;
    const double a = scan.origin.z() + angles[i];
    const double r = scan.ranges[i];
    b.points_W.emplace_back(scan.origin.x() + r * std::cos(a), scan.origin.y() + r * std::sin(a),
                            scan.z);
    const double intensity = std::clamp(static_cast<double>(scan.intensities[i]), 0.0, 1.0);
    b.intensities.push_back(static_cast<std::uint16_t>(std::lround(intensity * 65535.0)));
  }
  return b;
}

std::optional<double> map_range_max(const Lidar2d& lidar) { return lidar.params().range_max; }

PointBatch map_batch(const Lidar2d& lidar, int scanner) { return batch_from_scan(lidar, scanner); }

}  // namespace ubot::mapping
