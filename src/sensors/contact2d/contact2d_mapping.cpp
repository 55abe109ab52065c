// The contact2d type's piece of lidar maps (compiled into the mapping_sim library): none.
#include "ubot/mapping/accumulator.h"
#include "ubot/sensors/contact2d/contact2d.h"
#include "ubot/sensors/contact2d/contact2d_sinks.h"

namespace ubot::mapping {

std::optional<double> map_range_max(const Contact2d&) { return std::nullopt; }

PointBatch map_batch(const Contact2d&, int) { return {}; }  // never a map target

}  // namespace ubot::mapping
