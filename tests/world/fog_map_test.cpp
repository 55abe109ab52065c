// The fog of map against IR-SIM's own FogMap: tests/data/irsim_fog/fog.json holds the cells
// IR-SIM revealed (2.10.2 and 2.12.0 give the same file) after each of a fixed list of lidar and
// field-of-view reveals (make_fog.py); ubot's must be the same cells, one by one.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <numbers>
#include <set>
#include <utility>
#include <vector>

#include "ubot/world/fog_map.h"

namespace ubot {
namespace {

using json = nlohmann::json;

json read_fixture() {
  std::ifstream in(std::string(UBOT_SOURCE_DIR) + "/tests/data/irsim_fog/fog.json");
  return json::parse(in);
}

std::set<std::pair<int, int>> explored_cells(const FogMap& fog) {
  std::set<std::pair<int, int>> cells;
  for (int i = 0; i < fog.nx(); ++i) {
    for (int j = 0; j < fog.ny(); ++j) {
      if (fog.explored(i, j)) cells.emplace(i, j);
    }
  }
  return cells;
}

Eigen::Vector3d pose(const json& j) {
  return {j[0].get<double>(), j[1].get<double>(), j[2].get<double>()};
}

TEST(FogMap, RevealsTheCellsIrsimReveals) {
  const json fixture = read_fixture();
  FogMap fog(fixture["width"].get<double>(), fixture["height"].get<double>(),
             fixture["resolution"].get<double>(),
             {fixture["offset"][0].get<double>(), fixture["offset"][1].get<double>()});
  // IR-SIM's grid: round(20 / 0.13) = 154 by round(15 / 0.13) = 115 cells.
  ASSERT_EQ(fog.nx(), fixture["shape"][0].get<int>());
  ASSERT_EQ(fog.ny(), fixture["shape"][1].get<int>());
  EXPECT_EQ(fog.explored_ratio(), 0.0);
  for (const json& step : fixture["steps"]) {
    const json& call = step["call"];
    if (call.contains("lidar")) {
      const auto angles = call["angles"].get<std::vector<double>>();
      const auto ranges = call["ranges"].get<std::vector<double>>();
      fog.reveal_from_lidar(pose(call["lidar"]), angles, ranges);
    } else {
      fog.reveal_fov(pose(call["fov"]), call["angle"].get<double>(), call["radius"].get<double>());
    }
    std::set<std::pair<int, int>> irsim;
    for (const json& c : step["explored"]) irsim.emplace(c[0].get<int>(), c[1].get<int>());
    const std::set<std::pair<int, int>> ubot = explored_cells(fog);
    EXPECT_EQ(ubot.size(), irsim.size()) << call.dump().substr(0, 80);
    EXPECT_TRUE(ubot == irsim) << call.dump().substr(0, 80);
    EXPECT_DOUBLE_EQ(fog.explored_ratio(), step["ratio"].get<double>());
  }
}

TEST(FogMap, OneBeamRevealsTheCellsAlongIt) {
  // A 10 x 10 m world in 0.1 m cells; a beam along +x from the centre of cell (0, 0), 1 m long,
  // reveals cells (0, 0) .. (10, 0): its samples every 0.05 m end at x = 1.05.
  FogMap fog(10.0, 10.0, 0.1, Eigen::Vector2d::Zero());
  const std::vector<double> angles{0.0}, ranges{1.0};
  fog.reveal_from_lidar({0.05, 0.05, 0.0}, angles, ranges);
  for (int i = 0; i <= 10; ++i) EXPECT_TRUE(fog.explored(i, 0)) << i;
  EXPECT_FALSE(fog.explored(11, 0));
  EXPECT_FALSE(fog.explored(0, 1));
  EXPECT_DOUBLE_EQ(fog.explored_ratio(), 11.0 / 10000.0);
}

TEST(FogMap, AFullCircleRevealsTheCellCentresWithinItsRadius) {
  FogMap fog(10.0, 10.0, 0.5, Eigen::Vector2d::Zero());
  fog.reveal_fov({5.0, 5.0, 0.0}, 2.0 * std::numbers::pi, 1.2);
  int expected = 0;
  for (int i = 0; i < 20; ++i) {
    for (int j = 0; j < 20; ++j) {
      const bool inside = std::hypot(0.25 + 0.5 * i - 5.0, 0.25 + 0.5 * j - 5.0) <= 1.2;
      expected += inside;
      EXPECT_EQ(fog.explored(i, j), inside) << i << " " << j;
    }
  }
  EXPECT_EQ(expected, 16);  // the 4 x 4 cells around (5, 5): centres 0.35 and 1.06 m away
}

TEST(FogMap, DisabledByDefault) {
  FogMap fog;
  EXPECT_FALSE(fog.enabled());
  fog.reveal_fov({0.0, 0.0, 0.0}, 1.0, 1.0);  // no grid: nothing happens
  EXPECT_EQ(fog.explored_ratio(), 0.0);
}

}  // namespace
}  // namespace ubot
