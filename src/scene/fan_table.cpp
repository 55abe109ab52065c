#include "ubot/scene/fan_table.h"

#include <algorithm>
#include <string>

#include "scene_error.h"

namespace ubot::scene {

FanTable::FanTable(std::vector<double> angles) : angles_(std::move(angles)) {
  const std::size_t n = angles_.size();
  cos_.resize(n);
  sin_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double a = angles_[i];
    if (!std::isfinite(a)) fail("FanTable: angle " + std::to_string(i) + " is not finite");
    cos_[i] = std::cos(a);
    sin_[i] = std::sin(a);
    max_abs_ = std::max(max_abs_, std::abs(a));
    if (i > 0 && a < angles_[i - 1]) sorted_ = false;
  }
}

}  // namespace ubot::scene
