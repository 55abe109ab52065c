// The live view's cost to a run, and how late a scan reaches a client (docs/live.md, "Cost").
// One step of N wandering lidar robots (bench_worlds.h, the 1000-robot world's density) with no
// live view, with a live view no client watches, with the page's channels watched (what the
// browser page subscribes to: /ubot/world, /ubot/frame and the world's markers, which carry
// the lidars' beams at the page's pace), and with every channel watched
// (Foxglove subscribed to all: every robot's odometry, scan and transform, in CDR). The client
// is a Boost.Beast WebSocket client on its own thread that reads as fast as it can. Wall time:
// the server's thread works beside the step.
#include <benchmark/benchmark.h>

#include <utility>

#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include <sys/socket.h>

#include "bench_worlds.h"
#include "ubot/config/load_world.h"
#include "ubot/live/live_view.h"
#include "ubot/ros2/cdr.h"
#include "ubot/ros2/world_messages.h"
#include "ubot/sim/simulation.h"

namespace {

namespace beast = boost::beast;
namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

enum Watch { kNoView = 0, kUnwatched = 1, kPage = 2, kEverything = 3 };

// A client subscribed to the channels its kind watches; counts what it reads, and notes when
// the scan of the step the benchmark marks arrives.
class Client {
 public:
  Client(std::uint16_t port, Watch watch) : thread_([this, port, watch] { run(port, watch); }) {
    while (!subscribed_) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~Client() {
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);  // ends the blocking read (a sync read has no timeout)
    thread_.join();
  }
  std::uint64_t bytes() const { return bytes_; }
  // /robot_0/scan messages read so far (kEverything), and the arrival time of the one after the
  // `seen`-th.
  std::uint64_t scans() const { return scans_; }
  Clock::time_point scan_after(std::uint64_t seen) {
    while (scans_ == seen) std::this_thread::yield();
    return scan_at_;
  }

 private:
  void run(std::uint16_t port, Watch watch) {
    asio::io_context io;
    beast::websocket::stream<beast::tcp_stream> ws(io);
    asio::ip::tcp::resolver resolver(io);
    beast::get_lowest_layer(ws).connect(resolver.resolve("127.0.0.1", std::to_string(port)));
    ws.set_option(beast::websocket::stream_base::decorator([](beast::websocket::request_type& r) {
      r.set(beast::http::field::sec_websocket_protocol, "foxglove.websocket.v1");
    }));
    ws.read_message_max(0);  // no limit: 10,000 robots advertise tens of MB of channels
    ws.handshake("127.0.0.1", "/");
    fd_ = beast::get_lowest_layer(ws).socket().native_handle();
    beast::flat_buffer buffer;
    std::map<std::uint32_t, std::string> topics;
    for (int i = 0; i < 2; ++i) {  // serverInfo, then the channels
      ws.read(buffer);
      const auto m = nlohmann::json::parse(beast::buffers_to_string(buffer.data()));
      buffer.consume(buffer.size());
      if (m["op"] != "advertise") continue;
      nlohmann::json subscribe = {{"op", "subscribe"}, {"subscriptions", nlohmann::json::array()}};
      for (const auto& c : m["channels"]) {
        const std::string topic = c["topic"], schema = c["schemaName"];
        // What the page reads (live.js, scene.js): its JSON channels and the world's markers.
        const bool page = topic == "/ubot/world" || topic == "/ubot/frame" ||
                          schema == "visualization_msgs/msg/MarkerArray" ||
                          schema == "nav_msgs/msg/OccupancyGrid";
        if (watch == kEverything || (watch == kPage && page)) {
          subscribe["subscriptions"].push_back({{"id", c["id"]}, {"channelId", c["id"]}});
          topics[c["id"]] = topic;
        }
      }
      ws.write(asio::buffer(subscribe.dump()));
    }
    subscribed_ = true;
    while (!stop_) {
      beast::error_code ec;
      const std::size_t n = ws.read(buffer, ec);
      if (ec) break;
      bytes_ += n;
      const auto* data = static_cast<const std::uint8_t*>(buffer.data().data());
      if (!ws.got_text() && n >= 5 && data[0] == 1) {
        std::uint32_t sub = 0;
        std::memcpy(&sub, data + 1, 4);
        if (topics[sub] == "/robot_0/scan") {
          scan_at_ = Clock::now();
          ++scans_;
        }
      }
      buffer.consume(buffer.size());
    }
  }

