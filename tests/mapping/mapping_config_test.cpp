// The `mapping:` section: defaults, selectors, strict keys and located errors.
#include <gtest/gtest.h>

#include "support/error_of.h"
#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/mapping/mapping_config.h"

namespace ubot {
namespace {

const char* kRobots = R"(
robot:
  - name: scout
    sensors:
      - {name: lidar2d, range_max: 5}
      - {name: fmcw_lidar2d, range_max: 8}
  - name: rover
    sensors: [{name: lidar2d}]
  - name: cart
)";

WorldModel load(const std::string& mapping) {
  return load_world_from_string(std::string(kRobots) + mapping, "w.yaml");
}

std::string error_of(const std::string& mapping) {
  return testing_support::error_of([&] { load(mapping); });
}

TEST(MappingConfig, DefaultsTakeEveryLidar) {
  const WorldModel w = load("mapping: {}\n");
  ASSERT_EQ(w.maps->size(), 1u);
  const MappingModel& m = (*w.maps)[0];
  EXPECT_EQ(m.name, "map");
  EXPECT_EQ(m.resolution, 0.05);
  EXPECT_FALSE(m.keep_brighter);
  EXPECT_EQ(m.output, "map");
  EXPECT_EQ(m.formats, std::vector<std::string>{"las"});
  EXPECT_EQ(m.las_point_format, 6);
  EXPECT_FALSE(m.origin);
  ASSERT_EQ(m.scanners.size(), 3u);
  EXPECT_EQ(m.scanners[1].object_id, 0);
  EXPECT_EQ(m.scanners[1].sensor_index, 1);
  EXPECT_EQ(m.scanners[2].object_id, 1);
  EXPECT_TRUE(load("").maps->empty());
}

TEST(MappingConfig, ReadsEveryKey) {
  const WorldModel w = load(R"(mapping:
  name: site
  resolution: 0.1
  policy: brighter
  scanners: [scout/fmcw_lidar2d_0, rover]
  output: maps/site.ply
  formats: [las, ply, las]
  origin: [10000, 20000, 1]
  las_point_format: 7
)");
  const MappingModel& m = w.maps->at(0);
  EXPECT_EQ(m.name, "site");
  EXPECT_EQ(m.resolution, 0.1);
  EXPECT_TRUE(m.keep_brighter);
  ASSERT_EQ(m.scanners.size(), 2u);
  EXPECT_EQ(m.scanners[0].sensor_index, 1);
  EXPECT_EQ(m.scanners[0].selector, "scout/fmcw_lidar2d_0");
  EXPECT_EQ(m.scanners[1].object_id, 1);
  EXPECT_EQ(m.output, "maps/site.ply");
  EXPECT_EQ(m.formats, (std::vector<std::string>{"las", "ply"}));
  EXPECT_EQ(*m.origin, Eigen::Vector3d(10000, 20000, 1));
  EXPECT_EQ(m.las_point_format, 7);
  EXPECT_EQ(load("mapping: {output: a.pcd}\n").maps->at(0).formats,
            std::vector<std::string>{"pcd"});
}

TEST(MappingConfig, AnObjectSelectorTakesItsFirstLidarAndRemembersTheOthers) {
  const MappingModel m = load("mapping: {scanners: scout}\n").maps->at(0);
  ASSERT_EQ(m.scanners.size(), 1u);
  EXPECT_EQ(m.scanners[0].sensor_index, 0);
  EXPECT_EQ(m.scanners[0].also_matched, std::vector<std::string>{"fmcw_lidar2d_0"});
}

TEST(MappingConfig, SeveralMapsGetTheirOwnNames) {
  const WorldModel w = load("mapping:\n  - {scanners: [scout]}\n  - {scanners: [rover]}\n");
  ASSERT_EQ(w.maps->size(), 2u);
  EXPECT_EQ((*w.maps)[0].name, "map_0");
  EXPECT_EQ((*w.maps)[1].name, "map_1");
  EXPECT_NE(error_of("mapping:\n  - {name: a}\n  - {name: a}\n").find("two maps are named 'a'"),
            std::string::npos);
}

TEST(MappingConfig, SelectingTheSameScannerTwiceWarns) {
  const WorldModel w = load("mapping: {scanners: [scout, scout/lidar2d_0]}\n");
  EXPECT_EQ((*w.maps)[0].scanners.size(), 1u);
  EXPECT_EQ(std::count_if(w.warnings.begin(), w.warnings.end(),
                          [](const std::string& s) {
                            return s.find(
                                       "mapping.scanners[1]: 'scout/lidar2d_0' selects a "
                                       "scanner already selected by 'scout'") != std::string::npos;
                          }),
            1);
}

TEST(MappingConfig, ErrorsNameTheLineColumnAndKeyPath) {
  EXPECT_NE(error_of("mapping: {resolution: 0.05, polcy: first}\n").find("did you mean 'policy'"),
            std::string::npos);
  EXPECT_NE(error_of("mapping: {scanners: [scuot]}\n")
                .find("w.yaml:10:22: mapping.scanners[0]: no object named 'scuot' (did you mean "
                      "'scout'?)"),
            std::string::npos)
      << error_of("mapping: {scanners: [scuot]}\n");
  EXPECT_NE(error_of("mapping: {scanners: [cart]}\n").find("object 'cart' has no lidar"),
            std::string::npos);
  EXPECT_NE(error_of("mapping: {scanners: [scout/lidar2d_9]}\n")
                .find("no lidar named 'lidar2d_9' (did you mean 'lidar2d_0'?)"),
            std::string::npos);
  EXPECT_NE(error_of("mapping: {policy: last}\n").find("mapping.policy"), std::string::npos);
  EXPECT_NE(error_of("mapping: {resolution: 0}\n").find("must be greater than 0"),
            std::string::npos);
  EXPECT_NE(error_of("mapping: {resolution: 5000}\n").find("[0.0001, 1000]"), std::string::npos);
  EXPECT_NE(error_of("mapping: {formats: [las, e57]}\n").find("mapping.formats[1]"),
            std::string::npos);
  EXPECT_NE(error_of("mapping: {output: map.xyz}\n").find("unknown map file extension '.xyz'"),
            std::string::npos);
  EXPECT_NE(error_of("mapping: {las_point_format: 3}\n").find("must be 6 or 7"), std::string::npos);
  EXPECT_NE(error_of("mapping: {origin: [1, x]}\n").find("mapping.origin"), std::string::npos);
  EXPECT_NE(error_of("mapping: 3\n").find("expected a mapping"), std::string::npos);
  EXPECT_NE(error_of("maping: {}\n").find("did you mean 'mapping'"), std::string::npos);
}

TEST(MappingConfig, DefaultMappingTakesEveryLidar) {
  const MappingModel m = default_mapping(load(""));
  EXPECT_EQ(m.scanners.size(), 3u);
  EXPECT_EQ(m.formats, std::vector<std::string>{"las"});
}

}  // namespace
}  // namespace ubot
