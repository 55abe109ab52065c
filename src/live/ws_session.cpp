// One WebSocket client of the live server: the Foxglove protocol's ops, its subscriptions and
// channels, and its bounded send queue. Runs on the server's thread only.
#include <fmt/format.h>

#include <chrono>

#include "server_impl.h"

namespace ubot::live {
namespace {

// A client that keeps sending frames the protocol does not define is dropped after this many
// (each one got its status message).
constexpr int kMaxProtocolErrors = 100;
// JSON frames (advertise, status, parameters) are never dropped; a client whose queue of them
// alone grows past this many times the queue limit does not read, and is closed.
constexpr std::size_t kHardLimitFactor = 4;

}  // namespace

void start_ws_session(LiveServer::Impl* server, beast::tcp_stream stream,
                      http::request<http::string_body> request, std::string subprotocol) {
  const std::uint64_t id = server->next_session++;
  auto session = std::make_shared<WsSession>(server, std::move(stream), id);
  server->sessions[id] = session;
  session->start(std::move(request), std::move(subprotocol));
}

WsSession::WsSession(LiveServer::Impl* server, beast::tcp_stream stream, std::uint64_t id)
    : server_(server), ws_(std::move(stream)), id_(id) {
  ++server_->connections;
}

WsSession::~WsSession() {
  for (const auto& [sub, channel] : subscriptions_) server_->subscribed(channel, -1);
  if (open_) --server_->clients;
  --server_->connections;
  server_->sessions.erase(id_);
}

void WsSession::start(http::request<http::string_body> request, std::string subprotocol) {
  auto timeouts = websocket::stream_base::timeout::suggested(beast::role_type::server);
  timeouts.idle_timeout = std::chrono::seconds(30);  // pinged at 15 s; silent 30 s: dropped
  timeouts.keep_alive_pings = true;
  ws_.set_option(timeouts);
  ws_.set_option(
      websocket::stream_base::decorator([subprotocol](websocket::response_type& response) {
        response.set(http::field::server, "ubot");
        response.set(http::field::sec_websocket_protocol, subprotocol);
      }));
  ws_.read_message_max(server_->options.max_incoming_bytes);
  ws_.auto_fragment(false);
  const bool sdk_client = subprotocol == "foxglove.sdk.v1";
  ws_.async_accept(request, [self = shared_from_this(), sdk_client](beast::error_code ec) {
    if (ec) return;
    self->open_ = true;
    ++self->server_->clients;
    const LiveServerOptions& options = self->server_->options;
    ServerInfo info{.name = options.name,
                    .capabilities = {"clientPublish", "parameters", "time"},
                    .supported_encodings = {"cdr", "json"},
                    .metadata = {{"ROS_DISTRO", "jazzy"}},
                    .session_id = self->server_->session_id,
                    .data_range = options.playback_range};
    if (options.playback_range) {
      // The Foxglove SDK 0.30 (the version the tests run beside ubot) names the capability
      // playbackControl; other versions of its source name it rangedPlayback. Clients ignore
      // names they do not know, so both are given.
      info.capabilities.emplace_back("playbackControl");
      info.capabilities.emplace_back("rangedPlayback");
    }
    self->send_text(server_info_json(info));
    const std::vector<ServerChannel> channels = self->server_->channel_list();
    if (!channels.empty()) self->send_text(advertise_json(channels));
    // The SDK's subprotocol is a client that knows Playback State: it learns where the playback
    // is at once.
    self->speaks_playback_ = options.playback_range && sdk_client;
    if (self->speaks_playback_ && self->server_->playback_state) {
      self->send_binary({}, self->server_->playback_state, false);
    }
    self->read();
  });
}

void WsSession::read() {
  ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t bytes) {
    self->on_read(ec, bytes);
  });
}

void WsSession::on_read(beast::error_code ec, std::size_t) {
  if (ec) return;  // closed, timed out, or a frame over the size limit: the session ends
  const auto data = buffer_.cdata();
  if (ws_.got_text()) {
    handle_text(std::string_view(static_cast<const char*>(data.data()), data.size()));
  } else {
    handle_binary({static_cast<const std::uint8_t*>(data.data()), data.size()});
  }
  buffer_.consume(buffer_.size());
  if (errors_ > kMaxProtocolErrors) {
    close();
    return;
  }
  read();
}

