// World::teleport and World::set_goals (IR-SIM's set_state / set_goal, the Python module's
// Simulation.set_state / set_goals).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "ubot/core/error.h"
#include "ubot/world/world.h"
#include "world_test_support.h"

namespace ubot {
namespace {

using testing_support::make_world;

TEST(Teleport, MovesTheObjectAndItsShapeWithoutMotion) {
  World w = make_world(R"(
robot:
  - kinematics: {name: diff}
    shape: {name: rectangle, length: 2, width: 1}
    state: [0, 0, 0]
)");
  const std::vector<double> to{3, 4, 7.0};  // yaw wraps to 7 - 2π
  w.teleport(0, to);
  EXPECT_EQ(w.object(0).state[0], 3);
  EXPECT_EQ(w.object(0).state[1], 4);
  EXPECT_NEAR(w.object(0).state[2], 7.0 - 2 * M_PI, 1e-12);
  // The outline moved with it: its centre is the new position.
  double cx = 0, cy = 0;
  for (const auto& v : w.shape(0).vertices) {
    cx += v.x() / 4;
    cy += v.y() / 4;
  }
  EXPECT_NEAR(cx, 3, 1e-12);
  EXPECT_NEAR(cy, 4, 1e-12);
  // A jump, not a motion: inside the last step the object rests at the new pose.
  EXPECT_NEAR(w.pose3d_at(0, 0).position.x(), 3, 1e-12);
  // Two values keep the yaw.
  w.teleport(0, std::vector<double>{1, 1});
  EXPECT_NEAR(w.object(0).state[2], 7.0 - 2 * M_PI, 1e-12);
  EXPECT_THROW(w.teleport(0, std::vector<double>{1}), Error);
  EXPECT_THROW(w.teleport(0, std::vector<double>{1, 2, 3, 4}), Error);
}

TEST(SetGoals, ReplacesTheWaypointsAndTheBehaviourFollows) {
  World w = make_world(R"(
robot:
  - kinematics: {name: diff}
    state: [0, 0, 0]
    goal: [5, 0, 0]
    behavior: {name: dash}
)");
  w.set_goals(0, {{0.2, 0}});
  ASSERT_EQ(w.object(0).goals.size(), 1u);
  EXPECT_EQ(w.object(0).goals[0], (std::vector<double>{0.2, 0, 0}));
  w.step();
  w.step();
  EXPECT_TRUE(w.object(0).arrive);  // 0.2 m at 0.1 m per step
  EXPECT_THROW(w.set_goals(0, {{1}}), Error);
  w.set_goals(0, {});
  EXPECT_TRUE(w.object(0).goals.empty());
}

}  // namespace
}  // namespace ubot
