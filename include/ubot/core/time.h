#pragma once
// Simulation time is integer nanoseconds: rates become exact periods, never truncated
// milliseconds, and sums of steps do not drift.
#include <cmath>
#include <cstdint>

namespace ubot {

using Nanos = std::int64_t;
inline constexpr Nanos kNanosPerSecond = 1'000'000'000;

// Nearest whole nanosecond to `seconds`.
inline Nanos seconds_to_nanos(double seconds) { return std::llround(seconds * 1e9); }
// Division (not multiplication by 1e-9) so that e.g. 300000000 ns reads back as exactly 0.3.
inline double nanos_to_seconds(Nanos ns) { return static_cast<double>(ns) / 1e9; }
// Period of a rate in Hz, rounded to the nearest nanosecond.
inline Nanos period_from_rate(double hz) { return std::llround(1e9 / hz); }

}  // namespace ubot
