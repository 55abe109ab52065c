#pragma once
// A consumer of a run (frames.jsonl, MCAP, the ROS 2 bridge, pictures, maps, ...): told once
// when the run starts, after every step, and once when it ends. A sink only reads the
// simulation; a run holds a list of them and calls each in list order.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace ubot {

class Simulation;

struct StepInfo {
  std::int64_t step = 0;  // steps taken so far (the world's step_count)
  bool last = false;      // no step follows
};

class Sink {
 public:
  virtual ~Sink() = default;
  // Before the first step, the simulation at time 0.
  virtual void on_start(const Simulation& /*sim*/) {}
  // After each step.
  virtual void on_step(const Simulation& sim, const StepInfo& step) = 0;
  // After the last step: files are finished here (ubot::Error on a write failure).
  virtual void on_finish(const Simulation& /*sim*/) {}
  // A summary for the user at the end of the run (nothing by default).
  virtual void report(std::FILE* /*out*/) const {}
  // What a stop signal made this sink leave out to end within its budget (ubot/core/stop.h),
  // one phrase each ("world.png not drawn"); the run says them with its stop line.
  virtual std::vector<std::string> skipped() const { return {}; }
};

}  // namespace ubot
