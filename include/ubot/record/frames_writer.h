#pragma once
// frames.jsonl: the run's record, one JSON object per line (an interface users' tools read;
// documented in the README, extended but never renamed).
//   line 1: header {"ubot", "world", "seed", "step_time", "objects": [...], "sensors": [...],
//                   "media": [...]}
//   then one line per recorded step k >= 1, after the k-th step:
//   {"step", "time", "objects": [{"id", "state", "velocity", "collision", "arrive", "stop"
//                                 (, "fov_detected": ids, for objects with a field of view)}],
//    "sensors": [{"object_id", "index", "type", "sequence", "stamp", "status", "origin",
//                 "ranges", "valid", "intensities"(, "radial_velocity")}        (lidars)
//                {"object_id", "index", "type", "sequence", "stamp", "valid", "status",
//                 "orientation", "angular_velocity", "linear_acceleration",
//                 "angular_velocity_variance", "linear_acceleration_variance"}    (imu)
//                {"object_id", "index", "type", "sequence", "stamp", "status", "sweep_start",
//                 "origin", "point_count", "points_offset"}                      (lidar3d)
//                {"object_id", "index", "type", "sequence", "stamp", "status", "origin",
//                 "image", "medium_pixels"}                     (depth_camera, rgb_camera)
//               ](, "media": [...])}
// Doubles are written in full precision (shortest round-trip form). The points of lidar3d
// samples go to points.bin next to frames.jsonl (src/record/points_writer.h), not into JSON;
// camera images are PNG files (ubot/sensors/camera/camera_images.h) that camera entries name.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "ubot/core/json_writer.h"
#include "ubot/sim/simulation.h"

namespace ubot {

class BackgroundWriter;
class DirectOutput;
class PointsWriter;

// What a sensor type's frames.jsonl piece (write_frames_parameters / write_frames_sample,
// ubot/sensors/<type>/<type>_sinks.h) writes with: the line being written (the entry's common
// keys are already in it), the simulation, and points.bin (null when no lidar3d).
struct FramesContext {
  JsonWriter& json;
  const Simulation& sim;
  PointsWriter* points;
};

// frames.jsonl's header line (without its newline): the world's description, also stored in the
// Parquet record's key-value metadata (ubot/record/parquet_frames.h).
std::string frames_header_json(const Simulation& sim);

class FramesWriter {
 public:
  // Opens `path` and writes the header line (and, when the simulation has lidar3d sensors,
  // creates points.bin in the same directory). Throws ubot::Error when a file cannot be written.
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
  void write_sensor_entries(const Simulation& sim);
  void write_sensor_entry(JsonWriter& json, const Simulation& sim, int index);
  std::string path_;
  std::unique_ptr<DirectOutput> file_;
  JsonWriter json_;
  std::unique_ptr<PointsWriter> points_;
  std::unique_ptr<BackgroundWriter> background_;  // the lines, written off the step's thread
  std::vector<JsonWriter> pieces_;  // parallel pieces of the sensors array, reused every step
};

}  // namespace ubot
