// The imu type's piece of lidar maps (compiled into the mapping_sim library): none, maps never take
// points from it.
#include <algorithm>
#include <cmath>

#include "ubot/mapping/accumulator.h"
#include "ubot/sensors/imu/imu.h"
#include "ubot/sensors/imu/imu_sinks.h"

namespace ubot::mapping {

std::optional<double> map_range_max(const Imu&) { return std::nullopt; }

PointBatch map_batch(const Imu&, int) { return {}; }  // never a map target

}  // namespace ubot::mapping
