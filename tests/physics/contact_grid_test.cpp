// collision_mode: contact with a grid map (issue 14 item 1, docs/contact.md): the occupied cells
// of `world.obstacle_map` are static fixtures, so a robot driving into a grid wall stops against
// it and its contact sensor reports the wall pushing it back.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "ubot/config/load_world.h"
#include "ubot/world/world.h"

namespace ubot {
namespace {

// A diff robot of radius 0.3 at (2, 5) driving at 1 m/s toward (9, 5), 10 kg (default), so its
// drive force is 100 N (10 m/s² × mass).
const char* const kWorld = R"(
world: {width: 10, height: 10, step_time: 0.1, collision_mode: contact}
robot:
  - kinematics: {name: diff}
    shape: {name: circle, radius: 0.3}
    state: [2, 5, 0]
    goal: [9, 5, 0]
    behavior: {name: dash}
    vel_max: [1, 1]
)";

// 20 x 20 cells of 0.5 m over the world; columns 12 and 13 (x in [6, 7]) occupied for rows 4 to
// 15 (y in [2, 8]): one merged 1 x 6 m rectangle whose face toward the robot is x = 6.
std::shared_ptr<GridMap> wall_grid() {
  auto grid = std::make_shared<GridMap>();
  grid->nx = grid->ny = 20;
  grid->cell = {0.5, 0.5};
  grid->occupancy.assign(400, 0.0f);
  for (int i = 12; i <= 13; ++i)
    for (int j = 4; j <= 15; ++j) grid->occupancy[static_cast<std::size_t>(i) * 20 + j] = 100.0f;
  return grid;
}

World world(bool with_grid) {
  WorldModel model = load_world_from_string(kWorld, "grid_wall.yaml");
  if (with_grid) model.grid = wall_grid();
  return World(std::move(model));
}

TEST(ContactGrid, RobotStopsAtTheGridWallPushedBackAlongItsNormal) {
  World w = world(true);
  for (int k = 0; k < 80; ++k) w.step();
  const ObjectState& robot = w.object(0);
  // Against the face x = 6, held about 5 mm off by Box2D's polygon skin, at rest on y = 5.
  EXPECT_NEAR(robot.state[0], 6.0 - 0.3, 0.02);
  EXPECT_LT(robot.state[0], 6.0 - 0.3);
  EXPECT_NEAR(robot.state[1], 5.0, 1e-3);
  EXPECT_NEAR(w.velocity_xy(0).norm(), 0.0, 1e-3);
  EXPECT_FALSE(robot.arrive);
  const ContactReading& c = w.contact(0);
  ASSERT_TRUE(c.in_contact);
  EXPECT_EQ(c.partners, std::vector<int>{kGridMapId});
  ASSERT_EQ(c.reports.size(), 1u);
  const ContactReport& r = c.reports[0];
  EXPECT_EQ(r.other, kGridMapId);
  // The normal points away from the wall (-x); the wall pushes back with the saturated drive.
  EXPECT_NEAR(r.normal.x(), -1.0, 1e-6);
  EXPECT_NEAR(r.normal.y(), 0.0, 1e-6);
  EXPECT_NEAR(r.point.x(), 6.0, 0.02);
  EXPECT_NEAR(r.point.y(), 5.0, 1e-3);
  EXPECT_NEAR(r.force, 100.0, 1.0);
  EXPECT_NEAR(c.force.x(), -100.0, 1.0);
}

TEST(ContactGrid, TouchStartsOneEpisode) {
  World w = world(true);
  int started = 0, ended = 0;
  for (int k = 0; k < 80; ++k) {
    w.step();
    started += w.contact(0).started;
    ended += w.contact(0).ended;
  }
  EXPECT_EQ(started, 1);
  EXPECT_EQ(ended, 0);
}

TEST(ContactGrid, FarFromTheWallTheGridChangesNothing) {
  // Until the robot touches the wall (its edge reaches x = 6 at about t = 3.8 s) its motion is
  // bit for bit that of the same world without a grid, also in the last steps, when the wall's
  // rectangle is already a fixture of the solver's world.
  World with = world(true), without = world(false);
  for (int k = 0; k < 36; ++k) {
    with.step();
    without.step();
    ASSERT_EQ(with.object(0).state, without.object(0).state) << "step " << k;
    EXPECT_FALSE(with.contact(0).in_contact);
  }
}

}  // namespace
}  // namespace ubot
