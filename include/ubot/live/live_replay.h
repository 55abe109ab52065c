#pragma once
// `ubot play run.mcap --live` (docs/live.md, "Replaying a recording"): a recording played into
// the live server. Every channel of the file is advertised as it was recorded (topic, encoding,
// schema name and text) and its messages are sent at their log times, paced at `speed` × real
// time, so Foxglove shows them as it shows a live run and the page draws the world from the
// recorded markers, scans and odometry. Its LiveSession is what clients steer: Foxglove's own
// timeline (the `playbackControl` capability: play, pause, seek, speed) or the parameters
// /ubot/paused, /ubot/speed and /ubot/seek (a time in seconds); /ubot/playback (JSON) says where
// the playback is.
//
// A client that subscribes, and every subscriber after a seek, first gets the channel's latest
// message at or before the playhead (a player's backfill), so a paused replay shows its state
// at once. A message is read from the file only when some client subscribes to its channel.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ubot/live/live_server.h"
#include "ubot/live/live_session.h"
#include "ubot/record/mcap_reader.h"

namespace ubot::live {

struct ReplayOptions {
  double speed = 1.0;           // × real time; 0 = as fast as possible
  std::optional<double> start;  // s: where the playback starts (default: the first message)
  bool loop = false;            // at the end, start again (otherwise pause there)
};

class LiveReplay {
 public:
  // Starts the session and advertises the recording's channels. ubot::Error: the address (see
  // LiveServer) or an options value out of range.
  LiveReplay(McapReader& reader, LiveServerOptions server, ReplayOptions options);
  ~LiveReplay();
  LiveReplay(const LiveReplay&) = delete;
  LiveReplay& operator=(const LiveReplay&) = delete;

  std::string url() const { return session_.url(); }
  LiveServer& server() { return session_.server(); }

  // Plays until `stop()` turns true (checked at least every 50 ms), pausing at the end unless
  // the options loop.
  void run(const std::function<bool()>& stop);

  // Where the playback is (what /ubot/playback carries), as JSON.
  std::string playback_json() const;

 private:
  using Clock = std::chrono::steady_clock;
  void seek_to(std::uint64_t t);
  void backfill_new_subscribers(bool all);
  void publish_message(std::size_t index);
  void publish_playback(bool now);

  McapReader& reader_;
  ReplayOptions options_;
  LiveSession session_;
  LiveServer& server_;
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
  Clock::time_point last_status_{}, last_subscriber_check_{};
  bool ended_ = false;  // paused at the end: playing again starts from the beginning
  std::atomic<std::size_t> shown_played_{0};  // for playback_json()
};

}  // namespace ubot::live
