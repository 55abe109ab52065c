// World stepping: arrival, waypoints, collisions and collision modes, done, FOV.
#include "ubot/world/world.h"

#include <gtest/gtest.h>

#include <cmath>
#include <csignal>

#include "ubot/core/stop.h"
#include "world_test_support.h"

namespace ubot {
namespace {

using testing_support::make_world;

TEST(World, ArrivesWithinTheGoalThresholdAndIsDone) {
  World w = make_world(R"(
robot:
  - kinematics: {name: diff}
    state: [0, 0, 0]
    goal: [1, 0, 0]
    goal_threshold: 0.25
    behavior: {name: dash}
)");
  // 0.1 m per step: at step 8 the robot is 0.2 m from the goal (< 0.25).
  for (int k = 1; k <= 7; ++k) {
    w.step();
    ASSERT_FALSE(w.object(0).arrive) << k;
    ASSERT_FALSE(w.done());
  }
  w.step();
  EXPECT_TRUE(w.object(0).arrive);
  EXPECT_TRUE(w.done());
  // An arrived dash robot stops moving on its own (distance below threshold => zero command).
  const double x = w.object(0).state[0];
  w.step();
  EXPECT_EQ(w.object(0).state[0], x);
}

TEST(World, WaypointsArePoppedInOrder) {
  World w = make_world(R"(
robot:
  - kinematics: {name: omni}
    state: [0, 0, 0]
    goal: [[[1, 0, 0], [1, 1, 0]]]
    behavior: {name: dash}
)");
  int k = 0;
  while (w.object(0).goals.size() == 2 && k < 100) {
    w.step();
    ++k;
  }
  EXPECT_LT(k, 15);
  EXPECT_FALSE(w.object(0).arrive);  // popping a waypoint does not count as arriving
  while (!w.object(0).arrive && k < 100) {
    w.step();
    ++k;
  }
  EXPECT_NEAR(w.object(0).state[0], 1.0, 0.11);
  EXPECT_NEAR(w.object(0).state[1], 1.0, 0.11);
}

TEST(World, LoopGoesBackToTheStart) {
  World w = make_world(R"(
robot:
  - kinematics: {name: omni}
    state: [0, 0, 0]
    goal: [2, 0, 0]
    behavior: {name: dash, loop: true}
)");
  bool reached_goal = false, returned = false;
  for (int k = 0; k < 200 && !returned; ++k) {
    w.step();
    reached_goal |= w.object(0).state[0] > 1.85;
    returned = reached_goal && w.object(0).arrive && w.object(0).state[0] < 0.15;
  }
  EXPECT_TRUE(returned);
}

const char* kCollisionWorld = R"(
world: {collision_mode: %s}
robot:
  - kinematics: {name: diff}
    shape: {name: circle, radius: 0.5}
    state: [0, 0, 0]
    goal: [10, 0, 0]
    behavior: {name: dash}
obstacle:
  - shape: {name: circle, radius: 1.0}
    state: [3.05, 0, 0]
)";

std::string collision_world(const char* mode) {
  char buffer[512];
  std::snprintf(buffer, sizeof(buffer), kCollisionWorld, mode);
  return buffer;
}

TEST(World, StopModeFreezesFromTheNextStep) {
  World w = make_world(collision_world("stop"));
  // Centres touch at distance 1.5: x >= 1.55, i.e. after step 16 (x = 1.6).
  for (int k = 1; k <= 15; ++k) {
    w.step();
    ASSERT_FALSE(w.object(0).collision) << k;
  }
  w.step();
  EXPECT_TRUE(w.object(0).collision);
  EXPECT_TRUE(w.object(0).stop);
  EXPECT_EQ(w.object(0).collision_ids, std::vector<int>{1});
  EXPECT_TRUE(w.object(1).collision);  // the obstacle sees the robot too
  EXPECT_TRUE(w.done());
  const double x = w.object(0).state[0];
  EXPECT_NEAR(x, 1.6, 1e-12);  // the overlapping move is kept, no rollback
  w.step();
  EXPECT_EQ(w.object(0).state[0], x);
  EXPECT_TRUE(w.object(0).velocity.isZero(0.0));
}

TEST(World, UnobstructedModeOnlySetsFlags) {
  World w = make_world(collision_world("unobstructed"));
  for (int k = 0; k < 20; ++k) w.step();
  EXPECT_TRUE(w.object(0).collision);
  EXPECT_FALSE(w.object(0).stop);
  EXPECT_NEAR(w.object(0).state[0], 2.0, 1e-12);
}

TEST(World, UnobstructedObstaclesStopsRobotsOnly) {
  World w = make_world(R"(
world: {collision_mode: unobstructed_obstacles}
robot:
  - kinematics: {name: diff}
    state: [0, 0, 0]
    goal: [10, 0, 0]
    behavior: {name: dash}
obstacle:
  - kinematics: {name: diff}
    state: [3, 0, 3.141592653589793]
    goal: [-10, 0, 0]
    behavior: {name: dash}
)");
  for (int k = 0; k < 20; ++k) w.step();
  EXPECT_TRUE(w.object(0).stop);
  EXPECT_FALSE(w.object(1).stop);
  EXPECT_TRUE(w.object(1).collision || w.object(1).state[0] < 0.0);
}

TEST(World, UnobstructedObjectsAreInvisibleToOthers) {
  World w = make_world(R"(
robot:
  - kinematics: {name: diff}
    state: [0, 0, 0]
    goal: [10, 0, 0]
    behavior: {name: dash}
obstacle:
  - shape: {name: circle, radius: 1.0}
    state: [3, 0, 0]
    unobstructed: true
)");
  for (int k = 0; k < 30; ++k) w.step();
  EXPECT_FALSE(w.object(0).collision);
  EXPECT_FALSE(w.object(0).stop);
  EXPECT_GT(w.object(0).state[0], 2.9);
  // ... but it still bumps into the robot itself (IR-SIM checks every object).
  EXPECT_TRUE(w.object(1).collision);
  EXPECT_EQ(w.object(1).collision_ids, std::vector<int>{0});
}

TEST(World, StaticObjectsNeverMove) {
  World w = make_world(R"(
robot:
  - kinematics: {name: diff}
    state: [2, 2, 0]
    goal: [9, 2, 0]
    behavior: {name: dash}
    static: true
)");
  for (int k = 0; k < 5; ++k) w.step();
  EXPECT_EQ(w.object(0).state, (std::vector<double>{2, 2, 0}));
  EXPECT_FALSE(w.done());
}

TEST(World, RvoRobotsSwapPlacesWithoutColliding) {
  World w = make_world(R"(
world: {collision_mode: unobstructed}
robot:
  - number: 6
    distribution: {name: circle, radius: 3.0, center: [5, 5]}
    kinematics: {name: diff}
    shape: {name: circle, radius: 0.2}
    behavior: {name: rvo, vxmax: 1.0, vymax: 1.0, acce: 1.0, factor: 2.0, neighbor_threshold: 5.0}
    vel_min: [-3, -3]
    vel_max: [3, 3]
    goal_threshold: 0.2
)");
  int collisions = 0;
  for (int k = 0; k < 400 && !w.done(); ++k) {
    w.step();
    for (int i = 0; i < 6; ++i) collisions += w.object(i).collision;
  }
  EXPECT_TRUE(w.done());
  EXPECT_EQ(collisions, 0);
}

TEST(World, RvoDiffRobotWantsItsSpeedAlongTheGoalBearing) {
  // IR-SIM 2.12.0's _desired_speed_bounds: a diff robot's desired velocity is vel_max[0] = 1
  // along the goal bearing (45 degrees), not scaled by vel_max[1] = 3 (its turn rate) on y as in
  // 2.10.2 (which aims at 71.6 degrees). Alone, it takes the grid velocity nearest (0.707,
  // 0.707), (0.7, 0.7): already facing it, it drives at |(0.7, 0.7)| without turning.
  World w = make_world(R"(
robot:
  - kinematics: {name: diff}
    shape: {name: circle, radius: 0.2}
    state: [0, 0, 0.7853981633974483]
    goal: [5, 5, 0]
    vel_max: [1, 3]
    vel_min: [-1, -3]
    behavior: {name: rvo, vxmax: 1.0, vymax: 1.0, acce: 1.0}
)");
  w.step();
  EXPECT_NEAR(w.object(0).state[2], 0.7853981633974483, 1e-9);
  EXPECT_NEAR(w.object(0).state[0], 0.07, 1e-9);
  EXPECT_NEAR(w.object(0).state[1], 0.07, 1e-9);
}

TEST(World, RvoRobotAtRestSeesTheNeighboursTrueRadius) {
  // IR-SIM 2.12.0 (rvo.py, _neighbour_state): an ego at rest builds the cone of a resting disc
  // from its true radius. Ego radius 0.2 + 0.1, obstacle radius 1 + 0.1 at 3 m: half-angle
  // asin(1.4 / 3) = 27.8 degrees, so the velocity chosen towards the goal straight behind it
  // leaves at least that angle (2.10.2 took the neighbour's vx + 0.2 as its radius: 9.6 degrees).
  World w = make_world(R"(
robot:
  - kinematics: {name: omni}
    shape: {name: circle, radius: 0.2}
    state: [0, 0, 0]
    goal: [6, 0, 0]
    vel_max: [1, 1]
    vel_min: [-1, -1]
    behavior: {name: rvo, vxmax: 1.0, vymax: 1.0, acce: 1.0, neighbor_threshold: 5.0}
obstacle:
  - {shape: {name: circle, radius: 1.0}, state: [3, 0, 0]}
)");
  w.step();
  const double dx = w.object(0).state[0], dy = w.object(0).state[1];
  ASSERT_GT(std::hypot(dx, dy), 0.05);
  const double half = std::asin(1.4 / 3.0);
  EXPECT_GE(std::abs(std::atan2(dy, dx)), half - 1e-12);
  EXPECT_LT(std::abs(std::atan2(dy, dx)), half + 0.1);  // and it stays near the cone's edge
}

TEST(World, WanderDrawsGoalsInsideTheRange) {
  const std::string yaml = R"(
robot:
  - kinematics: {name: omni}
    state: [20, 20, 0]
    behavior: {name: dash, wander: true, range_low: [15, 15, -3], range_high: [25, 25, 3]}
    vel_max: [3, 3]
)";
  World a = make_world(yaml), b = make_world(yaml);
  const auto first = a.object(0).goals.front();
  EXPECT_EQ(first, b.object(0).goals.front());  // seeded
  int goals_seen = 1;
  auto current = first;
  for (int k = 0; k < 300; ++k) {
    a.step();
    const auto& g = a.object(0).goals.front();
    EXPECT_GE(g[0], 15);
    EXPECT_LT(g[0], 25);
    if (g != current) {
      ++goals_seen;
      current = g;
    }
  }
  EXPECT_GE(goals_seen, 3);
}

