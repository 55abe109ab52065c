#pragma once
// Reading an IR-SIM trace: what IR-SIM itself did on a world, step by step, with sensor and
// motion noise off (tests/data/irsim_traces/*.json, made by IR-SIM's own code through the trace
// maker tests/irsim_parity/dump.py, or made live by live_traces.py; see docs/irsim-parity.md).
// The layout is dump.py's:
//   meta     {irsim_version, irsim_commit, world_file, seed, steps, step_time, ...}
//   objects  [{id, name, role, kinematics, static, radius, state, goal, wheelbase,
//              original_geometry}]
//   sensors  [{obj_id, index, type, range_min, range_max, angles}]
//   frames   [{step, time, done, objects [{id, state, velocity, velocity_xy, collision, arrive,
//              stop}], sensors [{obj_id, index, origin, ranges, valid, radial_velocity?}]}]
// Frame 0 is the initial state (no scans); frame k follows the k-th env.step(). Frames list the
// non-static objects only. Python's json writes shortest round-trip floats, so every number is
// IR-SIM's double exactly.
#include <nlohmann/json.hpp>

#include <Eigen/Core>

#include <optional>
#include <string>
#include <vector>

namespace ubot::irsim_parity {

struct TraceObjectFrame {
  int id = 0;
  std::vector<double> state, velocity, velocity_xy;
  bool collision = false, arrive = false, stop = false;
};

struct TraceScan {
  int object_id = 0, index = 0;
  std::vector<double> origin;  // [x, y, yaw] of the sensor in the world
  std::vector<double> ranges;
  std::vector<bool> valid;                // fmcw: IR-SIM's mask; lidar2d: range < range_max
  std::vector<double> radial_velocity;    // fmcw_lidar2d only
  std::vector<Eigen::Vector2d> velocity;  // lidar2d with has_velocity: [vx, vy] per beam
};

struct TraceFrame {
  int step = 0;
  double time = 0.0;
  bool done = false;
  std::vector<TraceObjectFrame> objects;
  std::vector<TraceScan> scans;
};

struct TraceObject {
  int id = 0;
  std::string name, kinematics;
  bool is_static = false;
  std::vector<double> state, goal;
  std::optional<double> wheelbase;  // the shape's wheelbase (IR-SIM's obj.wheelbase)
  double radius = 0.0;              // IR-SIM's obj.radius: the outline's minimum bounding radius
  // The body-frame outline IR-SIM built (a closed ring repeats its first vertex).
  std::vector<Eigen::Vector2d> outline;
};

struct TraceSensor {
  int object_id = 0, index = 0;
  std::string type;
  double range_min = 0.0, range_max = 0.0;
  std::vector<double> angles;  // beam angles in the sensor frame
};

struct Trace {
  std::string irsim_version, irsim_commit, world_file;
  double step_time = 0.0;
  std::vector<TraceObject> objects;  // all objects, by id
  std::vector<TraceSensor> sensors;
  std::vector<TraceFrame> frames;
};

// The IR-SIM release the parity is pinned to: the committed traces were made with it and the
// test venv installs it (requirements/test.txt; PinnedIrsim.IsTheTestRequirementsPin checks the
// two agree). Every trace a test compares with, committed or live, must come from it.
inline constexpr const char* kPinnedIrsimVersion = "2.12.0";

// Reads a trace file; throws std::runtime_error naming the file when it cannot.
Trace read_trace(const std::string& path);

// The trace file to test `name` against: $UBOT_IRSIM_TRACES/<name>.json when that variable is
// set and the file exists (a live trace: made by the installed IR-SIM through
// tests/irsim_parity/live_traces.py, whose manifest.json in that folder names the IR-SIM
// version), else the committed tests/data/irsim_traces/<name>.json. Prints one line saying
// which, e.g. "[trace] lidar_world <- live IR-SIM 2.12.0" or "[trace] lidar_world <- committed
// (not made live: <live_traces.py's reason>)", so the log shows what each test compared with.
std::string find_trace(const std::string& name);

}  // namespace ubot::irsim_parity
