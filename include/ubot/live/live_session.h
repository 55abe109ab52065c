#pragma once
// One live session (docs/live.md): the server, the playback state its clients steer (pause,
// single steps, speed, seek), the one clock that maps log time to wall time, the parameters and
// Foxglove's playback control. What it plays comes from a source: a running simulation
// (LiveView) or a recording (LiveReplay); each drives the session from its own loop:
//
//   run:    session.pace(t, stop) after each step, session.wait_turn(stop) before the next;
//   replay: session.take_requests(playhead), then session.wait_until(next message's time).
//
// Clients steer it with the parameters /ubot/paused, /ubot/speed, and /ubot/step (a run) or
// /ubot/seek (a recording); a recording also advertises Foxglove's `playbackControl` capability,
// so Foxglove's own timeline plays, pauses, seeks and changes speed through Playback Control
// Requests, answered with Playback State.
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ubot/live/live_server.h"

namespace ubot::live {

// The fastest a client may set a run or a replay (/ubot/speed, Playback Control): 1000x real time.
inline constexpr double kMaxSpeed = 1000.0;

// Log time (ns) in seconds, and seconds as log time (rounded to the nanosecond).
inline double to_seconds(std::uint64_t ns) { return static_cast<double>(ns) * 1e-9; }
inline std::uint64_t to_nanos(double s) {
  return static_cast<std::uint64_t>(std::llround(s * 1e9));
}

// ubot::Error naming `what` when `speed` is not in [0, kMaxSpeed] (0 = as fast as possible).
void check_speed(double speed, std::string_view what);

// Log time to wall time at a speed: log time `anchor_time` was shown at `anchor_wall`, and time
// passes `speed` times as fast as the wall clock from there. Also the CLI's --realtime.
class PlaybackClock {
 public:
  using Clock = std::chrono::steady_clock;
  void anchor(std::uint64_t log_ns, double speed, Clock::time_point wall = Clock::now());
  bool anchored() const { return anchored_; }
  // The log time due at `wall` (speed 0: everything is due).
  std::uint64_t due(Clock::time_point wall) const;
  // The wall time at which `log_ns` is due.
  Clock::time_point when(std::uint64_t log_ns) const;
  // Sleeps until `log_ns` is due, in slices of at most 50 ms; false when `stop()` turns true first.
  bool sleep_until(std::uint64_t log_ns, const std::function<bool()>& stop) const;

 private:
  bool anchored_ = false;
  double speed_ = 0.0;
  std::uint64_t time_ = 0;
  Clock::time_point wall_{};
};

struct SessionOptions {
  double speed = 1.0;              // × real time at the start; 0 = as fast as possible
  bool steps = false;              // a run: /ubot/step takes single steps
  std::optional<TimeRange> range;  // a recording: /ubot/seek and Foxglove's playback control
  std::string what = "--speed";    // names the speed option in messages
};

class LiveSession {
 public:
  using Clock = std::chrono::steady_clock;
  // Checks access (check_live_access) and starts the server. ubot::Error: the address, the
  // port in use, or the speed out of range.
  LiveSession(LiveServerOptions server, SessionOptions options);
  LiveSession(const LiveSession&) = delete;
  LiveSession& operator=(const LiveSession&) = delete;

  LiveServer& server() { return server_; }
  std::string url() const { return server_.url(); }

  bool paused() const;
  double speed() const;
  // Paused with no step left to take (a run rests on its last step).
  bool resting() const;
  // Changes whenever a client changes something (pause, speed, step, seek).
  std::uint64_t generation() const;

  // ---- the source's loop (one thread) -----------------------------------------------------
  // Before a run's step: waits while paused and no step is requested (running `idle` each time
  // the wait wakes, every 50 ms at most); false when `stop()` turns true first.
  bool wait_turn(const std::function<bool()>& stop, const std::function<void()>& idle = {});
  // After a run's step that ended at log time `t`: waits until `t` is due at the session's pace.
  // A change (a new speed, a pause, a single step) starts the count again from `t`.
  void pace(std::uint64_t t, const std::function<bool()>& stop);

  struct Requests {
    bool changed = false;               // pause, speed or seek changed since the last call
    std::optional<std::uint64_t> seek;  // where to go
    std::uint64_t position = 0;         // where the session says the source is
  };
  // What clients asked for since the last call; the clock starts again from `position` (or the
  // seek target) when anything changed.
  Requests take_requests(std::uint64_t position);
  // Waits (at most 50 ms, less when a request arrives) for log time `t` to be due; true when it
  // is. The log time due now is due().
  bool wait_until(std::uint64_t t);
  std::uint64_t due() const;
  // Waits up to 50 ms for a request (while paused).
  void wait_for_request();
  // The recording played to its end: paused there, and Foxglove's timeline says it ended.
  void end();
  // The source goes to `t` itself (a looping replay starts again): a seek request of its own.
  void seek(std::uint64_t t);
  // Where the source is (log time): the /ubot/seek value and the Playback State's time.
  void set_position(std::uint64_t t);
  std::uint64_t position() const;

 private:
  std::vector<ParameterValue> parameters() const;
  std::string set_parameter(const ParameterValue& p);
  std::string on_playback_control(const PlaybackControlRequest& request);
  void changed(std::unique_lock<std::mutex>& lock, const std::string& request_id = "",
               bool did_seek = false);
  PlaybackState playback_state(const std::string& request_id, bool did_seek) const;
  void hold_position();

  SessionOptions options_;
  LiveServer server_;
  PlaybackClock clock_;  // the loop's
  std::uint64_t clock_generation_ = 0;

  // What clients set (the server's thread) and the loop reads, under mutex_.
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool paused_ = false;
  bool ended_ = false;
  int steps_ = 0;
  double speed_;
  std::optional<std::uint64_t> seek_;
  std::uint64_t position_ = 0;
  std::uint64_t generation_ = 0, taken_generation_ = 0;
};

}  // namespace ubot::live
