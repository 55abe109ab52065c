#include "ubot/scene/fan_table.h"

#include <string>

#include "fan_rays.h"
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
  }
  const internal::YawSummary summary = internal::summarize(angles_);
  sorted_ = summary.sorted;
  max_abs_ = summary.max_abs;
}

}  // namespace ubot::scene
