// Map benchmarks: insert + dedup throughput and memory per occupied voxel of PointMap, side by
// side with OctoMap (the peer; Debian liboctomap-dev) on the same lidar-like points at the same
// resolution. OctoMap inserts with OcTree::updateNode(point, true): occupancy only, no ray
// clearing, the closest thing it has to a point map.
//
// Data: a 32-channel, 1024-column spinning lidar (vertical ±15°, 60 m) driving down a street
// (ground, two facades 8 m away) 0.5 m per scan, 64 scans = 1.9 M points; most voxels are seen
// in many scans, so inserts are mostly dedup hits, as in a running map.
//
// Measured on the 2-core AMD EPYC VM (AVX-512), Release, `taskset -c 1`,
// --benchmark_repetitions=3, medians (README "Benchmarks" has the table):
//   BM_PointMapInsert                25.9 M points/s, 24.9 bytes per occupied voxel
//   BM_PointMapInsertFarFromOrigin   26.5 M points/s
//   BM_AccumulatorThreaded           18.6 M points/s (wall time, worker thread)
//   BM_OctoMapInsert                 1.81 M points/s, 70.0 bytes per leaf
// Decisions measured here: the batch insert's prefetch pipeline took PointMap from 12 to 25
// M points/s (the rest is cache misses on blocks and slot inserts); a 1024-entry front cache
// of recent blocks alone gained nothing measurable before it.
#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "ubot/mapping/accumulator.h"
#include "ubot/mapping/point_map.h"

#ifdef UBOT_HAVE_OCTOMAP
#include <octomap/octomap.h>
#endif

namespace {

using ubot::mapping::MapPoint;
using ubot::mapping::PointMap;

constexpr double kResolution = 0.05;

// Analytic street: ground z = 0, facades y = ±8; returns the nearest hit within 60 m.
bool street_hit(const Eigen::Vector3d& o, const Eigen::Vector3d& d, Eigen::Vector3d& hit) {
  double t = 60.0;
  if (d.z() < -1e-9) t = std::min(t, -o.z() / d.z());
  if (d.y() > 1e-9) t = std::min(t, (8.0 - o.y()) / d.y());
  if (d.y() < -1e-9) t = std::min(t, (-8.0 - o.y()) / d.y());
  if (t >= 60.0) return false;
  hit = o + t * d;
  return true;
}

const std::vector<std::vector<MapPoint>>& lidar_scans() {
  static const std::vector<std::vector<MapPoint>> scans = [] {
    std::vector<std::vector<MapPoint>> out;
    for (int s = 0; s < 64; ++s) {
      const Eigen::Vector3d origin(0.5 * s, 0.3, 1.8);
      std::vector<MapPoint> scan;
      // Column by column, as spinning lidars deliver their firings.
      for (int a = 0; a < 1024; ++a) {
        const double azimuth = 2.0 * std::numbers::pi * a / 1024.0;
        for (int c = 0; c < 32; ++c) {
          const double elevation = (-15.0 + 30.0 * c / 31.0) * std::numbers::pi / 180.0;
          const Eigen::Vector3d d(std::cos(elevation) * std::cos(azimuth),
                                  std::cos(elevation) * std::sin(azimuth), std::sin(elevation));
          Eigen::Vector3d p;
          if (street_hit(origin, d, p)) {
            scan.push_back({p, static_cast<std::uint16_t>((a * 37 + c * 101) & 0xFFFF), {}});
          }
        }
      }
      out.push_back(std::move(scan));
    }
    return out;
  }();
  return scans;
}

std::size_t total_points() {
  std::size_t n = 0;
  for (const auto& s : lidar_scans()) n += s.size();
  return n;
}

void BM_PointMapInsert(benchmark::State& state) {
  const auto& scans = lidar_scans();
  std::size_t voxels = 0, bytes = 0;
  for (auto _ : state) {
    PointMap map(Eigen::Vector3d::Zero(), {.resolution = kResolution});
    for (const auto& scan : scans) map.insert(scan);
    voxels = map.size();
    bytes = map.memory_bytes();
    benchmark::DoNotOptimize(voxels);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * total_points()));
  state.counters["voxels"] = static_cast<double>(voxels);
  state.counters["bytes_per_voxel"] = static_cast<double>(bytes) / voxels;
}
BENCHMARK(BM_PointMapInsert)->Unit(benchmark::kMillisecond);

// The same points 10 km from the map origin: the conversion costs the same anywhere.
void BM_PointMapInsertFarFromOrigin(benchmark::State& state) {
  std::vector<std::vector<MapPoint>> scans = lidar_scans();
  for (auto& scan : scans) {
    for (MapPoint& p : scan) p.position += Eigen::Vector3d(10000.0, 10000.0, 0.0);
  }
  for (auto _ : state) {
    PointMap map(Eigen::Vector3d::Zero(), {.resolution = kResolution});
    for (const auto& scan : scans) map.insert(scan);
    benchmark::DoNotOptimize(map.size());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * total_points()));
}
BENCHMARK(BM_PointMapInsertFarFromOrigin)->Unit(benchmark::kMillisecond);

// Through the accumulator (range guard, one batch in flight on the worker thread).
void BM_AccumulatorThreaded(benchmark::State& state) {
  std::vector<ubot::mapping::PointBatch> batches;
  for (const auto& scan : lidar_scans()) {
    ubot::mapping::PointBatch b;
    b.origin_W = scan.front().position;  // any point: the guard range below covers the street
    b.range_max = 1000.0;
    for (const MapPoint& p : scan) {
      b.points_W.push_back(p.position);
      b.intensities.push_back(p.intensity);
    }
    batches.push_back(std::move(b));
  }
  for (auto _ : state) {
    ubot::mapping::MapAccumulator acc(
        "bench", PointMap(Eigen::Vector3d::Zero(), {.resolution = kResolution}), {"lidar"});
    for (const auto& b : batches) acc.add(b);
    acc.flush();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * total_points()));
}
BENCHMARK(BM_AccumulatorThreaded)->Unit(benchmark::kMillisecond)->UseRealTime();

#ifdef UBOT_HAVE_OCTOMAP
void BM_OctoMapInsert(benchmark::State& state) {
  const auto& scans = lidar_scans();
  std::size_t leaves = 0, bytes = 0;
  for (auto _ : state) {
    octomap::OcTree tree(kResolution);
    for (const auto& scan : scans) {
      for (const MapPoint& p : scan) {
        tree.updateNode(
            octomap::point3d(static_cast<float>(p.position.x()), static_cast<float>(p.position.y()),
                             static_cast<float>(p.position.z())),
            true);
      }
    }
    leaves = tree.getNumLeafNodes();
    bytes = tree.memoryUsage();
    benchmark::DoNotOptimize(leaves);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * total_points()));
  state.counters["voxels"] = static_cast<double>(leaves);
  state.counters["bytes_per_voxel"] = static_cast<double>(bytes) / leaves;
}
BENCHMARK(BM_OctoMapInsert)->Unit(benchmark::kMillisecond);
#endif

}  // namespace

BENCHMARK_MAIN();
