// The world sees the grid map: collisions with occupied cells stop a robot where its shape first
// touches a cell, and a field of view that meets an occupied cell lists the map's IR-SIM id.
#include <gtest/gtest.h>

#include "grid_test_util.h"
#include "ubot/config/load_world.h"
#include "ubot/world/world.h"

namespace ubot {
namespace {

using grid_test::TempDir;

// 10 x 10 world, 1 m cells; the column x in [6, 7] is occupied for y in [2, 10].
std::string write_wall_world(const TempDir& dir, const std::string& robot) {
  std::string pgm = "P2\n10 10\n1\n";
  for (int row = 0; row < 10; ++row) {
    for (int col = 0; col < 10; ++col) pgm += (col == 6 && row < 8) ? "0 " : "1 ";
    pgm += "\n";
  }
  dir.write("wall.pgm", pgm);
  return dir.write("w.yaml",
                   "world: {width: 10, height: 10, step_time: 0.1, obstacle_map: "
                   "wall.pgm}\nrobot:\n" +
                       robot);
}

TEST(GridWorld, RobotStopsWhereItFirstTouchesAnOccupiedCell) {
  TempDir dir("collide");
  World w(load_world(
      write_wall_world(dir,
                       "  - kinematics: {name: omni}\n    shape: {name: circle, radius: 0.5}\n"
                       "    state: [2.05, 5.5, 0]\n    goal: [9, 5.5, 0]\n    vel_max: [1, 1]\n"
                       "    behavior: {name: dash}\n")));
  // 0.1 m per step: the disc's front x + 0.5 reaches the wall x = 6 after 35 steps (x = 5.55 >
  // 5.5 then; at 34 steps x = 5.45, front 5.95, clear).
  int steps = 0;
  while (!w.object(0).collision && steps < 100) {
    w.step({});
    ++steps;
  }
  EXPECT_EQ(steps, 35);
  EXPECT_NEAR(w.object(0).state[0], 5.55, 1e-9);
  EXPECT_TRUE(w.object(0).stop);
  EXPECT_TRUE(w.object(0).collision_ids.empty());  // the grid is no object
  w.step({});
  EXPECT_NEAR(w.object(0).state[0], 5.55, 1e-9);  // stopped
}

TEST(GridWorld, TouchingACellCornerCollidesPassingBelowDoesNot) {
  TempDir dir("corner");
  // A square robot whose corner touches the wall's bottom-left corner (6, 2) exactly, and one a
  // hair below it.
  for (const auto& [y, collides] : {std::pair{1.5, true}, std::pair{1.499, false}}) {
    World w(load_world(write_wall_world(
        dir, "  - shape: {name: rectangle, length: 1, width: 1}\n    state: [5.5, " +
                 std::to_string(y) + ", 0]\n")));
    w.step({});
    EXPECT_EQ(w.object(0).collision, collides) << y;
  }
}

TEST(GridWorld, FieldOfViewListsTheMapAfterEveryObject) {
  TempDir dir("fov");
  // Robot 0 at (4, 5) looks along +x (sector radius 2.5 reaches x = 6.5: the wall); robot 1 at
  // (2, 5) looks along -x, away from the wall and from robot 0.
  const std::string robots =
      "  - shape: {name: circle, radius: 0.2}\n    state: [4, 5, 0]\n    fov: 1.0\n"
      "    fov_radius: 2.5\n"
      "  - shape: {name: circle, radius: 0.2}\n    state: [2, 5, 3.14159]\n    fov: 1.0\n"
      "    fov_radius: 2.5\n";
  World w(load_world(write_wall_world(dir, robots)));
  EXPECT_TRUE(w.fov_sees_grid(0));
  EXPECT_FALSE(w.fov_sees_grid(1));
  EXPECT_EQ(w.fov_detected_objects(0), std::vector<int>{2});  // the map's id: after the robots
  EXPECT_TRUE(w.fov_detected_objects(1).empty());
  const std::vector<std::vector<int>> all = w.fov_detections();
  EXPECT_EQ(all[0], std::vector<int>{2});
  EXPECT_TRUE(all[1].empty());
}

}  // namespace
}  // namespace ubot