void WsSession::handle_text(std::string_view text) {
  try {
    std::visit([this](const auto& op) { handle(op); }, parse_client_text(text));
  } catch (const ProtocolError& e) {
    ++errors_;
    status(StatusLevel::kError, e.what());
  }
}

void WsSession::handle_binary(std::span<const std::uint8_t> frame) {
  try {
    std::visit([this](const auto& op) { handle(op); }, parse_client_binary(frame));
  } catch (const ProtocolError& e) {
    ++errors_;
    status(StatusLevel::kError, e.what());
  }
}

void WsSession::handle(const ClientMessageData& data) {
  const auto channel = client_channels_.find(data.channel_id);
  if (channel == client_channels_.end()) {
    throw ProtocolError(fmt::format(
        "client message data: channel {} was not advertised by this client", data.channel_id));
  }
  if (!server_->on_publish) return;
  const std::string refused = server_->on_publish({id_, channel->second, data.payload});
  if (!refused.empty()) status(StatusLevel::kWarning, refused);
}

void WsSession::handle(const PlaybackControlRequest& request) {
  if (!server_->options.playback_range || !server_->on_playback) {
    throw ProtocolError(
        "playback control request: this server does not have the 'playbackControl' capability "
        "(a live run has no recorded range: pause, step and pace it with the /ubot/paused, "
        "/ubot/step and /ubot/speed parameters)");
  }
  speaks_playback_ = true;
  const std::string refused = server_->on_playback(request);
  if (!refused.empty()) status(StatusLevel::kWarning, "playback control request: " + refused);
}

void WsSession::handle(const SubscribeOp& op) {
  const std::size_t channel_count = server_->channel_count();
  for (const Subscription& s : op.subscriptions) {
    if (s.channel_id >= channel_count) {
      ++errors_;
      status(StatusLevel::kError,
             fmt::format("subscribe: no channel {} (subscription {})", s.channel_id, s.id));
      continue;
    }
    if (subscriptions_.contains(s.id)) {
      status(StatusLevel::kError, fmt::format("subscribe: subscription id {} is in use", s.id));
      continue;
    }
    if (by_channel_.contains(s.channel_id)) {
      status(StatusLevel::kWarning,
             fmt::format("subscribe: channel {} is subscribed already", s.channel_id));
      continue;
    }
    subscriptions_[s.id] = s.channel_id;
    by_channel_[s.channel_id] = s.id;
    server_->subscribed(s.channel_id, +1);
    std::pair<std::uint64_t, std::shared_ptr<const std::string>> latched;
    {
      const std::lock_guard lock(server_->mutex);
      if (const auto it = server_->latched.find(s.channel_id); it != server_->latched.end()) {
        latched = it->second;
      }
    }
    if (latched.second) deliver(s.channel_id, latched.first, latched.second);
  }
}

void WsSession::handle(const UnsubscribeOp& op) {
  for (const std::uint32_t id : op.subscription_ids) {
    const auto it = subscriptions_.find(id);
    if (it == subscriptions_.end()) {
      status(StatusLevel::kWarning, fmt::format("unsubscribe: no subscription {}", id));
      continue;
    }
    server_->subscribed(it->second, -1);
    by_channel_.erase(it->second);
    subscriptions_.erase(it);
  }
}

void WsSession::handle(const ClientAdvertiseOp& op) {
  for (const ClientChannel& c : op.channels) {
    if (c.encoding != "cdr" && c.encoding != "json") {
      ++errors_;
      status(StatusLevel::kError,
             fmt::format("advertise: channel {} ({}): encoding '{}' is not one of this server's "
                         "supportedEncodings (cdr, json)",
                         c.id, c.topic, c.encoding));
      continue;
    }
    client_channels_[c.id] = c;
  }
}

void WsSession::handle(const ClientUnadvertiseOp& op) {
  for (const std::uint32_t id : op.channel_ids) client_channels_.erase(id);
}

