#pragma once
// How cast_fan()'s beams were given (Scene::cast_fan's two forms), as the fan path reads them.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>

#include "ubot/scene/fan_table.h"

namespace ubot::scene::internal {

// cast_fan()'s beams, however they were given: beam i's yaw is heading.yaw + index_yaws[i], its
// direction (cos, sin) of its yaw where the yaws were given, the table's turned by the heading
// where a FanTable was.
struct FanRays {
  std::span<const double> index_yaws;  // the yaws themselves (heading 0) or the table's angles
  const FanTable* table = nullptr;
  FanTable::Heading heading;
  bool sorted = true;        // index_yaws ascending
  double max_abs_yaw = 0.0;  // at least every |heading.yaw + index_yaws[i]|

  void direction(std::uint32_t i, double* dx, double* dy) const {
    if (table != nullptr) {
      *dx = table->dx(heading, i);
      *dy = table->dy(heading, i);
    } else {
      const double yaw = index_yaws[i];  // one load: cos and sin of it fuse into sincos
      *dx = std::cos(yaw);
      *dy = std::sin(yaw);
    }
  }
};

// One pass over a fan's yaws: the largest magnitude (for pads) and whether they are sorted.
struct YawSummary {
  double max_abs = 0.0;
  bool sorted = true;
};

inline YawSummary summarize(std::span<const double> yaws) {
  YawSummary y;
  for (std::size_t i = 0; i < yaws.size(); ++i) {
    y.max_abs = std::max(y.max_abs, std::abs(yaws[i]));
    if (i > 0 && yaws[i] < yaws[i - 1]) y.sorted = false;
  }
  return y;
}

// Beams given by their yaws: (cos, sin) of each.
inline FanRays fan_of_yaws(std::span<const double> yaws) {
  const YawSummary y = summarize(yaws);
  return {.index_yaws = yaws,
          .table = nullptr,
          .heading = {},
          .sorted = y.sorted,
          .max_abs_yaw = y.max_abs};
}

// Beams given by a table and a heading: its directions turned by one sincos.
inline FanRays fan_of_table(const FanTable& table, double heading) {
  return {.index_yaws = table.angles(),
          .table = &table,
          .heading = FanTable::heading(heading),
          .sorted = table.sorted(),
          .max_abs_yaw = std::abs(heading) + table.max_abs_angle()};
}

}  // namespace ubot::scene::internal
