// Saving and loading whole maps: the loaded map has exactly the saved voxels at their world
// positions, carries its resolution/policy/origin, and can be extended.
#include "ubot/mapping/map_io.h"

#include <gtest/gtest.h>

#include <random>

#include "test_support.h"

namespace ubot::mapping {
namespace {

std::vector<MapPoint> wall_points(std::size_t n, double x0, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<MapPoint> out(n);
  for (MapPoint& p : out) {
    p.position = {x0 + 30.0 * u(rng), 10003.0 + 0.2 * u(rng), 2.0 * u(rng)};
    p.intensity = static_cast<std::uint16_t>(65535 * u(rng));
  }
  return out;
}

TEST(MapIo, SavedLoadedAndExtendedMapKeepsEveryVoxelAtItsWorldPosition) {
  test::TempDir dir;
  PointMap map({10000, 10000, 0}, {.resolution = 0.05});
  map.insert(wall_points(100000, 10000.0, 1));
  const std::vector<MapPoint> saved = map.points();
  for (const std::string name : {"m.las", "m.ply", "m.pcd"}) {
    save_map(map, dir.file(name));
    PointMap loaded = load_map(dir.file(name));
    EXPECT_EQ(loaded.origin(), map.origin()) << name;  // from the file's metadata
    EXPECT_EQ(loaded.resolution(), 0.05);
    ASSERT_EQ(loaded.size(), map.size()) << name;  // exactly the saved voxels
    const std::vector<MapPoint> back = loaded.points();
    const double tolerance = name == "m.las" ? 0.001 : 1e-6;
    for (std::size_t i = 0; i < back.size(); ++i) {
      ASSERT_LE((back[i].position - saved[i].position).cwiseAbs().maxCoeff(), tolerance) << name;
      ASSERT_EQ(back[i].intensity, saved[i].intensity);
    }
    // Extend the loaded map: the new points land where they belong, the old ones stay.
    const std::vector<MapPoint> more = wall_points(50000, 10025.0, 2);
    PointMap reference({10000, 10000, 0}, {.resolution = 0.05});
    reference.insert(saved);
    reference.insert(more);
    loaded.insert(more);
    ASSERT_EQ(loaded.size(), reference.size()) << name;
    const std::vector<MapPoint> a = loaded.points(), b = reference.points();
    for (std::size_t i = 0; i < a.size(); ++i) {
      ASSERT_LE((a[i].position - b[i].position).cwiseAbs().maxCoeff(), tolerance) << name;
    }
  }
}

TEST(MapIo, LasOffsetIsNearTheDataAndOnTheVoxelGrid) {
  test::TempDir dir;
  PointMap map(Eigen::Vector3d::Zero(), {.resolution = 0.05});
  map.insert(wall_points(1000, 10000.0, 3));
  save_map(map, dir.file("g.las"));
  const LoadedCloud c = read_las(dir.file("g.las"));
  for (int k = 0; k < 3; ++k) {
    EXPECT_LE(c.info.las_offset[k], map.bounds().min[k]);
    EXPECT_GT(c.info.las_offset[k], map.bounds().min[k] - 0.05);
    const double voxels = c.info.las_offset[k] / 0.05;
    EXPECT_NEAR(voxels, std::round(voxels), 1e-6);
  }
  ASSERT_TRUE(c.info.map);
  EXPECT_EQ(c.info.map->origin, Eigen::Vector3d::Zero());
}

TEST(MapIo, FilesWithoutMetadataLoadAtTheirOwnPositions) {
  test::TempDir dir;
  PointCloud cloud;
  cloud.points = {{{5000.0125, -7000.25, 1.5}, 9, {}}, {{5000.5, -7000.5, 1.0}, 8, {}}};
  write_las(dir.file("plain.las"), cloud, {});
  write_ply(dir.file("plain.ply"), cloud, {});
  for (const std::string name : {"plain.las", "plain.ply"}) {
    PointMap m = load_map(dir.file(name), {.resolution = 0.1, .policy = {}, .origin = {}});
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m.resolution(), 0.1);
    const std::vector<MapPoint> p = m.points();
    // No re-centring: whatever origin the loader chose, positions are the file's.
    std::vector<Eigen::Vector3d> got = {p[0].position, p[1].position};
    std::sort(got.begin(), got.end(), [](auto& a, auto& b) { return a.x() < b.x(); });
    EXPECT_LE((got[0] - cloud.points[0].position).norm(), 0.001) << name;
    EXPECT_LE((got[1] - cloud.points[1].position).norm(), 0.001) << name;
  }
}

}  // namespace
}  // namespace ubot::mapping
