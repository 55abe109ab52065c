#include "ubot/live/live_server.h"

#include <fmt/format.h>

#include <charconv>
#include <chrono>

#include "server_impl.h"
#include "ubot/core/error.h"

namespace ubot::live {

LiveAddress parse_live_address(std::string_view text, std::string_view what) {
  LiveAddress a;
  std::string_view port = text;
  if (const std::size_t colon = text.rfind(':'); colon != std::string_view::npos) {
    std::string_view host = text.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
      host = host.substr(1, host.size() - 2);
    }
    if (host.empty()) throw Error(fmt::format("{}: '{}' has an empty host", what, text));
    a.host = std::string(host);
    port = text.substr(colon + 1);
  }
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (port.empty() || ec != std::errc() || end != port.data() + port.size() || value > 65535) {
    throw Error(
        fmt::format("{}: expected [HOST:]PORT with a port in [0, 65535], got '{}'", what, text));
  }
  a.port = static_cast<std::uint16_t>(value);
  boost::system::error_code bad;
  if (a.host != "localhost") {
    asio::ip::make_address(a.host, bad);
    if (bad) {
      throw Error(fmt::format("{}: '{}' is not an IP address (or localhost)", what, a.host));
    }
  }
  return a;
}

bool is_loopback(std::string_view host) {
  if (host == "localhost") return true;
  boost::system::error_code ec;
  const asio::ip::address a = asio::ip::make_address(std::string(host), ec);
  return !ec && a.is_loopback();
}

void check_live_access(const LiveAddress& address, std::string_view token,
                       std::string_view origin) {
  if (is_loopback(address.host) || !token.empty()) return;
  throw Error(fmt::format(
      "{} {}:{}: a live server on a non-loopback address lets anyone who reaches it watch "
      "and drive the run; give it a token ({} or UBOT_LIVE_TOKEN), or listen on 127.0.0.1",
      origin, address.host, address.port,
      origin == "serve" ? "serve(..., token=TOKEN)" : "--live-token TOKEN"));
}

// ---- Impl ----------------------------------------------------------------------------------

void LiveServer::Impl::accept() {
  acceptor->async_accept(*io, [self = this](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !self->acceptor->is_open()) return;
    if (!ec) {
      if (self->connections.load() >= self->options.max_connections) {
        socket.close(ec);  // over the limit: closed at once, the run goes on
      } else {
        start_http_session(self, std::move(socket));
      }
    }
    self->accept();
  });
}

namespace {

// Constant-time comparison, so the token cannot be guessed byte by byte from response times.
bool same_secret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

// The value of `key` in the request target's query ("/?token=abc&x=1"), percent-decoding
// nothing: tokens are plain words.
std::string_view query_value(std::string_view target, std::string_view key) {
  const std::size_t q = target.find('?');
  if (q == std::string_view::npos) return {};
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const std::size_t eq = pair.find('=');
    if (eq != std::string_view::npos && pair.substr(0, eq) == key) return pair.substr(eq + 1);
    if (amp == std::string_view::npos) break;
    query = query.substr(amp + 1);
  }
  return {};
}

}  // namespace

bool LiveServer::Impl::authorized(const http::request<http::string_body>& request) const {
  if (options.token.empty()) return true;
  const std::string_view target(request.target().data(), request.target().size());
  if (same_secret(query_value(target, "token"), options.token)) return true;
  const auto auth = request.find(http::field::authorization);
  if (auth == request.end()) return false;
  const std::string_view value(auth->value().data(), auth->value().size());
  constexpr std::string_view kBearer = "Bearer ";
  return value.starts_with(kBearer) && same_secret(value.substr(kBearer.size()), options.token);
}

void LiveServer::Impl::subscribed(std::uint32_t channel, int delta) {
  const std::lock_guard lock(mutex);
  if (channel >= subscribers.size()) return;
  *subscribers[channel] += delta;
  all_subscriptions += delta;
}

