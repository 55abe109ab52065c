// The HTTP side of the live server: the page's files, 401 without the token, 404 / 405, and the
// WebSocket upgrade. A request must arrive whole (headers ≤ 8 KiB, no body over 64 KiB) within
// the request timeout, so a slow-loris client holds one socket for that long and no more.
#include <fmt/format.h>

#include <chrono>

#include "server_impl.h"

namespace ubot::live {
namespace {

constexpr std::size_t kHeaderLimit = 8 * 1024;
constexpr std::size_t kBodyLimit = 64 * 1024;

const Asset* find_asset(std::string_view target) {
  const std::string_view path = target.substr(0, target.find('?'));
  for (const Asset& a : live_assets()) {
    if (a.path == path || (path == "/index.html" && a.path == "/")) return &a;
  }
  return nullptr;
}

// The subprotocol to answer with: the first of ours the client offers; "" when none.
std::string choose_subprotocol(const http::request<http::string_body>& request) {
  const auto offered = request.find(http::field::sec_websocket_protocol);
  if (offered == request.end()) return "";
  const std::string_view list(offered->value().data(), offered->value().size());
  for (const std::string_view ours : kSubprotocols) {
    std::size_t start = 0;
    while (start <= list.size()) {
      std::size_t end = list.find(',', start);
      if (end == std::string_view::npos) end = list.size();
      std::string_view item = list.substr(start, end - start);
      while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
      while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
      if (item == ours) return std::string(ours);
      start = end + 1;
    }
  }
  return "";
}

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(LiveServer::Impl* server, tcp::socket socket)
      : server_(server), stream_(std::move(socket)) {
    ++server_->connections;
  }
  ~HttpSession() { --server_->connections; }

  void read() {
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(kBodyLimit);
    stream_.expires_after(std::chrono::milliseconds(server_->options.request_timeout_ms));
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
  }

 private:
  void on_read(beast::error_code ec) {
    if (ec) {  // timeout, closed, or a request that breaks the limits: the connection goes
      if (ec != http::error::end_of_stream && ec != beast::error::timeout &&
          ec != asio::error::operation_aborted) {
        respond_error(http::status::bad_request, fmt::format("bad request: {}\n", ec.message()),
                      11);
        return;
      }
      stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
      return;
    }
    http::request<http::string_body> request = parser_->release();
    if (!server_->authorized(request)) {
      respond_error(http::status::unauthorized,
                    "this live server needs its token: add ?token=TOKEN to the address\n",
                    request.version());
      return;
    }
    if (websocket::is_upgrade(request)) {
      std::string subprotocol = choose_subprotocol(request);
      if (subprotocol.empty()) {
        respond_error(http::status::bad_request,
                      "a WebSocket client must offer the subprotocol foxglove.websocket.v1 "
                      "(or foxglove.sdk.v1)\n",
                      request.version());
        return;
      }
      stream_.expires_never();
      start_ws_session(server_, std::move(stream_), std::move(request), std::move(subprotocol));
      return;
    }
    serve(request);
  }

  void serve(const http::request<http::string_body>& request) {
    if (request.method() != http::verb::get && request.method() != http::verb::head) {
      respond_error(http::status::method_not_allowed, "only GET and HEAD\n", request.version());
      return;
    }
    const std::string_view target(request.target().data(), request.target().size());
    const Asset* asset = find_asset(target);
    if (!asset) {
      respond_error(http::status::not_found, "not found\n", request.version());
      return;
    }
    auto response =
        std::make_shared<http::response<http::string_body>>(http::status::ok, request.version());
    response->set(http::field::server, "ubot");
    response->set(http::field::content_type, std::string(asset->content_type));
    response->set(http::field::cache_control, "no-cache");
    // The page only talks to the server it came from.
    response->set("Content-Security-Policy",
                  "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data: blob:");
    response->keep_alive(request.keep_alive());
    if (request.method() == http::verb::get) response->body() = std::string(asset->body);
    response->prepare_payload();
    if (request.method() == http::verb::head) response->content_length(asset->body.size());
    send(std::move(response));
  }

  void respond_error(http::status status, std::string text, unsigned version) {
    auto response = std::make_shared<http::response<http::string_body>>(status, version);
    response->set(http::field::server, "ubot");
    response->set(http::field::content_type, "text/plain; charset=utf-8");
    response->keep_alive(false);
    response->body() = std::move(text);
    response->prepare_payload();
    send(std::move(response));
  }

  void send(std::shared_ptr<http::response<http::string_body>> response) {
    stream_.expires_after(std::chrono::milliseconds(server_->options.request_timeout_ms));
    http::async_write(stream_, *response,
                      [self = shared_from_this(), response](beast::error_code ec, std::size_t) {
                        if (!ec && response->keep_alive()) {
                          self->read();
                          return;
                        }
                        self->stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
                      });
  }

  LiveServer::Impl* server_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace

void start_http_session(LiveServer::Impl* server, tcp::socket socket) {
  std::make_shared<HttpSession>(server, std::move(socket))->read();
}

}  // namespace ubot::live
