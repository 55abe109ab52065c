#pragma once
// The live side of a run (docs/live.md): a LiveSession (the server; pause, single steps and
// speed as Foxglove parameters; the pace), the ROS 2 bridge over it (every channel of the MCAP
// recording, cmd_vel from Foxglove's Teleop panel or the page) and the page's own JSON channels
// (/ubot/world once, /ubot/frame up to 30 times a second: the run's status, where the moving
// objects are for picking, the selected objects' details). The page draws the world from the
// marker channels, as Foxglove's 3D panel does. A host makes one LiveView, adds its live_sink,
// and calls turn() before each step.
//
// Its cost to the simulation is bounded: messages are made only for channels some client
// subscribes to, and the page's frame and /ubot/markers (with the lidars' beams) are made at
// most 30 times a second and only when the last ones took under 2% of the time since (so a
// 10,000-robot world is shown less often, not run slower).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>

#include "ubot/live/live_server.h"
#include "ubot/live/live_session.h"
#include "ubot/live/live_transport.h"
#include "ubot/ros2/bridge.h"
#include "ubot/sim/simulation.h"
#include "ubot/sim/sink.h"
#include "ubot/viz/run_drawing.h"

namespace ubot::live {

class LiveView {
 public:
  // Starts the server (ubot::Error: the port is in use, or a non-loopback address without a
  // token). `speed`: the run's pace at the start (0 = as fast as possible).
  LiveView(const Simulation& sim, LiveServerOptions options, double speed);
  ~LiveView();
  LiveView(const LiveView&) = delete;
  LiveView& operator=(const LiveView&) = delete;

  std::string url() const { return session_.url(); }
  LiveServer& server() { return server_; }
  LiveSession& session() { return session_; }
  // Before each step, the one call a host makes: waits until the last step is due at the
  // session's pace, then while the run is paused (showing what changes meanwhile: the pause
  // itself, a new selection). Returns the step's commands, one per object: the ones clients
  // sent, and `own` (the run's other commands: DDS, Python's step()) where no client drives the
  // object; nothing when `stop()` turns true first.
  std::optional<std::span<const Command>> turn(const Simulation& sim,
                                               const std::function<bool()>& stop,
                                               std::span<const Command> own = {});
  // After each step (and once before the first; live_sink does it): ROS 2 channels, the clock,
  // the page's frame.
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
  std::span<const Command> commands(const Simulation& sim, std::span<const Command> own);
  std::set<int> selected() const;

  LiveSession session_;
  LiveServer& server_;
  LiveTransport transport_;
  std::unique_ptr<ros2::Bridge> bridge_;
  viz::RunDrawing drawing_;      // what the page's messages are made from
  std::vector<Command> merged_;  // commands(): the clients' over the run's own
  std::uint32_t world_channel_ = 0, frame_channel_ = 0;
  // The page's frame pacing (see above).
  std::chrono::steady_clock::time_point last_frame_{};
  std::chrono::steady_clock::duration last_build_{};
  bool frame_due_ = true;          // this step's frame and markers are made (publish())
  int paused_world_watchers_ = 0;  // turn(): subscriptions to the world's channels seen
  // Steps/s and real-time factor over the last second of wall time.
  std::chrono::steady_clock::time_point rate_since_{};
  std::int64_t rate_step_ = 0;
  double steps_per_second_ = 0.0, realtime_factor_ = 0.0;
  mutable std::mutex select_mutex_;
  std::map<std::uint64_t, std::set<int>> selected_;  // by client: the objects it shows in detail
  int object_count_ = 0;
  std::atomic<bool> selection_changed_{false};  // shown while paused
  std::uint64_t shown_generation_ = 0;          // the session's, when the last frame was made
};

// The sink that publishes a run into its live view.
std::unique_ptr<Sink> live_sink(LiveView& view);

}  // namespace ubot::live