void LiveServer::Impl::for_each_session(const std::function<void(WsSession&)>& fn) {
  // Held while the calls run: a session that ends meanwhile leaves `sessions` afterwards.
  std::vector<std::shared_ptr<WsSession>> live;
  live.reserve(sessions.size());
  for (auto& [id, weak] : sessions) {
    if (auto session = weak.lock()) live.push_back(std::move(session));
  }
  for (const auto& session : live) fn(*session);
}

void LiveServer::Impl::send_out(Outgoing message) {
  bool post = false;
  {
    const std::lock_guard lock(mutex);
    outbox.push_back(std::move(message));
    post = !std::exchange(flush_posted, true);
  }
  if (post) asio::post(*io, [this] { flush(); });
}

void LiveServer::Impl::flush() {
  std::vector<Outgoing> batch;
  {
    const std::lock_guard lock(mutex);
    batch.swap(outbox);
    flush_posted = false;
  }
  for_each_session([&batch](WsSession& session) {
    for (const Outgoing& m : batch) {
      if (m.channel == kTimeChannel) {
        session.send_binary(time_frame(m.time_ns), nullptr, true);
      } else {
        session.deliver(m.channel, m.time_ns, m.payload);
      }
    }
  });
}

std::size_t LiveServer::Impl::channel_count() const {
  const std::lock_guard lock(mutex);
  return channels.size();
}

std::vector<ServerChannel> LiveServer::Impl::channel_list() const {
  const std::lock_guard lock(mutex);
  return channels;
}

// ---- LiveServer ----------------------------------------------------------------------------

LiveServer::LiveServer(LiveServerOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {
  Impl& s = *impl_;
  const LiveAddress& a = s.options.address;
  const std::string where = fmt::format("{} {}:{}", s.options.origin, a.host, a.port);
  boost::system::error_code ec;
  const asio::ip::address ip =
      a.host == "localhost" ? asio::ip::address_v4::loopback() : asio::ip::make_address(a.host, ec);
  if (ec) throw Error(fmt::format("{}: '{}' is not an IP address", where, a.host));
  const tcp::endpoint endpoint(ip, a.port);
  s.acceptor->open(endpoint.protocol(), ec);
  if (!ec) s.acceptor->set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) s.acceptor->bind(endpoint, ec);
  if (ec == asio::error::address_in_use) {
    throw Error(
        fmt::format("{}: the port {} is in use (another ubot, or another server?); "
                    "choose another with --live [HOST:]PORT",
                    where, a.port));
  }
  if (!ec) s.acceptor->listen(asio::socket_base::max_listen_connections, ec);
  if (ec) throw Error(fmt::format("{}: cannot listen: {}", where, ec.message()));
  s.session_id = std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count());
  s.accept();
  s.thread = std::thread([&s] { s.io->run(); });
}

LiveServer::~LiveServer() {
  Impl& s = *impl_;
  asio::post(*s.io, [&s] {
    boost::system::error_code ec;
    s.acceptor->close(ec);
    s.for_each_session([](WsSession& session) { session.close(); });
  });
  // Closing handshakes get a moment; then whatever is left is cut.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  while (s.clients.load() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  s.io->stop();
  if (s.thread.joinable()) s.thread.join();
  s.acceptor.reset();
  s.io.reset();  // destroys the pending handlers, and with them the sessions
}

std::uint16_t LiveServer::port() const {
  boost::system::error_code ec;
  return impl_->acceptor->local_endpoint(ec).port();
}

std::string LiveServer::url() const {
  const std::string& host = impl_->options.address.host;
  const bool v6 = host.find(':') != std::string::npos;
  std::string url = fmt::format("http://{}{}{}:{}/", v6 ? "[" : "", host, v6 ? "]" : "", port());
  if (!impl_->options.token.empty()) url += "?token=" + impl_->options.token;
  return url;
}

