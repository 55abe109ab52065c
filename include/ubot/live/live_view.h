#pragma once
// The live side of a run (docs/live.md): a LiveServer, the ROS 2 bridge over it (every channel
// of the MCAP recording, cmd_vel from Foxglove's Teleop panel or the page), the page's own JSON
// channels (/ubot/world once, /ubot/frame up to 30 times a second) and the run's controls
// (pause, single step, speed) as Foxglove parameters.
//
// Its cost to the simulation is bounded: messages are made only for channels some client
// subscribes to, and a frame for the page is made at most 30 times a second and only when the
// last one took under 2% of the time since (so a 10,000-robot world is shown less often, not
// run slower).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <span>
#include <string>

#include "ubot/live/live_server.h"
#include "ubot/live/live_transport.h"
#include "ubot/ros2/bridge.h"
#include "ubot/sim/simulation.h"
#include "ubot/sim/sink.h"
#include "ubot/viz/run_drawing.h"

namespace ubot::live {

// Pause, single steps and speed, set by clients (the server's thread) and obeyed by the run
// loop (the simulation's thread).
class LiveControl {
 public:
  explicit LiveControl(double speed) : speed_(speed) {}
  bool paused() const;
  // Steps per simulated second of real time: 1 = real time, 0 = as fast as possible.
  double speed() const;
  void set_paused(bool paused);
  void set_speed(double speed);
  // `n` more steps, then pause.
  void request_steps(int n);
  // Before each step: waits while paused and no step is requested, returning false when
  // `stop()` turns true (Ctrl-C) first. Returns true when the step may run.
  // `idle()` runs on the caller's thread each time the wait wakes (every 50 ms at most).
  bool wait_turn(const std::function<bool()>& stop, const std::function<void()>& idle = {});
  // Changes whenever pause or speed change (the pacer starts counting again).
  std::uint64_t generation() const;
  // Paused with no step left to take: the step just taken is the one the run rests on.
  bool resting() const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool paused_ = false;
  int steps_ = 0;
  double speed_;
  std::uint64_t generation_ = 0;
};

class LiveView {
 public:
  // Starts the server (ubot::Error: the port is in use, or a non-loopback address without a
  // token). `speed`: the run's pace at the start (0 = as fast as possible).
  LiveView(const Simulation& sim, LiveServerOptions options, double speed);
  ~LiveView();
  LiveView(const LiveView&) = delete;
  LiveView& operator=(const LiveView&) = delete;

  std::string url() const { return server_.url(); }
  LiveServer& server() { return server_; }
  LiveControl& control() { return control_; }
  // Before a step: waits while the run is paused (showing what changes meanwhile: the pause
  // itself, a new selection); false when `stop()` turns true first.
  bool wait_turn(const Simulation& sim, const std::function<bool()>& stop);
  // Before a step: the commands of the step, one per object: the ones clients sent, and `own`
  // (the run's other commands: DDS, Python's step()) where no client drives the object.
  std::span<const Command> commands(const Simulation& sim, std::span<const Command> own = {});
  // After each step (and once before the first): ROS 2 channels, the clock, the page's frame.
  void publish(const Simulation& sim);
  // End of the run: active commands are released.
  void finish();

  // The page's frame now, as JSON (what /ubot/frame carries; for tests and benchmarks).
  std::string frame_json(const Simulation& sim);
  // The page's world description, as JSON (/ubot/world).
  std::string world_json(const Simulation& sim) const;

 private:
  std::string on_publish(const ClientPublish& message);
  void publish_frame(const Simulation& sim);
  std::string set_parameter(const ParameterValue& p);
  std::vector<ParameterValue> parameters() const;
  std::set<int> selected() const;

  LiveServer server_;
  LiveTransport transport_;
  std::unique_ptr<ros2::Bridge> bridge_;
  viz::RunDrawing drawing_;      // what the page's messages are made from
  std::vector<Command> merged_;  // commands(): the clients' over the run's own
  LiveControl control_;
  std::uint32_t world_channel_ = 0, frame_channel_ = 0;
  // The page's frame pacing (see above).
  std::chrono::steady_clock::time_point last_frame_{};
  std::chrono::steady_clock::duration last_build_{};
  // Steps/s and real-time factor over the last second of wall time.
  std::chrono::steady_clock::time_point rate_since_{};
  std::int64_t rate_step_ = 0;
  double steps_per_second_ = 0.0, realtime_factor_ = 0.0;
  mutable std::mutex select_mutex_;
  std::map<std::uint64_t, std::set<int>> selected_;  // by client: the objects it shows in detail
  int object_count_ = 0;
  std::atomic<bool> changed_{false};  // a control or selection changed: show it while paused
};

// The sink that publishes a run into its live view.
std::unique_ptr<Sink> live_sink(LiveView& view);

}  // namespace ubot::live
