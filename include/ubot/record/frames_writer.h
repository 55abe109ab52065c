#pragma once
// frames.jsonl: the run's record, one JSON object per line (an interface users' tools read;
// documented in the README, extended but never renamed).
//   line 1: header {"ubot", "world", "seed", "step_time", "objects": [...], "sensors": [...],
//                   "media": [...]}
//   then one line per recorded step k >= 1, after the k-th step:
//   {"step", "time", "objects": [{"id", "state", "velocity", "collision", "arrive", "stop"}],
//    "sensors": [{"object_id", "index", "type", "sequence", "stamp", "status", "origin",
//                 "ranges", "valid", "intensities"(, "radial_velocity")}        (lidars)
//                {"object_id", "index", "type", "sequence", "stamp", "valid", "status",
//                 "orientation", "angular_velocity", "linear_acceleration",
//                 "angular_velocity_variance", "linear_acceleration_variance"}    (imu)
//               ](, "media": [...])}
// Doubles are written in full precision (shortest round-trip form).
#include <cstdio>
#include <string>

#include "ubot/core/json_writer.h"
#include "ubot/sim/simulation.h"

namespace ubot {

class FramesWriter {
 public:
  // Opens `path` and writes the header line. Throws ubot::Error when the file cannot be written.
  FramesWriter(const std::string& path, const Simulation& sim);
  ~FramesWriter();
  FramesWriter(const FramesWriter&) = delete;
  FramesWriter& operator=(const FramesWriter&) = delete;

  // Appends the current step's line.
  void write_step(const Simulation& sim);
  // Flushes and closes; throws ubot::Error on a write error (e.g. a full disk).
  void close();

 private:
  void write_line();
  std::string path_;
  std::FILE* file_ = nullptr;
  JsonWriter json_;
};

}  // namespace ubot