void LiveServer::set_publish_handler(PublishHandler handler) {
  impl_->on_publish = std::move(handler);
}

void LiveServer::set_playback_handler(PlaybackHandler handler) {
  impl_->on_playback = std::move(handler);
}

void LiveServer::set_parameter_handlers(GetParametersHandler get, SetParameterHandler set) {
  impl_->get_parameters = std::move(get);
  impl_->set_parameter = std::move(set);
}

std::uint32_t LiveServer::add_channel(ServerChannel channel, bool latched) {
  Impl& s = *impl_;
  {
    const std::lock_guard lock(s.mutex);
    channel.id = static_cast<std::uint32_t>(s.channels.size());
    s.channels.push_back(channel);
    s.subscribers.push_back(std::make_shared<std::atomic<int>>(0));
    if (latched) s.latched_ids.insert(channel.id);
  }
  asio::post(*s.io, [&s, channel] {
    const std::string text = advertise_json(std::span(&channel, 1));
    s.for_each_session([&text](WsSession& session) { session.send_text(text); });
  });
  return channel.id;
}

std::shared_ptr<const std::atomic<int>> LiveServer::subscriber_count(std::uint32_t channel) const {
  const std::lock_guard lock(impl_->mutex);
  return channel < impl_->subscribers.size() ? impl_->subscribers[channel] : nullptr;
}

bool LiveServer::has_subscribers(std::uint32_t channel) const {
  const std::lock_guard lock(impl_->mutex);
  return channel < impl_->subscribers.size() && *impl_->subscribers[channel] > 0;
}

void LiveServer::publish(std::uint32_t channel, std::uint64_t time_ns,
                         std::shared_ptr<const std::string> payload) {
  Impl& s = *impl_;
  {
    const std::lock_guard lock(s.mutex);
    if (s.latched_ids.contains(channel)) s.latched[channel] = {time_ns, payload};
  }
  if (s.clients.load() == 0) return;
  s.send_out({channel, time_ns, std::move(payload)});
}

void LiveServer::publish_time(std::uint64_t time_ns) {
  Impl& s = *impl_;
  if (s.clients.load() == 0) return;  // no wake-up of the server's thread for nobody
  // At most 100 a second: a clock for the client's timeline, not one frame per fast step.
  const auto now = std::chrono::steady_clock::now();
  {
    const std::lock_guard lock(s.mutex);
    if (now - s.last_time_frame < std::chrono::milliseconds(10)) return;
    s.last_time_frame = now;
  }
  s.send_out({Impl::kTimeChannel, time_ns, nullptr});
}

void LiveServer::broadcast_parameters(std::vector<ParameterValue> values) {
  Impl& s = *impl_;
  asio::post(*s.io, [&s, values = std::move(values)] {
    const std::string text = parameter_values_json(values, "");
    s.for_each_session([&text](WsSession& session) { session.send_text(text); });
  });
}

void LiveServer::broadcast_playback_state(const PlaybackState& state) {
  Impl& s = *impl_;
  auto frame = std::make_shared<const std::string>(playback_state_frame(state));
  std::shared_ptr<const std::string> latest = frame;
  if (!state.request_id.empty()) {
    PlaybackState plain = state;
    plain.request_id.clear();
    latest = std::make_shared<const std::string>(playback_state_frame(plain));
  }
  asio::post(*s.io, [&s, frame = std::move(frame), latest = std::move(latest)] {
    s.playback_state = latest;
    s.for_each_session([&frame](WsSession& session) {
      if (session.speaks_playback()) session.send_binary({}, frame, false);
    });
  });
}

std::size_t LiveServer::client_count() const { return impl_->clients.load(); }
int LiveServer::subscription_count() const { return impl_->all_subscriptions.load(); }
std::uint64_t LiveServer::dropped_frames() const { return impl_->dropped.load(); }

}  // namespace ubot::live
