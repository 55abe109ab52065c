// The imu type's drawing (compiled into the viz library): nothing (its plot is imu_plot_viz.cpp).
#include <algorithm>
#include <cmath>

#include "ubot/render/drawing.h"
#include "ubot/sensors/imu/imu.h"
#include "ubot/sensors/imu/imu_sinks.h"

namespace ubot::viz {

render::BeamsDrawing sensor_beams(const Imu&, std::size_t) { return {}; }

std::optional<std::size_t> beam_count(const Imu&) { return std::nullopt; }

}  // namespace ubot::viz
