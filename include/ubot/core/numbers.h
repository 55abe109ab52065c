#pragma once

#include <limits>

namespace ubot {

// "No hit" / "no bound": the range of a ray that meets nothing, an unset limit. One definition
// for every component (each file had its own, and unity builds join files into one unit).
inline constexpr double kInf = std::numeric_limits<double>::infinity();

// The one limit every number of a world obeys (positions, lengths, angles, times), from its file
// or set while it runs (Python's set_state / set_goals): beyond it a value is nonsense, and sums
// of such values could leave the range Embree's ray checks accept.
inline constexpr double kMaxMagnitude = 1e9;

}  // namespace ubot
