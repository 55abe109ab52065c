#pragma once
// `ubot play run.mcap --live` (docs/live.md, "Replaying a recording"): a recording played into
// the live server. Every channel of the file is advertised as it was recorded (topic, encoding,
// schema name and text) and its messages are sent at their log times, paced at `speed` × real
// time, so Foxglove shows them as it shows a live run and the page draws the world from the
// recorded markers, scans and odometry. Clients steer the playback with the server's
// parameters: /ubot/paused, /ubot/speed and /ubot/seek (a time in seconds); /ubot/playback
// (JSON) says where the playback is.
//
// A client that subscribes, and every subscriber after a seek, first gets the channel's latest
// message at or before the playhead (a player's backfill), so a paused replay shows its state
// at once. A message is read from the file only when some client subscribes to its channel.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ubot/live/live_server.h"
#include "ubot/record/mcap_reader.h"

namespace ubot::live {

struct ReplayOptions {
  double speed = 1.0;           // × real time; 0 = as fast as possible
  std::optional<double> start;  // s: where the playback starts (default: the first message)
  bool loop = false;            // at the end, start again (otherwise pause there)
};

class LiveReplay {
 public:
  // Starts the server and advertises the recording's channels. ubot::Error: the address (see
  // LiveServer) or an options value out of range.
  LiveReplay(McapReader& reader, LiveServerOptions server, ReplayOptions options);
  ~LiveReplay();
  LiveReplay(const LiveReplay&) = delete;
  LiveReplay& operator=(const LiveReplay&) = delete;

  std::string url() const { return server_.url(); }
  LiveServer& server() { return server_; }

  // Plays until `stop()` turns true (checked at least every 50 ms), pausing at the end unless
  // the options loop.
  void run(const std::function<bool()>& stop);

  // Where the playback is (what /ubot/playback carries), as JSON.
  std::string playback_json() const;

 private:
  using Clock = std::chrono::steady_clock;
  std::string set_parameter(const ParameterValue& p);
  std::vector<ParameterValue> parameters() const;
  void apply_requests();
  void seek_to(std::uint64_t t);
  void backfill_new_subscribers(bool all);
  void publish_message(std::size_t index);
  void publish_playback(bool now);
  void anchor();
  std::uint64_t due_playhead(Clock::time_point now, double speed) const;

  McapReader& reader_;
  ReplayOptions options_;
  LiveServer server_;
  std::uint32_t playback_channel_ = 0;
  // By the reader's channel order (index k): the server's channel, its subscriber count and
  // the count the loop saw last, and the latest message played on it (or npos).
  std::vector<std::uint16_t> mcap_ids_;
  std::vector<std::uint32_t> server_ids_;
  std::vector<std::shared_ptr<const std::atomic<int>>> counts_;
  std::vector<int> seen_;
  std::vector<std::size_t> last_played_;
  std::vector<std::size_t> slot_of_message_;  // message index -> k

  // The loop's state (the simulation-less run thread).
  std::size_t cursor_ = 0;      // the next message to play
  std::uint64_t playhead_ = 0;  // ns of log time
  Clock::time_point anchor_wall_{};
  std::uint64_t anchor_time_ = 0;
  Clock::time_point last_status_{}, last_subscriber_check_{};
  bool ended_ = false;  // paused at the end: playing again starts from the beginning

  // What clients set (the server's thread), under mutex_.
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool paused_ = false;
  double speed_ = 1.0;
  std::optional<std::uint64_t> seek_;
  std::uint64_t generation_ = 0, applied_generation_ = 0;
  std::uint64_t shown_playhead_ = 0;  // for parameters() and playback_json()
  std::size_t shown_played_ = 0;
};

}  // namespace ubot::live