void WsSession::handle(const GetParametersOp& op) {
  std::vector<ParameterValue> all =
      server_->get_parameters ? server_->get_parameters() : std::vector<ParameterValue>{};
  if (!op.names.empty()) {
    std::erase_if(all, [&op](const ParameterValue& p) {
      return std::find(op.names.begin(), op.names.end(), p.name) == op.names.end();
    });
  }
  send_text(parameter_values_json(all, op.id));
}

void WsSession::handle(const SetParametersOp& op) {
  for (const ParameterValue& p : op.parameters) {
    const std::string refused =
        server_->set_parameter ? server_->set_parameter(p) : "this server has no parameters";
    if (!refused.empty()) status(StatusLevel::kWarning, fmt::format("{}: {}", p.name, refused));
  }
  if (!op.id.empty()) {
    std::vector<std::string> names;
    for (const ParameterValue& p : op.parameters) names.push_back(p.name);
    handle(GetParametersOp{std::move(names), op.id});
  }
}

void WsSession::handle(const SubscribeParameterUpdatesOp&) {
  status(StatusLevel::kWarning,
         "parameter updates: this server does not have the 'parametersSubscribe' capability "
         "(it sends parameterValues to every client when a value changes)");
}

void WsSession::deliver(std::uint32_t channel, std::uint64_t time_ns,
                        const std::shared_ptr<const std::string>& payload) {
  const auto it = by_channel_.find(channel);
  if (it == by_channel_.end()) return;
  const auto header = message_data_header(it->second, time_ns);
  send_binary(header, payload, true);
}

void WsSession::send_text(std::string text) {
  OutFrame f;
  f.text = true;
  f.body = std::make_shared<const std::string>(std::move(text));
  enqueue(std::move(f));
}

void WsSession::send_binary(std::span<const std::uint8_t> header,
                            std::shared_ptr<const std::string> body, bool droppable) {
  OutFrame f;
  f.droppable = droppable;
  f.header_size = std::min(header.size(), f.header.size());
  std::copy_n(header.begin(), f.header_size, f.header.begin());
  f.body = std::move(body);
  enqueue(std::move(f));
}

void WsSession::status(StatusLevel level, const std::string& message) {
  send_text(status_json(level, message.substr(0, 1024)));
}

void WsSession::enqueue(OutFrame frame) {
  if (!open_) return;
  const std::size_t limit = server_->options.client_queue_bytes;
  queued_bytes_ += frame.bytes();
  queue_.push_back(std::move(frame));
  // Past the limit, the oldest droppable frames go (never the one being written, the front).
  for (auto it = queue_.begin() + (writing_ ? 1 : 0);
       queued_bytes_ > limit && it != queue_.end();) {
    if (it->droppable) {
      queued_bytes_ -= it->bytes();
      ++server_->dropped;
      it = queue_.erase(it);
    } else {
      ++it;
    }
  }
  if (queued_bytes_ > limit * kHardLimitFactor) {
    close();
    return;
  }
  if (!writing_) write();
}

void WsSession::write() {
  if (queue_.empty() || !open_) return;
  writing_ = true;
  OutFrame& f = queue_.front();
  ws_.text(f.text);
  const std::array<asio::const_buffer, 2> buffers{
      asio::const_buffer(f.header.data(), f.header_size),
      f.body ? asio::const_buffer(f.body->data(), f.body->size()) : asio::const_buffer()};
  ws_.async_write(buffers, [self = shared_from_this()](beast::error_code ec, std::size_t) {
    self->writing_ = false;
    if (self->queue_.empty()) return;
    self->queued_bytes_ -= self->queue_.front().bytes();
    self->queue_.pop_front();
    if (ec) {
      if (self->open_) --self->server_->clients;
      self->open_ = false;
      self->queue_.clear();
      self->queued_bytes_ = 0;
      return;
    }
    self->write();
  });
}

void WsSession::close() {
  if (!open_) return;
  open_ = false;
  --server_->clients;
  if (writing_) {
    // A write is pending (its frame stays until it completes): the socket is cut, as a close
    // frame cannot be sent mid-write.
    queue_.erase(queue_.begin() + 1, queue_.end());
    queued_bytes_ = queue_.front().bytes();
    beast::error_code ec;
    beast::get_lowest_layer(ws_).socket().close(ec);
    return;
  }
  queue_.clear();
  queued_bytes_ = 0;
  ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) {});
}

}  // namespace ubot::live
