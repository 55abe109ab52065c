// Publish rate and one-way latency of the ROS 2 bridge's DDS path on loopback, for a 720-beam
// LaserScan and a 100k-point PointCloud2 (XYZIRT, 2.4 MB). ubot's CycloneDDS transport publishes
// at a fixed rate to a subscriber in another process, as a ROS 2 node on the same machine would
// receive it: CycloneDDS by default (this binary re-run as --listener), or Fast-DDS configured
// like rmw_fastrtps when UBOT_BENCH_FASTDDS_PEER names tests/ros2/ros2_fastdds_peer. The
// subscriber takes samples like an executor (waitset, take, copy into the message struct),
// measures latency from the CLOCK_MONOTONIC send time carried in header.stamp, and counts lost
// messages (its reader is RELIABLE / KEEP_LAST 10: a subscriber that falls behind loses samples).
// All traffic stays on 127.0.0.1 (config/cyclonedds-loopback.xml; Fast-DDS whitelist).
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "ubot/ros2/cdr.h"
#include "ubot/ros2/cyclone_transport.h"
#include "ubot/ros2/sensor_messages.h"

namespace ubot::ros2 {
namespace {

using Steady = std::chrono::steady_clock;

constexpr int kDomain = 77;

Nanos now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Steady::now().time_since_epoch())
      .count();
}

// ---- Subscriber process (CycloneDDS) ------------------------------------------------------------

struct RunStats {
  int run = -1;
  std::int64_t expected = -1;
  Nanos deadline = 0;
  std::vector<Nanos> latencies;
};

void report(RunStats& s) {
  std::sort(s.latencies.begin(), s.latencies.end());
  auto pct = [&](double p) {
    return s.latencies.empty()
               ? 0
               : s.latencies[static_cast<std::size_t>(p * (s.latencies.size() - 1))];
  };
  std::printf("result %d %zu %lld %lld\n", s.run, s.latencies.size(),
              static_cast<long long>(pct(0.5)), static_cast<long long>(pct(0.99)));
  std::fflush(stdout);
  s = RunStats{};
}

int listener() {
  auto transport = make_cyclone_transport({.domain_id = kDomain});
  RunStats stats;
  auto record = [&](const Header& h) {
    const Nanos sent = static_cast<Nanos>(h.stamp.sec) * kNanosPerSecond + h.stamp.nanosec;
    if (std::atoi(h.frame_id.c_str()) == stats.run || stats.run < 0) {
      stats.latencies.push_back(now_ns() - sent);
    }
  };
  auto scan =
      subscribe<LaserScan>(*transport, "/bench/scan", default_sensor_qos(),
                           [&](const LaserScan* m, std::string_view) { record(m->header); });
  auto cloud =
      subscribe<PointCloud2>(*transport, "/bench/points", default_sensor_qos(),
                             [&](const PointCloud2* m, std::string_view) { record(m->header); });
  bool quit = false;
  auto control = subscribe<Clock>(*transport, "/bench/control", default_sensor_qos(),
                                  [&](const Clock* m, std::string_view) {
                                    if (m->clock.sec == -1) {
                                      std::printf("pong\n");
                                      std::fflush(stdout);
                                    } else if (m->clock.sec == -2) {
                                      quit = true;
                                    } else if (m->clock.sec >= 0) {
                                      stats.run = m->clock.sec;
                                      stats.expected = m->clock.nanosec;
                                      stats.deadline = now_ns() + kNanosPerSecond;
                                    }
                                  });
  while (!quit) {
    transport->spin(10'000'000);
    if (stats.expected >= 0 &&
        (static_cast<std::int64_t>(stats.latencies.size()) >= stats.expected ||
         now_ns() > stats.deadline)) {
      report(stats);
    }
  }
  return 0;
}

// ---- Publisher side -----------------------------------------------------------------------------

