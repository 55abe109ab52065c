// The mapping sink on real simulations: attachment logs, the lidar2d adapter against analytic
// geometry, and a robot mapping continuously 10 km from the origin (SPEC §11).
#include "ubot/mapping/sim_mapper.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "test_support.h"
#include "ubot/config/load_world.h"
#include "ubot/mapping/map_io.h"

namespace ubot::mapping {
namespace {

Simulation make_sim(const std::string& yaml) {
  return Simulation(load_world_from_string(yaml, "test.yaml"));
}

TEST(SimulationMapper, LogsItsScannersAndWarnsWhenASelectorMatchedSeveral) {
  const std::string yaml = R"(
robot:
  - name: scout
    sensors:
      - {name: lidar2d, range_max: 5}
      - {name: lidar2d, range_max: 8}
  - name: idle
mapping: {scanners: [scout]}
)";
  Simulation sim = make_sim(yaml);
  std::vector<std::string> info, warn;
  SimulationMapper mapper(sim, *sim.world().model().maps,
                          {.out_dir = "",
                           .threaded = true,
                           .info = [&](const std::string& s) { info.push_back(s); },
                           .warn = [&](const std::string& s) { warn.push_back(s); }});
  ASSERT_EQ(info.size(), 1u);
  EXPECT_EQ(info[0], "map 'map': attached to scout/lidar2d_0 (lidar2d, range_max 5 m)");
  ASSERT_EQ(warn.size(), 1u);
  EXPECT_EQ(warn[0],
            "map 'map': 'scout' matches 2 lidars; took scout/lidar2d_0, not lidar2d_1 (name one "
            "as scout/SENSOR)");
}

TEST(SimulationMapper, WarnsWhenThereIsNothingToAttachTo) {
  Simulation sim = make_sim("robot: [{name: a}]\n");
  std::vector<std::string> warn;
  SimulationMapper mapper(
      sim, {default_mapping(sim.world().model())},
      {.out_dir = "", .threaded = false, .info = {}, .warn = [&](const std::string& s) {
         warn.push_back(s);
       }});
  ASSERT_EQ(warn.size(), 1u);
  EXPECT_NE(warn[0].find("no scanner"), std::string::npos);
}

TEST(SimulationMapper, Lidar2dPointsLieOnTheSurfacesTheyHit) {
  // A static sensor at (1, 2), yaw 0.3, 0.5 m above the ground, inside a circle of radius 4.
  Simulation sim = make_sim(R"(
robot:
  - state: [1, 2, 0.3]
    static: true
    sensors: [{name: lidar2d, range_max: 10, angle_range: 6.283185307179586, number: 360, z: 0.5}]
obstacle:
  - shape: {name: linestring, vertices: [[-5, -5], [5, -5], [5, 5], [-5, 5], [-5, -5]]}
    state: [1, 2, 0]
    static: true
)");
  sim.step();
  const PointBatch b = batch_from_scan(static_cast<const Lidar2d&>(*sim.sensors()[0]), 0);
  ASSERT_EQ(b.points_W.size(), 360u);
  EXPECT_EQ(b.origin_W, Eigen::Vector3d(1, 2, 0.5));
  EXPECT_EQ(b.range_max, 10.0);
  for (const Eigen::Vector3d& p : b.points_W) {
    // On the square's boundary: max(|x - 1|, |y - 2|) = 5.
    EXPECT_NEAR(std::max(std::abs(p.x() - 1), std::abs(p.y() - 2)), 5.0, 1e-9);
    EXPECT_EQ(p.z(), 0.5);
  }
  EXPECT_EQ(b.intensities.front(), 65535);
}

TEST(SimulationMapper, Lidar3dSweepsMapWhereTheyWereMeasuredEvenWhileMoving) {
  // A moving robot with a distorted sweep inside a 10 m box room 2 m tall on a ground plane: the
  // world view puts every point on the floor or a wall, 10 km from the origin.
  Simulation sim = make_sim(R"(
world: {width: 40, height: 40, offset: [10000, 10000], step_time: 0.1}
ground: {z: 0}
robot:
  - name: scout
    kinematics: {name: diff}
    state: [10010, 10010, 0.3]
    goal: [10013, 10012, 0]
    behavior: {name: dash}
    sensors:
      - {name: lidar3d, channels: 16, vertical_fov_deg: [-30, 10], number: 600,
         motion_distortion: true, offset: [0, 0, 1]}
obstacle:
  - shape: {name: linestring, vertices: [[-5, -5], [5, -5], [5, 5], [-5, 5], [-5, -5]]}
    state: [10010, 10010, 0]
    height: 2
    static: true
mapping: {scanners: [scout]}
)");
  std::vector<std::string> info;
  SimulationMapper mapper(sim, *sim.world().model().maps,
                          {.out_dir = "",
                           .threaded = false,
                           .info = [&](const std::string& s) { info.push_back(s); },
                           .warn = {}});
  ASSERT_EQ(info.size(), 1u);
  EXPECT_EQ(info[0], "map 'map': attached to scout/lidar3d_0 (lidar3d, range_max 100 m)");
  std::size_t total = 0;
  for (int k = 0; k < 10; ++k) {
    sim.step();
    mapper.after_step(sim);
    const auto& lidar = static_cast<const Lidar3d&>(*sim.sensors()[0]);
    const PointBatch b = batch_from_sweep(lidar, 0);
    EXPECT_EQ(b.origin_W, lidar.sweep().pose.position);
    EXPECT_EQ(b.range_max, 100.0);
    ASSERT_EQ(b.points_W.size(), lidar.sweep().points.size());
    ASSERT_GT(b.points_W.size(), 5000u);
    for (const Eigen::Vector3d& p : b.points_W) {
      const double wall = std::max(std::abs(p.x() - 10010), std::abs(p.y() - 10010));
      const bool on_wall = std::abs(wall - 5.0) < 1e-9 && p.z() >= -1e-9 && p.z() <= 2 + 1e-9;
      const bool on_floor = std::abs(p.z()) < 1e-9 && wall <= 5.0 + 1e-9;
      ASSERT_TRUE(on_wall || on_floor) << p.transpose();
    }
    EXPECT_EQ(b.intensities.front(), 65535);
    total += b.points_W.size();
  }
  EXPECT_GT(sim.world().object(0).velocity[0], 0.0);  // it moved while scanning
  const AccumulatorStats stats = mapper.accumulator(0).stats();
  EXPECT_EQ(stats.received, total);
  EXPECT_EQ(stats.dropped_far, 0u);
  EXPECT_GT(stats.points, 1000u);
}

// A robot drives 1 km along a walled corridor whose world offset is [10000, 10000], mapping
// every step. Every map point (probed, saved in LAS and PLY) lies on a wall face within 1 mm and
// is the first scan point of its voxel; the store re-bounds thousands of times.
TEST(SimulationMapper, TenKilometresFromTheOriginTheMapNeverDrifts) {
  const std::string yaml = R"(
world: {width: 1100, height: 20, offset: [10000, 10000], step_time: 0.1}
robot:
  - name: mapper
    kinematics: {name: omni}
    state: [10002, 10010, 0]
    goal: [11000, 10010, 0]
    vel_max: [4, 4]
    behavior: {name: dash}
    sensors: [{name: lidar2d, range_max: 8, angle_range: 3.14159, number: 181, z: 0.3}]
obstacle:
  - {shape: {name: rectangle, length: 1100, width: 0.2}, state: [10500, 10013, 0], static: true}
  - {shape: {name: rectangle, length: 1100, width: 0.2}, state: [10500, 10007, 0], static: true}
mapping: {resolution: 0.05, output: corridor, formats: [las, ply]}
)";
  test::TempDir dir;
  Simulation sim = make_sim(yaml);
  SimulationMapper mapper(sim, *sim.world().model().maps,
                          {.out_dir = dir.file(""), .threaded = true, .info = {}, .warn = {}});
  // Reference: the first scan point of every voxel, computed here from the scans.
  const Eigen::Vector3d origin(10000, 10000, 0);  // the map origin defaults to the world offset
  std::map<std::array<std::int64_t, 3>, Eigen::Vector3d> first;
  auto key = [&](const Eigen::Vector3d& p) {
    const Eigen::Vector3d v = ((p - origin) * (1.0 / 0.05)).array().floor();
    return std::array<std::int64_t, 3>{std::int64_t(v.x()), std::int64_t(v.y()),
                                       std::int64_t(v.z())};
  };
  int steps = 0;
  while (!sim.world().done() && steps < 3000) {
    sim.step();
    ++steps;
    mapper.after_step(sim);
    for (const Eigen::Vector3d& p :
         batch_from_scan(static_cast<const Lidar2d&>(*sim.sensors()[0]), 0).points_W) {
      first.emplace(key(p), p);
    }
    if (steps % 250 == 0) {
      // Probe around the robot while it drives: what is there was inserted there.
      const auto& state = sim.world().object(0).state;
      const ProbeResult r = mapper.accumulator(0).map().probe({state[0], state[1], 0.3}, 8.0, 500);
      ASSERT_GT(r.count, 100u);
      for (const MapPoint& p : r.samples) {
        ASSERT_TRUE(first.count(key(p.position))) << p.position.transpose();
        ASSERT_LE((p.position - first.at(key(p.position))).cwiseAbs().maxCoeff(), 1e-6);
      }
    }
  }
  // It really drove the kilometre.
  EXPECT_GT(sim.world().object(0).state[0], 10990.0) << steps << " steps";
  const std::vector<SavedMap> saved = mapper.finish();
  ASSERT_EQ(saved.size(), 1u);
  const AccumulatorStats& s = saved[0].stats;
  EXPECT_EQ(s.points, first.size());
  EXPECT_EQ(s.dropped_far, 0u);
  EXPECT_EQ(s.counters.rejected, 0u);
  EXPECT_GE(s.counters.rebounds, 2000u);
  EXPECT_NEAR(s.bounds.min.y(), 10007.1, 1e-3);
  EXPECT_NEAR(s.bounds.max.y(), 10012.9, 1e-3);
  ASSERT_EQ(saved[0].files,
            (std::vector<std::string>{dir.file("corridor.las"), dir.file("corridor.ply")}));
  const std::vector<MapPoint> kept = mapper.accumulator(0).map().points();
  for (const MapPoint& p : kept) {
    ASSERT_LE((p.position - first.at(key(p.position))).cwiseAbs().maxCoeff(), 1e-6);
  }
  for (const std::string& file : saved[0].files) {
    const LoadedCloud c = read_cloud(file);
    ASSERT_EQ(c.cloud.points.size(), first.size()) << file;
    for (std::size_t i = 0; i < kept.size(); ++i) {
      const MapPoint& p = c.cloud.points[i];
      const double to_wall =
          std::min(std::abs(p.position.y() - 10012.9), std::abs(p.position.y() - 10007.1));
      ASSERT_LE(to_wall, 1e-3) << file << " " << p.position.transpose();
      ASSERT_NEAR(p.position.z(), 0.3, 1e-3);
      ASSERT_LE((p.position - kept[i].position).cwiseAbs().maxCoeff(), 1e-3) << file;
    }
  }
}

