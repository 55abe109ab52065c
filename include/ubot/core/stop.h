#pragma once
// A request to stop the run, from a signal (SIGINT / SIGTERM in `ubot run`), read by long work
// wherever it can stop cleanly: loading a world, building its scene, a step's behaviours and
// sensors, drawing and encoding pictures, writing outputs. One process-wide flag, as a signal
// is process-wide; request_stop() is async-signal-safe (lock-free atomics only), so a signal
// handler calls it directly.
//
// Two budgets follow the request:
// - Work before the end of the run (loading, building, stepping) stops at once: check
//   stop_requested() and throw Stopped, or return early leaving the state as it was.
// - Finishing work after it (closing files, drawing world.png, encoding run.gif) goes on while
//   finish_time_left() is positive: a signal must end the run within kStopBudgetNs, and every
//   output left must be valid. Work that would overrun is cut short and says so.
#include <cstdint>

namespace ubot {

// From the signal to the process's exit: the most a stop may take (SPEC: 2 s). Finishing work
// gets this minus a margin for closing files and printing the summary.
inline constexpr std::int64_t kStopBudgetNs = 2'000'000'000;
inline constexpr std::int64_t kFinishBudgetNs = 1'500'000'000;

// Records `signal` (the first one wins) and the monotonic time it came.
void request_stop(int signal) noexcept;
// The signal asked to stop with, 0 if none.
int stop_requested() noexcept;
// Forgets a request (a new run, a test).
void clear_stop() noexcept;
// Nanoseconds of the finishing budget left since the request (kFinishBudgetNs when none was
// made; may be negative once overrun).
std::int64_t finish_time_left_ns() noexcept;
// True when a stop was requested and its finishing budget is spent: optional finishing work
// (a picture, a GIF frame) is skipped from here on.
bool finish_budget_spent() noexcept;

// Thrown by work that cannot give a partial result when a stop is requested (loading, building
// the scene, a step cut short before it changed the state).
struct Stopped {
  int signal;
};
// Throws Stopped when a stop was requested.
void throw_if_stop_requested();

}  // namespace ubot
