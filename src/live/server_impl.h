#pragma once
// What the live server's sessions share (live_server.cpp, http_session.cpp, ws_session.cpp).
// Everything but the marked members is touched on the server's thread only.
// <utility> first: Boost 1.74's asio/awaitable.hpp uses std::exchange without including it
// (C++20 with GCC 12).
#include <utility>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "ubot/live/live_server.h"

namespace ubot::live {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

class WsSession;

// One frame waiting to be sent: a header of up to 13 bytes (binary frames) and a shared body.
struct OutFrame {
  bool text = false;
  bool droppable = false;  // message data and time: a slow client may lose these
  std::size_t header_size = 0;
  std::array<std::uint8_t, 13> header{};
  std::shared_ptr<const std::string> body;
  std::size_t bytes() const { return header_size + (body ? body->size() : 0); }
};

// Owned by LiveServer; sessions point to it. The io_context and the acceptor are destroyed
// explicitly by ~LiveServer after the thread ended (pending handlers, and the sessions they hold,
// go with the io_context while the rest of Impl still lives).
struct LiveServer::Impl {
  explicit Impl(LiveServerOptions o)
      : options(std::move(o)),
        io(std::make_unique<asio::io_context>()),
        acceptor(std::make_unique<tcp::acceptor>(*io)) {}

  LiveServerOptions options;
  std::unique_ptr<asio::io_context> io;
  std::unique_ptr<tcp::acceptor> acceptor;
  std::thread thread;
  std::string session_id;

  // Any thread (guarded by `mutex`).
  mutable std::mutex mutex;
  std::vector<ServerChannel> channels;  // by id
  // By channel id: subscriptions over all clients. Counted on the server's thread, read lock-free
  // by the writers that hold a channel's counter (LiveServer::subscriber_count).
  std::vector<std::shared_ptr<std::atomic<int>>> subscribers;
  std::atomic<int> all_subscriptions{0};  // their sum
  std::map<std::uint32_t, std::pair<std::uint64_t, std::shared_ptr<const std::string>>> latched;
  std::set<std::uint32_t> latched_ids;
  // Messages waiting for the server's thread: one wake-up takes all a step published.
  struct Outgoing {
    std::uint32_t channel;  // kTimeChannel: a Time frame
    std::uint64_t time_ns;
    std::shared_ptr<const std::string> payload;
  };
  static constexpr std::uint32_t kTimeChannel = 0xffffffffu;
  std::vector<Outgoing> outbox;
  bool flush_posted = false;
  std::chrono::steady_clock::time_point last_time_frame{};
  std::atomic<std::size_t> connections{0};
  std::atomic<std::size_t> clients{0};
  std::atomic<std::uint64_t> dropped{0};

  // Server thread only.
  std::map<std::uint64_t, std::weak_ptr<WsSession>> sessions;
  std::uint64_t next_session = 1;
  PublishHandler on_publish;
  GetParametersHandler get_parameters;
  SetParameterHandler set_parameter;
  PlaybackHandler on_playback;
  std::shared_ptr<const std::string> playback_state;  // the latest, without a request id

  void accept();
  bool authorized(const http::request<http::string_body>& request) const;
  void subscribed(std::uint32_t channel, int delta);
  std::vector<ServerChannel> channel_list() const;
  std::size_t channel_count() const;
  void for_each_session(const std::function<void(WsSession&)>& fn);
  // Queues a message for the server's thread (any thread), waking it once for all queued.
  void send_out(Outgoing message);
  void flush();  // server thread
};

// Reads HTTP requests on a connection: serves the page's files, or hands a WebSocket upgrade
// to a WsSession (http_session.cpp).
void start_http_session(LiveServer::Impl* server, tcp::socket socket);

// Takes over an upgraded connection (ws_session.cpp).
void start_ws_session(LiveServer::Impl* server, beast::tcp_stream stream,
                      http::request<http::string_body> request, std::string subprotocol);

class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(LiveServer::Impl* server, beast::tcp_stream stream, std::uint64_t id);
  ~WsSession();
  void start(http::request<http::string_body> request, std::string subprotocol);
  // Server thread: queue a message of `channel` if this client subscribes to it.
  void deliver(std::uint32_t channel, std::uint64_t time_ns,
               const std::shared_ptr<const std::string>& payload);
  void send_text(std::string text);
  void send_binary(std::span<const std::uint8_t> header, std::shared_ptr<const std::string> body,
                   bool droppable);
  void status(StatusLevel level, const std::string& message);
  void close();
  // Whether this client gets Playback State frames (LiveServer::broadcast_playback_state).
  bool speaks_playback() const { return speaks_playback_; }

 private:
  void read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void handle_text(std::string_view text);
  void handle_binary(std::span<const std::uint8_t> frame);
  void handle(const SubscribeOp& op);
  void handle(const UnsubscribeOp& op);
  void handle(const ClientAdvertiseOp& op);
  void handle(const ClientUnadvertiseOp& op);
  void handle(const GetParametersOp& op);
  void handle(const SetParametersOp& op);
  void handle(const SubscribeParameterUpdatesOp& op);
  void handle(const ClientMessageData& data);
  void handle(const PlaybackControlRequest& request);
  void enqueue(OutFrame frame);
  void write();

  LiveServer::Impl* server_;
  websocket::stream<beast::tcp_stream> ws_;
  std::uint64_t id_;
  beast::flat_buffer buffer_;
  std::map<std::uint32_t, std::uint32_t> subscriptions_;  // subscription id -> channel
  std::map<std::uint32_t, std::uint32_t> by_channel_;     // channel -> subscription id
  std::map<std::uint32_t, ClientChannel> client_channels_;
  std::deque<OutFrame> queue_;
  std::size_t queued_bytes_ = 0;
  bool writing_ = false;
  bool open_ = false;
  bool speaks_playback_ = false;
  int errors_ = 0;  // protocol errors; past a limit the client is dropped
};

}  // namespace ubot::live