  std::atomic<bool> subscribed_{false}, stop_{false};
  std::atomic<std::uint64_t> bytes_{0}, scans_{0};
  std::atomic<Clock::time_point> scan_at_{};
  std::atomic<int> fd_{-1};
  std::thread thread_;
};

ubot::Simulation fleet(int robots) {
  // The 1000-robot world's density: 1000 robots and 500 obstacles in 200 m x 200 m.
  const double size = std::round(200.0 * std::sqrt(robots / 1000.0));
  return ubot::Simulation(ubot::load_world_from_string(
      ubot::bench::lidar_robots_yaml(robots, robots / 2, size, "unobstructed"), "fleet"));
}

bool no_stop() { return false; }

std::unique_ptr<ubot::live::LiveView> view_of(const ubot::Simulation& sim) {
  ubot::live::LiveServerOptions o;
  o.address.port = 0;
  return std::make_unique<ubot::live::LiveView>(sim, std::move(o), 0.0);
}

void BM_LiveStep(benchmark::State& state) {
  const int robots = static_cast<int>(state.range(0));
  const auto watch = static_cast<Watch>(state.range(1));
  ubot::Simulation sim = fleet(robots);
  std::unique_ptr<ubot::live::LiveView> view = watch == kNoView ? nullptr : view_of(sim);
  std::unique_ptr<Client> client =
      watch >= kPage ? std::make_unique<Client>(view->server().port(), watch) : nullptr;
  if (view) view->publish(sim);
  // Where the live view's time goes: its turn before the step (the clients' commands), and
  // publishing the step.
  Clock::duration commands{}, publish{};
  for (auto _ : state) {
    const auto start = Clock::now();
    const std::span<const ubot::Command> c =
        view ? *view->turn(sim, no_stop) : std::span<const ubot::Command>{};
    const auto stepped = Clock::now();
    sim.step(c);
    const auto published = Clock::now();
    if (view) view->publish(sim);
    commands += stepped - start;
    publish += Clock::now() - published;
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["commands_us"] = std::chrono::duration<double, std::micro>(commands).count() / n;
  state.counters["publish_us"] = std::chrono::duration<double, std::micro>(publish).count() / n;
  state.counters["robots"] = robots;
  if (client) {
    state.counters["client_MB/s"] =
        benchmark::Counter(static_cast<double>(client->bytes()) / 1e6, benchmark::Counter::kIsRate);
    state.counters["dropped"] = static_cast<double>(view->server().dropped_frames());
  }
}
BENCHMARK(BM_LiveStep)
    ->ArgsProduct({{100}, {kNoView, kUnwatched, kPage, kEverything}})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LiveStep)
    ->ArgsProduct({{10000}, {kNoView, kUnwatched, kPage, kEverything}})
    ->UseRealTime()
    ->Iterations(10)
    ->Unit(benchmark::kMillisecond);

// From the end of a step (its messages handed to the server) to the scan's arrival at a
// client that watches everything, on loopback: the manual time is that latency.
void BM_ScanLatency(benchmark::State& state) {
  ubot::Simulation sim = fleet(static_cast<int>(state.range(0)));
  auto view = view_of(sim);
  Client client(view->server().port(), kEverything);
  // The subscription takes effect on the server's thread: step until the first scan arrives.
  while (client.scans() == 0) {
    sim.step(*view->turn(sim, no_stop));
    view->publish(sim);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  for (auto _ : state) {
    sim.step(*view->turn(sim, no_stop));
    const std::uint64_t seen = client.scans();
    const auto published = Clock::now();
    view->publish(sim);
    const auto arrived = client.scan_after(seen);
    state.SetIterationTime(std::chrono::duration<double>(arrived - published).count());
  }
}
BENCHMARK(BM_ScanLatency)->Arg(100)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace

// The page's frame (/ubot/frame) built on the step's thread: what a watched step pays, at most
// 30 times a second.
void BM_PageFrame(benchmark::State& state) {
  const int robots = static_cast<int>(state.range(0));
  ubot::Simulation sim = fleet(robots);
  std::unique_ptr<ubot::live::LiveView> view = view_of(sim);
  sim.step();
  std::size_t bytes = 0;
  for (auto _ : state) bytes = view->frame_json(sim).size();
  state.counters["frame_kB"] = static_cast<double>(bytes) / 1e3;
  state.counters["robots"] = robots;
}
BENCHMARK(BM_PageFrame)->Arg(100)->Arg(10000)->Unit(benchmark::kMicrosecond);

// The /ubot/markers message the page draws the world from, as a live view makes it at the
// page's pace: the picture with the lidars' beams (at most 4,000), its markers, their CDR.
void BM_PageMarkers(benchmark::State& state) {
  const int robots = static_cast<int>(state.range(0));
  ubot::Simulation sim = fleet(robots);
  sim.step();
  const ubot::viz::RunDrawing drawing(sim);
  std::vector<std::uint8_t> cdr;
  for (auto _ : state) {
    const ubot::ros2::MarkerArray m =
        ubot::ros2::world_markers(drawing.draw(sim, {.beams_at_most = 4000}), sim.world(),
                                  ubot::ros2::MarkerPart::kMoving, sim.world().time_ns());
    ubot::ros2::serialize_cdr(m, cdr);
  }
  state.counters["message_kB"] = static_cast<double>(cdr.size()) / 1e3;
  state.counters["robots"] = robots;
}
BENCHMARK(BM_PageMarkers)->Arg(100)->Arg(10000)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
