// Regression tests for the "ghost cloud" postmortem (SPEC §11): a point inserted at world
// position p is read back, probed and saved at p, 10 km from the origin, with thousands of
// internal re-boundings between insertions, and after a save / load / extend cycle.
//
// The original bug cached the world->local translation once; the store later re-centred itself
// and every later batch landed offset by the accumulated shift (hundreds of metres away), while
// older points stayed right. These tests therefore check every batch right after it is inserted,
// and again at the end, against the positions that were inserted.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "test_support.h"
#include "ubot/mapping/map_io.h"
#include "ubot/mapping/point_map.h"

namespace ubot::mapping {
namespace {

constexpr double kMillimetre = 0.001;
constexpr double kResolution = 0.05;

// A robot drives 1.2 km along x, 10 km from the origin, scanning two walls (y = ±3 m) with a
// 16-channel fan: lidar-like batches of world points.
struct Drive {
  std::mt19937_64 rng{42};
  double x = 10000.0;
  const double y = 10000.0;

  std::vector<MapPoint> scan() {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<MapPoint> points;
    for (int i = 0; i < 256; ++i) {
      const double side = i % 2 ? 3.0 : -3.0;
      points.push_back({{x + 20.0 * (u(rng) - 0.5), y + side, 0.1 + 0.2 * (i % 16)},
                        static_cast<std::uint16_t>(i * 200),
                        {}});
    }
    x += 0.25;
    return points;
  }
};

using VoxelKey = std::array<std::int64_t, 3>;

VoxelKey voxel_of(const Eigen::Vector3d& p, const Eigen::Vector3d& origin) {
  const Eigen::Vector3d v = ((p - origin) * (1.0 / kResolution)).array().floor();
  return {static_cast<std::int64_t>(v.x()), static_cast<std::int64_t>(v.y()),
          static_cast<std::int64_t>(v.z())};
}

// Checks that every kept point is the first point inserted into its voxel (within 1 mm, in
// fact within resolution / 65536).
void expect_points_where_inserted(const std::vector<MapPoint>& kept,
                                  const std::map<VoxelKey, Eigen::Vector3d>& first,
                                  const Eigen::Vector3d& origin, double tolerance) {
  ASSERT_EQ(kept.size(), first.size());
  for (const MapPoint& p : kept) {
    const auto it = first.find(voxel_of(p.position, origin));
    ASSERT_NE(it, first.end()) << "a point where none was inserted: " << p.position.transpose();
    ASSERT_LE((p.position - it->second).cwiseAbs().maxCoeff(), tolerance)
        << p.position.transpose() << " vs " << it->second.transpose();
  }
}

TEST(GhostCloudRegression, TenKilometresOutEveryBatchReadsBackWhereItWasInserted) {
  // The origin at the world origin: the points are 10 km (2e5 voxels) away from it.
  PointMap map(Eigen::Vector3d::Zero(), {.resolution = kResolution});
  Drive drive;
  std::map<VoxelKey, Eigen::Vector3d> first;
  std::uint64_t checked = 0;
  for (int step = 0; step < 4800; ++step) {  // 1.2 km
    const std::vector<MapPoint> batch = drive.scan();
    const std::uint64_t rebounds_before = map.counters().rebounds;
    map.insert(batch);
    for (const MapPoint& p : batch) first.emplace(voxel_of(p.position, map.origin()), p.position);
    if (step % 10 != 0 && map.counters().rebounds == rebounds_before) continue;
    // Probe every point of this batch right away: the kept point of its voxel is there.
    for (const MapPoint& p : batch) {
      const Eigen::Vector3d& kept = first.at(voxel_of(p.position, map.origin()));
      const ProbeResult r = map.probe(kept, 1e-5, 8);
      ASSERT_TRUE(std::any_of(r.samples.begin(), r.samples.end(),
                              [&](const MapPoint& s) {
                                return (s.position - kept).cwiseAbs().maxCoeff() <= kMillimetre;
                              }))
          << "step " << step << " point " << p.position.transpose();
      ++checked;
    }
  }
  EXPECT_GT(checked, 100000u);
  // Thousands of internal re-boundings happened in between.
  EXPECT_GE(map.counters().rebounds, 2000u);
  EXPECT_GE(map.counters().rehashes, 8u);
  EXPECT_GE(map.counters().relocations, 8u);
  expect_points_where_inserted(map.points(), first, map.origin(), kResolution / 65536.0);
  // Nothing ghostly: every point within the driven corridor.
  EXPECT_GE(map.bounds().min.x(), 10000.0 - 10.0);
  EXPECT_LE(map.bounds().max.x(), drive.x + 10.0);
  EXPECT_NEAR(map.bounds().min.y(), 9997.0, kMillimetre);
  EXPECT_NEAR(map.bounds().max.y(), 10003.0, kMillimetre);

  // Saved and read back by our reader: within 1 mm of the inserted positions.
  test::TempDir dir;
  save_map(map, dir.file("drive.las"));
  const LoadedCloud file = read_las(dir.file("drive.las"));
  ASSERT_EQ(file.cloud.points.size(), first.size());
  const std::vector<MapPoint> kept = map.points();
  for (std::size_t i = 0; i < kept.size(); ++i) {
    ASSERT_LE((file.cloud.points[i].position - kept[i].position).cwiseAbs().maxCoeff(),
              kMillimetre);
    const Eigen::Vector3d& inserted = first.at(voxel_of(kept[i].position, map.origin()));
    ASSERT_LE((file.cloud.points[i].position - inserted).cwiseAbs().maxCoeff(), kMillimetre);
  }

  // Loaded and extended: the old points stay, the new ones land where they were inserted.
  PointMap loaded = load_map(dir.file("drive.las"));
  EXPECT_EQ(loaded.origin(), map.origin());
  ASSERT_EQ(loaded.size(), map.size());
  for (int step = 0; step < 800; ++step) {
    const std::vector<MapPoint> batch = drive.scan();
    loaded.insert(batch);
    for (const MapPoint& p : batch) first.emplace(voxel_of(p.position, map.origin()), p.position);
  }
  EXPECT_GT(loaded.size(), map.size());
  expect_points_where_inserted(loaded.points(), first, map.origin(), kMillimetre);
}

TEST(GhostCloudRegression, ProbeAtThePostmortemsGhostPlaceFindsNothing) {
  // The postmortem's ghost sat ~400 m beyond the robot. Map a short drive 10 km out and probe a
  // large box around where a stale translation would have put the new points.
  PointMap map(Eigen::Vector3d::Zero(), {.resolution = kResolution});
  Drive drive;
  for (int step = 0; step < 400; ++step) map.insert(drive.scan());
  EXPECT_EQ(map.probe({10400.0 + 10000.0, 10000.0, 1.0}, 9000.0, 1).count, 0u);
  EXPECT_EQ(map.probe({10050.0, 10000.0, 1.0}, 60.0, 1).count, map.size());
}

}  // namespace
}  // namespace ubot::mapping
