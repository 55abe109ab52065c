// The accumulator: range guard, rate-limited warnings, flush, and identical maps whatever the
// insertion thread's timing.
#include "ubot/mapping/accumulator.h"

#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <thread>

#include "test_support.h"
#include "ubot/mapping/map_io.h"

namespace ubot::mapping {
namespace {

// Lidar-like batches: a scanner moving along x sees two walls and some far outliers.
std::vector<PointBatch> batches(int n, std::uint32_t seed, double outlier_share = 0.0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<PointBatch> out;
  for (int k = 0; k < n; ++k) {
    PointBatch b;
    b.scanner = k % 2;
    b.origin_W = {10000.0 + 0.3 * k, 10000.0, 0.5};
    b.range_max = 10.0;
    for (int i = 0; i < 500; ++i) {
      const double x = b.origin_W.x() + 16.0 * (u(rng) - 0.5);
      const double y = u(rng) < 0.5 ? 10003.0 : 9997.0;
      const double z = 2.0 * u(rng);
      const bool outlier = u(rng) < outlier_share;
      b.points_W.emplace_back(x, outlier ? y + 40.0 : y, z);
      b.intensities.push_back(static_cast<std::uint16_t>(u(rng) * 65535));
    }
    out.push_back(std::move(b));
  }
  return out;
}

std::vector<char> saved_bytes(MapAccumulator& acc, const test::TempDir& dir, const char* name) {
  save_map(acc.map(), dir.file(name));
  return test::read_bytes(dir.file(name));
}

TEST(MapAccumulator, ThreadedInsertionGivesTheSameMapAsSynchronous) {
  const std::vector<PointBatch> input = batches(300, 7);
  test::TempDir dir;
  for (const DedupPolicy policy : {DedupPolicy::kFirst, DedupPolicy::kBrighter}) {
    MapAccumulator sync("m", PointMap({10000, 10000, 0}, {.resolution = 0.05, .policy = policy}),
                        {"a", "b"}, /*threaded=*/false);
    for (const PointBatch& b : input) sync.add(b);
    const std::vector<char> reference = saved_bytes(sync, dir, "sync.las");
    for (int run = 0; run < 3; ++run) {
      MapAccumulator threaded("m",
                              PointMap({10000, 10000, 0}, {.resolution = 0.05, .policy = policy}),
                              {"a", "b"}, /*threaded=*/true);
      std::mt19937 jitter(run);
      for (const PointBatch& b : input) {
        threaded.add(b);
        if (jitter() % 4 == 0)
          std::this_thread::sleep_for(std::chrono::microseconds(jitter() % 300));
      }
      EXPECT_EQ(saved_bytes(threaded, dir, "threaded.las"), reference) << run;
      EXPECT_EQ(threaded.stats().counters.merged, sync.stats().counters.merged);
    }
  }
}

TEST(MapAccumulator, DropsPointsBeyondOneAndAHalfRangeMaxAndCountsThem) {
  std::vector<std::string> warnings;
  MapAccumulator acc("m", PointMap(Eigen::Vector3d::Zero()), {"robot_0/lidar2d_0"}, true,
                     [&](const std::string& w) { warnings.push_back(w); });
  PointBatch b;
  b.origin_W = {1, 2, 0.5};
  b.range_max = 10.0;
  b.points_W = {{1 + 14.99, 2, 0.5},    // inside 15 m: kept
                {1, 2 + 15.01, 0.5},    // beyond: dropped
                {1 + 400, 2, 0.5},      // a ghost-like outlier: dropped
                {std::nan(""), 0, 0}};  // not a point: dropped
  acc.add(b);
  const AccumulatorStats s = acc.stats();
  EXPECT_EQ(s.points, 1u);
  EXPECT_EQ(s.dropped_far, 3u);
  EXPECT_EQ(s.received, 4u);
  ASSERT_EQ(s.scanners.size(), 1u);
  EXPECT_EQ(s.scanners[0].dropped_far, 3u);
  EXPECT_EQ(s.scanners[0].batches, 1u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("robot_0/lidar2d_0"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("1.5 x range_max (15 m)"), std::string::npos) << warnings[0];
}

TEST(MapAccumulator, GuardWarningsAreRateLimitedToPowersOfTen) {
  std::vector<std::string> warnings;
  MapAccumulator acc("m", PointMap(Eigen::Vector3d::Zero()), {"s"}, true,
                     [&](const std::string& w) { warnings.push_back(w); });
  for (int k = 0; k < 1000; ++k) {  // one far point per batch
    PointBatch b;
    b.range_max = 1.0;
    b.points_W = {{100, 0, 0}};
    acc.add(b);
  }
  EXPECT_EQ(acc.stats().dropped_far, 1000u);
  EXPECT_EQ(warnings.size(), 4u);  // at the 1st, 10th, 100th and 1000th
}

TEST(MapAccumulator, StatsFlushFirstAndCountEveryScanner) {
  const std::vector<PointBatch> input = batches(50, 3, 0.01);
  MapAccumulator acc("m", PointMap({10000, 10000, 0}), {"a", "b"});
  std::uint64_t outliers = 0;
  for (const PointBatch& b : input) {
    for (const auto& p : b.points_W) outliers += (p - b.origin_W).norm() > 15.0;
    acc.add(b);
  }
  const AccumulatorStats s = acc.stats();  // no explicit flush: stats() flushes
  EXPECT_EQ(s.received, 50u * 500u);
  EXPECT_EQ(s.dropped_far, outliers);
  EXPECT_GT(outliers, 0u);
  EXPECT_EQ(s.counters.inserted, s.received - s.dropped_far);
  EXPECT_EQ(s.scanners[0].batches + s.scanners[1].batches, 50u);
  EXPECT_EQ(s.points, acc.map().size());
}

}  // namespace
}  // namespace ubot::mapping
