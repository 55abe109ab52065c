#pragma once
// The live server: one port, one server (Boost.Beast on its own thread). An HTTP GET gets the
// live page (its files are compiled into ubot), a WebSocket upgrade gets the Foxglove WebSocket
// protocol (foxglove_protocol.h), which the page speaks too. The simulation thread only hands
// it finished messages (publish) and never waits for a client: every client has a bounded send
// queue, and a client that falls behind loses its oldest messages, not the run's time.
//
// Access: a server listens on loopback unless told otherwise; with a token, every request (the
// page, its files and the WebSocket) must carry it (`?token=` in the URL, or an
// `Authorization: Bearer` header) and gets 401 otherwise. Without a token a non-loopback
// address is refused before listening (check_live_access).
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ubot/live/foxglove_protocol.h"

namespace ubot::live {

struct LiveAddress {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8765;  // 0: any free port (tests)
};
// "[HOST:]PORT" ("8765", "0.0.0.0:9000", "[::1]:8765"); ubot::Error naming `what` otherwise.
LiveAddress parse_live_address(std::string_view text, std::string_view what);
// Whether `host` is a loopback address (127.0.0.0/8, ::1, "localhost").
bool is_loopback(std::string_view host);
// ubot::Error when `address` is not loopback and `token` is empty: the reason, and how to give
// a token. `origin` names the option in messages: "--live" (the CLI's --live-token or
// UBOT_LIVE_TOKEN) or "serve" (Python's serve(token=...) or UBOT_LIVE_TOKEN).
void check_live_access(const LiveAddress& address, std::string_view token,
                       std::string_view origin = "--live");

struct LiveServerOptions {
  LiveAddress address;
  std::string token;                          // "" = none
  std::string origin = "--live";              // what messages name it by: "--live" or "serve"
  std::string name = "ubot";                  // serverInfo name
  std::size_t max_connections = 256;          // more are closed at once
  std::size_t client_queue_bytes = 8u << 20;  // a slow client's queue beyond this drops frames
  std::size_t max_incoming_bytes = 1u << 20;  // a larger client frame closes the connection
  int request_timeout_ms = 10000;             // an HTTP request must arrive whole within this
  // What a recording spans: advertised with Foxglove's `playbackControl` capability, whose
  // Playback Control Requests go to the playback handler. A live run has none.
  std::optional<TimeRange> playback_range;
};

// A message a client published on a channel it advertised.
struct ClientPublish {
  std::uint64_t client;  // the connection, for status replies
  const ClientChannel& channel;
  std::span<const std::uint8_t> payload;
};

class LiveServer {
 public:
  // "" or why the message was refused (sent back to the client as a status message).
  using PublishHandler = std::function<std::string(const ClientPublish&)>;
  // "" or why the value was refused.
  using SetParameterHandler = std::function<std::string(const ParameterValue&)>;
  using GetParametersHandler = std::function<std::vector<ParameterValue>()>;
  // "" or why the request was refused; the handler answers with broadcast_playback_state.
  using PlaybackHandler = std::function<std::string(const PlaybackControlRequest&)>;

  // Binds and listens, then serves on its own thread. ubot::Error when the address cannot be
  // bound (a port in use: the message names it).
  explicit LiveServer(LiveServerOptions options);
  ~LiveServer();  // closes every connection and joins the thread
  LiveServer(const LiveServer&) = delete;
  LiveServer& operator=(const LiveServer&) = delete;

  // The bound port, and the page's address ("http://127.0.0.1:8765/").
  std::uint16_t port() const;
  std::string url() const;

  // Handlers run on the server's thread; set them before clients connect.
  void set_publish_handler(PublishHandler handler);
  void set_parameter_handlers(GetParametersHandler get, SetParameterHandler set);
  void set_playback_handler(PlaybackHandler handler);

  // Advertises a channel to every client, now and on connection. A latched channel keeps its
  // latest message and sends it to each new subscriber (ROS's transient local). Any thread.
  std::uint32_t add_channel(ServerChannel channel, bool latched = false);
  // Whether some client subscribes to the channel (so its message is worth making).
  bool has_subscribers(std::uint32_t channel) const;
  // The channel's subscription count, to read without a lock on every step (a writer's).
  std::shared_ptr<const std::atomic<int>> subscriber_count(std::uint32_t channel) const;
  // Queues a message for the channel's subscribers; returns at once. Any thread.
  void publish(std::uint32_t channel, std::uint64_t time_ns,
               std::shared_ptr<const std::string> payload);
  // A Time frame to every client.
  void publish_time(std::uint64_t time_ns);
  // Sends parameterValues of the named parameters to every client (after a change).
  void broadcast_parameters(std::vector<ParameterValue> values);
  // Sends a Playback State to every client that speaks Foxglove's playback control (one that
  // negotiated `foxglove.sdk.v1` or sent a Playback Control Request: older clients, such as
  // @foxglove/ws-protocol 0.8, refuse binary opcodes they do not know). The latest state without
  // a request id is also what such a client gets when it connects. Any thread.
  void broadcast_playback_state(const PlaybackState& state);
  // Connected WebSocket clients, and frames dropped for slow clients so far.
  std::size_t client_count() const;
  // Subscriptions over every channel and client.
  int subscription_count() const;
  std::uint64_t dropped_frames() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// The live page's files, compiled in (live_assets.cpp, generated from src/live/web/).
struct Asset {
  std::string_view path;  // "/", "/live.js"
  std::string_view content_type;
  std::string_view body;
};
std::span<const Asset> live_assets();

}  // namespace ubot::live
