// The lidar3d type's piece of lidar maps (compiled into the mapping_sim library): its sweep's
// points.
#include <algorithm>
#include <cmath>

#include "ubot/mapping/accumulator.h"
#include "ubot/sensors/lidar3d/lidar3d.h"
#include "ubot/sensors/lidar3d/lidar3d_sinks.h"

namespace ubot::mapping {

PointBatch batch_from_sweep(const Lidar3d& lidar, int scanner) {
  const LidarSweep& s = lidar.sweep();
  PointBatch b;
  b.scanner = scanner;
  b.origin_W = s.pose.position;
  b.range_max = lidar.params().range_max;
  b.points_W = s.points_world;
  b.intensities.reserve(s.points.size());
  for (const LidarPoint& p : s.points) {
    const double intensity = std::clamp(static_cast<double>(p.intensity), 0.0, 1.0);
    b.intensities.push_back(static_cast<std::uint16_t>(std::lround(intensity * 65535.0)));
  }
  return b;
}

std::optional<double> map_range_max(const Lidar3d& lidar) { return lidar.params().range_max; }

PointBatch map_batch(const Lidar3d& lidar, int scanner) { return batch_from_sweep(lidar, scanner); }

}  // namespace ubot::mapping