class Peer {
 public:
  Peer() {
    setenv("CYCLONEDDS_URI", "file://" UBOT_SOURCE_DIR "/config/cyclonedds-loopback.xml", 1);
    int fds[2];
    if (pipe(fds) != 0) std::abort();
    const char* fastdds = std::getenv("UBOT_BENCH_FASTDDS_PEER");
    pid_ = fork();
    if (pid_ == 0) {
      dup2(fds[1], STDOUT_FILENO);
      close(fds[0]);
      close(fds[1]);
      if (fastdds && *fastdds) {
        execl(fastdds, fastdds, "bench", "--domain", std::to_string(kDomain).c_str(), nullptr);
      } else {
        execl("/proc/self/exe", "ros2_bench", "--listener", nullptr);
      }
      _exit(127);
    }
    close(fds[1]);
    out_ = fdopen(fds[0], "r");
    transport_ = make_cyclone_transport({.domain_id = kDomain});
    scan_ = make_writer<LaserScan>(*transport_, "/bench/scan", default_sensor_qos());
    cloud_ = make_writer<PointCloud2>(*transport_, "/bench/points", default_sensor_qos());
    control_ = make_writer<Clock>(*transport_, "/bench/control", default_sensor_qos());
    // Wait until the subscriber answers (discovery done both ways).
    std::thread ping([this] {
      while (!ready_) {
        control_.write(Clock{{-1, 0}});
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    });
    char line[256];
    while (fgets(line, sizeof line, out_) && std::strncmp(line, "pong", 4) != 0) {
    }
    ready_ = true;
    ping.join();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // all readers matched
  }
  ~Peer() {
    control_.write(Clock{{-2, 0}});
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
    fclose(out_);
  }

  // Publishes `count` messages at `rate_hz`; returns the subscriber's report.
  template <class M>
  std::vector<long long> run(Writer<M>& writer, M& message, double rate_hz, int count,
                             double& write_seconds) {
    const int id = next_run_++;
    message.header.frame_id = std::to_string(id);
    const auto start = Steady::now();
    const auto period = std::chrono::duration<double>(1.0 / rate_hz);
    write_seconds = 0;
    for (int i = 0; i < count; ++i) {
      std::this_thread::sleep_until(start +
                                    std::chrono::duration_cast<Steady::duration>(period * i));
      message.header.stamp = to_time(now_ns());
      const auto t0 = Steady::now();
      writer.write(message);
      write_seconds += std::chrono::duration<double>(Steady::now() - t0).count();
    }
    control_.write(Clock{{id, static_cast<std::uint32_t>(count)}});
    char line[256];
    int run = -1;
    long long received = 0, p50 = 0, p99 = 0;
    while (fgets(line, sizeof line, out_)) {
      if (std::sscanf(line, "result %d %lld %lld %lld", &run, &received, &p50, &p99) == 4 &&
          run == id) {
        break;
      }
    }
    return {received, p50, p99};
  }

  Writer<LaserScan>& scan() { return scan_; }
  Writer<PointCloud2>& cloud() { return cloud_; }

 private:
  pid_t pid_ = 0;
  FILE* out_ = nullptr;
  std::unique_ptr<Transport> transport_;
  Writer<LaserScan> scan_;
  Writer<PointCloud2> cloud_;
  Writer<Clock> control_;
  std::atomic<bool> ready_{false};
  int next_run_ = 0;
};

// One subscriber process for all benchmarks, started by the first one and ended by main().
std::unique_ptr<Peer> g_peer;
Peer& peer() {
  if (!g_peer) g_peer = std::make_unique<Peer>();
  return *g_peer;
}

void report_counters(benchmark::State& state, const std::vector<long long>& r, int count,
                     double rate, double write_seconds) {
  state.counters["rate_hz"] = rate;
  state.counters["sent"] = count;
  state.counters["lost"] = static_cast<double>(count - r[0]);
  state.counters["p50_us"] = static_cast<double>(r[1]) / 1e3;
  state.counters["p99_us"] = static_cast<double>(r[2]) / 1e3;
  state.counters["write_us"] = write_seconds / count * 1e6;
}

void BM_LaserScan720(benchmark::State& state) {
  const double rate = static_cast<double>(state.range(0));
  const int count = static_cast<int>(rate);  // one second
  LaserScan m;
  m.angle_min = -3.14159f;
  m.angle_increment = 0.0087266f;
  m.range_max = 30.0f;
  m.ranges.assign(720, 5.0f);
  m.intensities.assign(720, 1.0f);
  for (auto _ : state) {
    double write_seconds = 0;
    const auto r = peer().run(peer().scan(), m, rate, count, write_seconds);
    report_counters(state, r, count, rate, write_seconds);
  }
}
BENCHMARK(BM_LaserScan720)->Arg(1000)->Arg(5000)->Iterations(1)->Unit(benchmark::kMillisecond);

void BM_PointCloud100k(benchmark::State& state) {
  const double rate = static_cast<double>(state.range(0));
  const int count = static_cast<int>(rate);  // one second
  PointCloudData cloud;
  for (int i = 0; i < 100'000; ++i) {
    cloud.points.push_back(
        {0.01f * i, 1.0f, 2.0f, 0.5f, static_cast<std::uint16_t>(i % 32), 1e-6f * i});
  }
  PointCloud2 m;
  to_point_cloud2(cloud, m);
  for (auto _ : state) {
    double write_seconds = 0;
    const auto r = peer().run(peer().cloud(), m, rate, count, write_seconds);
    report_counters(state, r, count, rate, write_seconds);
  }
}
BENCHMARK(BM_PointCloud100k)->Arg(10)->Arg(100)->Iterations(1)->Unit(benchmark::kMillisecond);

// Building the PointCloud2 from 100k points (what the bridge does before each write).
void BM_BuildPointCloud2_100k(benchmark::State& state) {
  PointCloudData cloud;
  for (int i = 0; i < 100'000; ++i) cloud.points.push_back({0.01f * i, 1, 2, 0.5f, 3, 0});
  PointCloud2 m;
  for (auto _ : state) {
    to_point_cloud2(cloud, m);
    benchmark::DoNotOptimize(m.data.data());
  }
  state.SetItemsProcessed(state.iterations() * 100'000);
}
BENCHMARK(BM_BuildPointCloud2_100k)->Unit(benchmark::kMicrosecond);

// A 640x480 rgb8 camera image made into its CDR bytes (what MCAP and the live view write),
// reusing both buffers: `view` is to_image (the message views the camera's pixels), `copy` the
// path before it (the pixels copied into the message first). One run gives the ratio.
void BM_ImageCdr640x480(benchmark::State& state) {
  const bool copy = state.range(0) == 1;
  ImageData image;
  image.width = 640;
  image.height = 480;
  image.encoding = "rgb8";
  image.step = 640 * 3;
  image.data.resize(640 * 480 * 3);
  for (std::size_t i = 0; i < image.data.size(); ++i) image.data[i] = static_cast<std::uint8_t>(i);
  Image m;
  std::vector<std::uint8_t> bytes;
  for (auto _ : state) {
    to_image(image, m);
    if (copy) m.data.own();
    serialize_cdr(m, bytes);
    benchmark::DoNotOptimize(bytes.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(image.data.size()));
  state.SetLabel(copy ? "copy" : "view");
}
BENCHMARK(BM_ImageCdr640x480)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace ubot::ros2

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--listener") == 0) return ubot::ros2::listener();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  ubot::ros2::g_peer.reset();
  benchmark::Shutdown();
  return 0;
}
