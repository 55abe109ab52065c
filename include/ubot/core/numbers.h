#pragma once

#include <limits>

namespace ubot {

// "No hit" / "no bound": the range of a ray that meets nothing, an unset limit. One definition
// for every component (each file had its own, and unity builds join files into one unit).
inline constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace ubot
