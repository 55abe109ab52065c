// The camera type's piece of lidar maps (compiled into the mapping_sim library): none, maps never
// take points from it.
#include <algorithm>
#include <cmath>

#include "ubot/mapping/accumulator.h"
#include "ubot/sensors/camera/camera.h"
#include "ubot/sensors/camera/camera_sinks.h"

namespace ubot::mapping {

std::optional<double> map_range_max(const Camera&) { return std::nullopt; }

PointBatch map_batch(const Camera&, int) { return {}; }  // never a map target

}  // namespace ubot::mapping
