// MCAP write throughput (README "Benchmarks"); codec 0 = none, 1 = lz4, 2 = zstd:
//   BM_McapLaserScan/<codec>        one 720-beam LaserScan (ranges with 1 cm noise, intensities
//                                   0/1) serialised to CDR and written: messages/s and MB/s of
//                                   message bytes; `ratio` = chunk bytes before / after compression
//   BM_McapWarehouseRecord/<codec>  McapRecorder::record after each step of
//                                   examples/warehouse.yaml (clock, tf, 3 odometries, 3 scans of
//                                   360, 270 and 180 beams); the steps themselves are not timed
//   BM_WarehouseRun/<codec or -1>   a whole warehouse run (293 steps, until every robot is done),
//                                   without (-1) and with recording: what recording adds to a run
//   BM_WorldMarkers/<robots>        one /ubot/markers message of N wandering lidar robots and N/2
//                                   obstacles at the 1000-robot world's density, after 100 steps
//                                   of trajectory: drawn, made into markers, serialised to CDR
//                                   (what the bridge, the recorder and the live view pay at most
//                                   10 times a simulated second); `KiB` = its CDR size
// Files are written to the temporary directory (into the page cache); rates are per CPU second of
// the process (the writes' system time included).
#include <benchmark/benchmark.h>

#include <cmath>
#include <filesystem>
#include <memory>

#include "bench_worlds.h"
#include "ubot/config/load_world.h"
#include "ubot/core/random.h"
#include "ubot/record/mcap_recorder.h"
#include "ubot/record/mcap_writer.h"
#include "ubot/ros2/cdr.h"
#include "ubot/ros2/message_definition.h"
#include "ubot/ros2/world_messages.h"
#include "ubot/sim/simulation.h"
#include "ubot/viz/run_drawing.h"

