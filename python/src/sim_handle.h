#pragma once
// The C++ side of ubot.Simulation: a ubot::Simulation plus what the Python API needs around it
// (name lookup, the command buffer, the closed flag, the outputs being recorded).
//
// Lifetime (docs/python.md, "Views"): numpy views of sensor outputs point into the Simulation's
// storage and hold a reference to the Python object, so the Simulation lives as long as any
// view does; close() finishes the outputs and refuses further use, but frees nothing.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ubot/live/live_view.h"
#include "ubot/sim/simulation.h"
#include "ubot/sim/sink.h"

namespace ubot::python {

class SimHandle : public std::enable_shared_from_this<SimHandle> {
 public:
  SimHandle(WorldModel model, int threads);
  ~SimHandle();

  // The simulation; ubot.Error when closed or in the middle of a step.
  Simulation& sim();
  const Simulation& sim() const;
  bool closed() const { return closed_; }
  // Finishes the recorded outputs (once) and marks the simulation closed.
  void close();

  // The object id of a name (str) or an id (int); ValueError when there is none.
  int object_id(const pybind11::handle& name_or_id) const;
  // The index into sim().sensors() of object `id`'s sensor `name`; ValueError when none.
  std::size_t sensor_index(int id, const std::string& name) const;

  // One step with the given commands (None, dict or (n_robots, 2) array), the GIL released.
  void step(const pybind11::handle& commands);
  // `n` steps timed in C++ (benchmarks: the step without Python's call overhead); returns the
  // wall seconds they took.
  double bench_step(std::int64_t n);
  void reset(std::optional<std::uint64_t> seed);

  // Adds a sink told of every later step; finished by close().
  void add_sink(std::unique_ptr<Sink> sink);
  // Adds a sink of the recording (record()): finished by close() or finish_recording().
  void add_recording_sink(std::unique_ptr<Sink> sink);
  // Where record() writes while it records (one recording at a time).
  std::optional<std::string>& recording() { return recording_; }
  // A recording covers one continuous run: reset(), restore() and load_state() finish it (every
  // file complete) before the state jumps back, so that no file's steps and times go backwards;
  // record() may then start another (docs/python.md, "Recording").
  void finish_recording();

  // Serves the live page and the Foxglove protocol on `address` ("[HOST:]PORT"); returns the
  // page's URL. From then on each step() waits while a client has paused the run, and the
  // commands clients send (teleop) drive their robots over the step's own commands.
  std::string serve(const std::string& address, const std::string& token);
  std::optional<std::string> live_url() const;

  // The Python object of this handle, for numpy views' base (keeps it alive).
  pybind11::object owner() { return pybind11::cast(shared_from_this()); }

  // What the world was loaded from, for pickling (docs/python.md, "Snapshots, state files and
  // pickling"): the YAML text, the name it was loaded under (the file's path as given, or
  // <base_dir>/<string>: relative files in it resolve against that name's folder), the directory
  // current then (a relative name is relative to it) and the thread count. Unset: the
  // simulation does not pickle.
  struct Source {
    std::string text;
    std::string name;
    std::string cwd;
    int threads = 0;
    std::optional<std::string> step_mode;  // the load's override of world.step_mode, if any
    bool host_behaviors = false;           // LoadOptions::host_behaviors
  };
  std::optional<Source>& source() { return source_; }
  // Why the simulation must not pickle although its world would (set from Python by a layer
  // that runs part of the world itself, e.g. ubot.irsim's Python behaviours); empty: it may.
  std::string& pickle_refusal() { return pickle_refusal_; }
  // How many medium providers were added from Python (add_medium_provider): their state lives
  // in Python, so the simulation does not pickle.
  int& added_providers() { return added_providers_; }

 private:
  void parse_commands(const pybind11::handle& commands);
  void parse_command_array(const pybind11::handle& commands);
  void parse_command_dict(const pybind11::dict& commands);
  // n steps; with a live view, each waits for its turn there (pace, pause) and takes the live
  // clients' commands where they drive. A signal pending in Python (Ctrl-C) raises.
  void run_steps(std::int64_t n, bool with_commands);

  std::unique_ptr<Simulation> sim_;
  std::map<std::string, int, std::less<>> ids_;
  std::vector<Command> commands_;         // one per object, reused
  std::unique_ptr<live::LiveView> live_;  // before sinks_: its sink goes first
  std::vector<std::unique_ptr<Sink>> sinks_;
  std::vector<std::unique_ptr<Sink>> recording_sinks_;  // after sinks_: told of a step after them
  std::optional<std::string> recording_;
  std::optional<Source> source_;
  std::string pickle_refusal_;
  int added_providers_ = 0;
  bool closed_ = false;
  std::atomic<bool> busy_{false};  // a step runs (on another Python thread: the GIL is released)
};

// A read-only numpy array of shape `shape` over `data` (C order), which `base` keeps alive.
pybind11::array readonly_view(const pybind11::dtype& dtype, std::vector<pybind11::ssize_t> shape,
                              const void* data, const pybind11::handle& base);

}  // namespace ubot::python