TEST(SimulationMapper, ThreadedAndSynchronousRunsSaveIdenticalBytes) {
  const std::string yaml = R"(
world: {width: 30, height: 30}
robot:
  - {state: [5, 5, 0], goal: [25, 25, 0], kinematics: {name: diff}, behavior: {name: dash},
     sensors: [{name: lidar2d, range_max: 12, number: 360, angle_range: 6.28318, noise: true, std: 0.02}]}
  - {state: [25, 5, 1.5], goal: [5, 25, 0], kinematics: {name: diff}, behavior: {name: dash},
     sensors: [{name: lidar2d, range_max: 12, number: 200, noise: true}]}
obstacle:
  - {shape: {name: circle, radius: 1.5}, state: [15, 15, 0], static: true}
  - {shape: {name: rectangle, length: 2, width: 5}, state: [10, 20, 0.3], static: true}
mapping: {policy: brighter, resolution: 0.1}
)";
  test::TempDir dir;
  std::vector<std::vector<char>> bytes;
  for (const bool threaded : {false, true, true}) {
    Simulation sim = make_sim(yaml);
    SimulationMapper mapper(
        sim, *sim.world().model().maps,
        {.out_dir = dir.file(""), .threaded = threaded, .info = {}, .warn = {}});
    for (int k = 0; k < 200; ++k) {
      sim.step();
      mapper.after_step(sim);
    }
    mapper.finish();
    bytes.push_back(test::read_bytes(dir.file("map.las")));
  }
  EXPECT_GT(bytes[0].size(), 1000u);
  EXPECT_EQ(bytes[1], bytes[0]);
  EXPECT_EQ(bytes[2], bytes[0]);
}

}  // namespace
}  // namespace ubot::mapping