namespace ubot {
namespace {

McapCompression codec(std::int64_t i) {
  return i == 1 ? McapCompression::kLz4 : i == 2 ? McapCompression::kZstd : McapCompression::kNone;
}

std::string temp_file(const char* name) {
  return (std::filesystem::temp_directory_path() / name).string();
}

void report(benchmark::State& state, const McapStatistics& s) {
  state.SetItemsProcessed(static_cast<std::int64_t>(s.messages));
  state.SetBytesProcessed(static_cast<std::int64_t>(s.message_bytes));
  state.counters["ratio"] =
      s.compressed_bytes > 0 ? static_cast<double>(s.uncompressed_bytes) / s.compressed_bytes : 0;
}

// 256 different scans (noise drawn for each), more than a chunk holds, so compression sees no
// repeated scan.
std::vector<ros2::LaserScan> scans_720() {
  std::vector<ros2::LaserScan> scans;
  RandomStream rng(42);
  for (int k = 0; k < 256; ++k) {
    ros2::LaserScan m;
    m.header.frame_id = "robot_0/lidar2d_0";
    m.angle_min = -3.14159f;
    m.angle_max = 3.13286f;
    m.angle_increment = 0.00872665f;
    m.scan_time = 0.1f;
    m.range_min = 0.1f;
    m.range_max = 30.0f;
    for (int i = 0; i < 720; ++i) {
      const double wall = 4.0 + 2.0 * std::sin(i * 0.0174 + 0.01 * k) + 0.5 * std::cos(i * 0.09);
      const bool hit = (i + k) % 97 > 5;
      m.ranges.push_back(hit ? static_cast<float>(wall + rng.gaussian(0.01)) : 30.0f);
      m.intensities.push_back(hit ? 1.0f : 0.0f);
    }
    scans.push_back(std::move(m));
  }
  return scans;
}

void BM_McapLaserScan(benchmark::State& state) {
  const std::string path = temp_file("ubot_bench_scan.mcap");
  std::vector<ros2::LaserScan> scans = scans_720();
  std::vector<std::uint8_t> bytes;
  auto writer = std::make_unique<McapWriter>(
      path, McapWriterOptions{.profile = "ros2", .compression = codec(state.range(0))});
  const std::uint16_t schema =
      writer->add_schema("sensor_msgs/msg/LaserScan", "ros2msg",
                         ros2::message_definition(ros2::MessageKind::kLaserScan));
  const std::uint16_t channel = writer->add_channel(schema, "/robot_0/scan", "cdr");
  std::uint32_t n = 0;
  for (auto _ : state) {
    const Nanos t = 100'000'000LL * n;
    ros2::LaserScan& scan = scans[n % scans.size()];
    scan.header.stamp = ros2::to_time(t);
    ros2::serialize_cdr(scan, bytes);
    writer->write(channel, n++, t, t, bytes);
  }
  writer->close();
  report(state, writer->statistics());
  std::filesystem::remove(path);
}
BENCHMARK(BM_McapLaserScan)->DenseRange(0, 2)->ArgName("codec");

WorldModel warehouse() { return load_world(UBOT_SOURCE_DIR "/examples/warehouse.yaml"); }

void BM_McapWarehouseRecord(benchmark::State& state) {
  const std::string path = temp_file("ubot_bench_warehouse.mcap");
  Simulation sim(warehouse(), {.threads = 1});
  McapRecorder recorder(path, sim, {.compression = codec(state.range(0))});
  for (auto _ : state) {
    state.PauseTiming();
    sim.step();
    state.ResumeTiming();
    recorder.record(sim);
  }
  recorder.close();
  report(state, recorder.statistics());
  std::filesystem::remove(path);
}
BENCHMARK(BM_McapWarehouseRecord)->DenseRange(0, 2)->ArgName("codec");

void BM_WarehouseRun(benchmark::State& state) {
  const std::string path = temp_file("ubot_bench_run.mcap");
  const WorldModel model = warehouse();
  McapStatistics stats;
  std::int64_t steps = 0;
  for (auto _ : state) {
    Simulation sim(model, {.threads = 1});
    std::unique_ptr<McapRecorder> recorder;
    if (state.range(0) >= 0) {
      recorder = std::make_unique<McapRecorder>(
          path, sim, McapRecorderOptions{.compression = codec(state.range(0))});
      recorder->record(sim);
    }
    while (!sim.world().done() && sim.world().step_count() < 1000) {
      sim.step();
      if (recorder) recorder->record(sim);
    }
    steps = sim.world().step_count();
    if (recorder) {
      recorder->close();
      stats = recorder->statistics();
    }
  }
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["messages"] = static_cast<double>(stats.messages);
  state.counters["file_MiB"] = stats.file_bytes / 1048576.0;
  std::filesystem::remove(path);
}
BENCHMARK(BM_WarehouseRun)
    ->Arg(-1)
    ->DenseRange(0, 2)
    ->ArgName("codec")
    ->Unit(benchmark::kMillisecond);

void BM_WorldMarkers(benchmark::State& state) {
  const int robots = static_cast<int>(state.range(0));
  const double size = std::round(200.0 * std::sqrt(robots / 1000.0));
  Simulation sim(load_world_from_string(
                     bench::lidar_robots_yaml(robots, robots / 2, size, "unobstructed"), "fleet"),
                 {.threads = 0});
  viz::RunDrawing drawing(sim);
  for (int k = 0; k < 100; ++k) {
    sim.step();
    drawing.record(sim);
  }
  std::vector<std::uint8_t> bytes;
  for (auto _ : state) {
    const ros2::MarkerArray m =
        ros2::world_markers(drawing.draw(sim, {.sensors = false}), sim.world(),
                            ros2::MarkerPart::kMoving, sim.world().time_ns());
    ros2::serialize_cdr(m, bytes);
    benchmark::DoNotOptimize(bytes.data());
  }
  state.counters["KiB"] = bytes.size() / 1024.0;
}
BENCHMARK(BM_WorldMarkers)->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ubot

BENCHMARK_MAIN();
