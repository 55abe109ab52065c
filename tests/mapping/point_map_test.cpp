// The voxel-block store: dedup policies, exact read-back, probes against brute force, bounds,
// counters and rejection of points it cannot hold.
#include "ubot/mapping/point_map.h"

#include <gtest/gtest.h>

#include <random>

#include "ubot/core/error.h"

namespace ubot::mapping {
namespace {

std::vector<MapPoint> random_points(std::size_t n, const Eigen::Vector3d& center, double spread,
                                    std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-spread, spread);
  std::uniform_int_distribution<int> intensity(0, 65535);
  std::vector<MapPoint> points(n);
  for (MapPoint& p : points) {
    p.position = center + Eigen::Vector3d(u(rng), u(rng), u(rng));
    p.intensity = static_cast<std::uint16_t>(intensity(rng));
  }
  return points;
}

Eigen::Vector3i voxel_of(const Eigen::Vector3d& p, const PointMap& map) {
  const Eigen::Vector3d v = ((p - map.origin()) / map.resolution()).array().floor();
  return v.cast<int>();
}

TEST(PointMap, FirstPointWinsAndReadsBackWhereItWasInserted) {
  PointMap map(Eigen::Vector3d::Zero(), {.resolution = 0.1});
  EXPECT_TRUE(map.insert({{1.234, -5.678, 0.9}, 100, {}}));
  EXPECT_FALSE(map.insert({{1.21, -5.61, 0.95}, 60000, {}}));  // same voxel: merged
  EXPECT_TRUE(map.insert({{1.31, -5.61, 0.95}, 7, {}}));       // next voxel in x
  ASSERT_EQ(map.size(), 2u);
  const std::vector<MapPoint> points = map.points();
  // Sub-voxel positions are 16-bit: the read-back error is at most resolution / 131072.
  const double half_quantum = 0.1 / 131072 + 1e-12;
  EXPECT_LE((points[0].position - Eigen::Vector3d(1.234, -5.678, 0.9)).cwiseAbs().maxCoeff(),
            half_quantum);
  EXPECT_EQ(points[0].intensity, 100);
  EXPECT_LE((points[1].position - Eigen::Vector3d(1.31, -5.61, 0.95)).cwiseAbs().maxCoeff(),
            half_quantum);
  EXPECT_EQ(map.counters().inserted, 3u);
  EXPECT_EQ(map.counters().merged, 1u);
}

TEST(PointMap, KeepBrighterReplacesOnlyWithAStrictlyBrighterPoint) {
  PointMap map(Eigen::Vector3d::Zero(), {.resolution = 0.1, .policy = DedupPolicy::kBrighter});
  map.insert({{0.01, 0.01, 0.01}, 10, {}});
  map.insert({{0.02, 0.02, 0.02}, 10, {}});  // equal: kept point stays
  EXPECT_LT((map.points()[0].position - Eigen::Vector3d(0.01, 0.01, 0.01)).norm(), 1e-6);
  map.insert({{0.05, 0.06, 0.07}, 11, {}});
  ASSERT_EQ(map.size(), 1u);
  EXPECT_EQ(map.points()[0].intensity, 11);
  EXPECT_LT((map.points()[0].position - Eigen::Vector3d(0.05, 0.06, 0.07)).norm(), 1e-6);
  EXPECT_EQ(map.counters().replaced, 1u);
  EXPECT_EQ(map.counters().merged, 1u);
}

TEST(PointMap, OneKeptPointPerOccupiedVoxelAndEveryVoxelCovered) {
  PointMap map({0.3, -0.2, 0.1}, {.resolution = 0.05});
  const std::vector<MapPoint> in = random_points(200000, {2, 3, 1}, 1.0, 1);
  map.insert(in);
  std::set<std::array<int, 3>> voxels;
  for (const MapPoint& p : in) {
    const Eigen::Vector3i v = voxel_of(p.position, map);
    voxels.insert({v.x(), v.y(), v.z()});
  }
  EXPECT_EQ(map.size(), voxels.size());
  std::set<std::array<int, 3>> kept;
  for (const MapPoint& p : map.points()) {
    const Eigen::Vector3i v = voxel_of(p.position, map);
    EXPECT_TRUE(kept.insert({v.x(), v.y(), v.z()}).second) << "two points in one voxel";
  }
  EXPECT_EQ(kept, voxels);
  // First point wins: each kept point is the first input point of its voxel.
  std::map<std::array<int, 3>, Eigen::Vector3d> first;
  for (const MapPoint& p : in) {
    const Eigen::Vector3i v = voxel_of(p.position, map);
    first.emplace(std::array<int, 3>{v.x(), v.y(), v.z()}, p.position);
  }
  for (const MapPoint& p : map.points()) {
    const Eigen::Vector3i v = voxel_of(p.position, map);
    ASSERT_LT((p.position - first.at({v.x(), v.y(), v.z()})).norm(), map.resolution() / 65536.0);
  }
}

TEST(PointMap, ProbeMatchesBruteForceAndSamplesInStorageOrder) {
  PointMap map(Eigen::Vector3d::Zero(), {.resolution = 0.05});
  map.insert(random_points(50000, {0, 0, 0}, 3.0, 2));
  const std::vector<MapPoint> all = map.points();
  for (const auto& [center, half] :
       std::vector<std::pair<Eigen::Vector3d, double>>{{{0, 0, 0}, 0.5},
                                                       {{1, -1, 2}, 0.3},
                                                       {{0, 0, 0}, 100.0},
                                                       {{9, 9, 9}, 1.0},
                                                       {{2.5, 0.1, -0.7}, 0.05}}) {
    std::vector<MapPoint> expected;
    for (const MapPoint& p : all) {
      if (((p.position - center).cwiseAbs().array() <= half).all()) expected.push_back(p);
    }
    const ProbeResult r = map.probe(center, half, 5);
    EXPECT_EQ(r.count, expected.size()) << center.transpose() << " " << half;
    ASSERT_EQ(r.samples.size(), std::min<std::size_t>(5, expected.size()));
    for (std::size_t i = 0; i < r.samples.size(); ++i) {
      EXPECT_EQ(r.samples[i].position, expected[i].position);
    }
  }
}

TEST(PointMap, BoundsAreTheBoundsOfThePointsAsTheyReadBack) {
  PointMap map(Eigen::Vector3d::Zero(), {.resolution = 0.2});
  EXPECT_TRUE(map.bounds().empty());
  map.insert(random_points(1000, {5, 5, 5}, 2.0, 3));
  Bounds b;
  for (const MapPoint& p : map.points()) b.add(p.position);
  EXPECT_EQ(map.bounds().min, b.min);
  EXPECT_EQ(map.bounds().max, b.max);
}

TEST(PointMap, RejectsNonFiniteAndOutOfReachPointsWithoutThrowing) {
  PointMap map(Eigen::Vector3d::Zero(), {.resolution = 0.001});
  map.insert({{std::nan(""), 0, 0}, 0, {}});
  map.insert({{std::numeric_limits<double>::infinity(), 0, 0}, 0, {}});
  map.insert({{map.reach() * 1.01, 0, 0}, 0, {}});
  map.insert({{map.reach() * 0.99, 0, 0}, 0, {}});
  EXPECT_EQ(map.size(), 1u);
  EXPECT_EQ(map.counters().rejected, 3u);
  EXPECT_NEAR(map.points()[0].position.x(), map.reach() * 0.99, 1e-6);
}

TEST(PointMap, RejectsBadResolutionAndOrigin) {
  EXPECT_THROW(PointMap(Eigen::Vector3d::Zero(), {.resolution = 0.0}), Error);
  EXPECT_THROW(PointMap(Eigen::Vector3d::Zero(), {.resolution = -1.0}), Error);
  EXPECT_THROW(PointMap(Eigen::Vector3d(std::nan(""), 0, 0)), Error);
}

TEST(PointMap, BatchInsertIsPointByPointInsertPipelined) {
  std::vector<MapPoint> in = random_points(30000, {10000, -10000, 3}, 4.0, 9);
  in[5].position.x() = std::nan("");  // rejected points inside the pipeline
  in[17].position.y() = 1e30;
  for (const DedupPolicy policy : {DedupPolicy::kFirst, DedupPolicy::kBrighter}) {
    PointMap batch(Eigen::Vector3d::Zero(), {.resolution = 0.05, .policy = policy});
    PointMap single(Eigen::Vector3d::Zero(), {.resolution = 0.05, .policy = policy});
    batch.insert(in);
    for (const MapPoint& p : in) single.insert(p);
    const std::vector<MapPoint> a = batch.points(), b = single.points();
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      ASSERT_EQ(a[i].position, b[i].position);
      ASSERT_EQ(a[i].intensity, b[i].intensity);
    }
    EXPECT_EQ(batch.counters().rejected, 2u);
    EXPECT_EQ(batch.counters().merged, single.counters().merged);
    EXPECT_EQ(batch.counters().replaced, single.counters().replaced);
    EXPECT_EQ(batch.counters().rebounds, single.counters().rebounds);
    EXPECT_EQ(batch.bounds().min, single.bounds().min);
  }
  PointMap few(Eigen::Vector3d::Zero());
  few.insert(std::span<const MapPoint>(in.data() + 20, 3));  // shorter than the pipeline
  EXPECT_EQ(few.counters().inserted, 3u);
}

TEST(PointMap, ColourIsKeptOnlyByColourMaps) {
  PointMap map(Eigen::Vector3d::Zero(), {.resolution = 0.1, .color = true});
  map.insert({{0.5, 0.5, 0.5}, 3, {100, 200, 65535}});
  EXPECT_EQ(map.points()[0].rgb, (std::array<std::uint16_t, 3>{100, 200, 65535}));
  PointMap plain(Eigen::Vector3d::Zero(), {.resolution = 0.1});
  plain.insert({{0.5, 0.5, 0.5}, 3, {100, 200, 65535}});
  EXPECT_EQ(plain.points()[0].rgb, (std::array<std::uint16_t, 3>{0, 0, 0}));
}

TEST(PointMap, MemoryGrowsWithOccupiedVoxels) {
  PointMap map(Eigen::Vector3d::Zero(), {.resolution = 0.05});
  const std::size_t empty = map.memory_bytes();
  map.insert(random_points(100000, {0, 0, 0}, 5.0, 4));
  EXPECT_GT(map.memory_bytes(), empty + map.size() * 8);  // at least the 8-byte slots
  EXPECT_LT(map.memory_bytes(), map.size() * 200);
}

}  // namespace
}  // namespace ubot::mapping