TEST(World, FovDetectsObjectsInTheSector) {
  World w = make_world(R"(
robot:
  - kinematics: {name: diff}
    state: [0, 0, 0]
    fov: 1.5707963267948966
    fov_radius: 5
obstacle:
  - {shape: {name: circle, radius: 0.5}, state: [3, 0, 0]}
  - {shape: {name: circle, radius: 0.5}, state: [-3, 0, 0]}
  - {shape: {name: circle, radius: 0.5}, state: [5.4, 0, 0]}
  - {shape: {name: circle, radius: 0.5}, state: [5.6, 0, 0]}
)");
  EXPECT_TRUE(w.fov_detect_object(0, 1));
  EXPECT_FALSE(w.fov_detect_object(0, 2));
  EXPECT_TRUE(w.fov_detect_object(0, 3));
  EXPECT_FALSE(w.fov_detect_object(0, 4));
  EXPECT_FALSE(w.fov_detect_object(1, 0));  // no fov configured
}

// A stop request (ubot/core/stop.h) cuts a step of a large world short with Stopped, before the
// step count moves; a small world (under 256 objects) always finishes its step.
TEST(World, AStopRequestCutsALargeWorldsStepShort) {
  const std::string large = R"(
world: {width: 100, height: 100, step_time: 0.1}
robot:
  - number: 600
    distribution: {name: random, range_low: [1, 1, -3], range_high: [99, 99, 3]}
    kinematics: {name: diff}
    shape: {name: circle, radius: 0.1}
    behavior: {name: dash, wander: true, range_low: [1, 1, -3], range_high: [99, 99, 3]}
)";
  World world = make_world(large);
  world.step();
  request_stop(SIGTERM);
  EXPECT_THROW(world.step(), Stopped);
  EXPECT_EQ(world.step_count(), 1);
  clear_stop();
  world.step();
  EXPECT_EQ(world.step_count(), 2);

  World small = make_world(R"(
world: {width: 10, height: 10}
robot: [{kinematics: {name: diff}, state: [1, 1, 0], goal: [9, 9, 0]}]
)");
  request_stop(SIGINT);
  EXPECT_NO_THROW(small.step());
  clear_stop();
  EXPECT_EQ(small.step_count(), 1);
}

}  // namespace
}  // namespace ubot
