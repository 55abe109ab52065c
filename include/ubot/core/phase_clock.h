#pragma once
// Wall time spent in the phases of a step, measured only when asked (ubot run --timings,
// Simulation.timings()): a profile users can read without a profiler, and what the scaling
// benchmark plots. Off, it costs a branch per phase.
#include <chrono>
#include <cstdint>

namespace ubot {

// Adds the wall time from its construction to its destruction to *total, if total is set.
class PhaseClock {
 public:
  explicit PhaseClock(std::int64_t* total)
      : total_(total), start_(total ? std::chrono::steady_clock::now() : Point{}) {}
  PhaseClock(const PhaseClock&) = delete;
  PhaseClock& operator=(const PhaseClock&) = delete;
  ~PhaseClock() {
    if (total_) {
      *total_ += std::chrono::duration_cast<std::chrono::nanoseconds>(
                     std::chrono::steady_clock::now() - start_)
                     .count();
    }
  }

 private:
  using Point = std::chrono::steady_clock::time_point;
  std::int64_t* total_;
  Point start_;
};

}  // namespace ubot
