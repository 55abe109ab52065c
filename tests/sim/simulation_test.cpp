// The step pipeline: world moves, scene refits, sensors sample the post-move snapshot.
#include "ubot/sim/simulation.h"

#include <gtest/gtest.h>

#include "ubot/config/load_world.h"
#include "ubot/sensors/lidar2d.h"

namespace ubot {
namespace {

Simulation make_sim(const std::string& yaml, int threads = 0) {
  return Simulation(load_world_from_string(yaml, "test.yaml"), {.threads = threads});
}

const Lidar2d& lidar(const Simulation& sim, int i) {
  return static_cast<const Lidar2d&>(*sim.sensors()[i]);
}

TEST(Simulation, SensorsSeeObjectsThatMoveLaterInTheSameStep) {
  // robot_0 (id 0) looks at robot_1 (id 1), which moves after it in the step: the scan must
  // still show robot_1's post-move position.
  Simulation sim = make_sim(R"(
robot:
  - kinematics: {name: diff}
    state: [0, 0, 0]
    static: true
    sensors: [{name: lidar2d, range_max: 20, angle_range: 0.1, number: 1}]
  - kinematics: {name: omni}
    shape: {name: circle, radius: 0.5}
    state: [10, 0, 0]
    goal: [0, 0, 0]
    vel_max: [1, 1]
    behavior: {name: dash}
)");
  for (int k = 1; k <= 20; ++k) {
    sim.step();
    const double x1 = sim.world().object(1).state[0];
    ASSERT_NEAR(x1, 10.0 - 0.1 * k, 1e-12);
    ASSERT_NEAR(lidar(sim, 0).scan().ranges[0], x1 - 0.5, 1e-12) << k;
  }
}

TEST(Simulation, MovingPolygonsAreRefit) {
  Simulation sim = make_sim(R"(
robot:
  - kinematics: {name: diff}
    state: [0, 0, 0]
    static: true
    sensors: [{name: lidar2d, range_max: 20, angle_range: 0.1, number: 1}]
obstacle:
  - kinematics: {name: omni}
    shape: {name: rectangle, length: 1, width: 4}
    state: [5, 0, 0]
    goal: [15, 0, 0]
    vel_max: [2, 2]
    behavior: {name: dash}
)");
  for (int k = 1; k <= 20; ++k) {
    sim.step();
    ASSERT_NEAR(lidar(sim, 0).scan().ranges[0], 4.5 + 0.2 * k, 1e-12) << k;
  }
}

TEST(Simulation, ThreadCountDoesNotChangeResults) {
  const std::string yaml = R"(
robot:
  - number: 8
    distribution: {name: circle, radius: 4, center: [5, 5]}
    kinematics: {name: diff}
    behavior: {name: dash}
    sensors: [{name: lidar2d, range_max: 8, angle_range: 6.283185307179586, number: 90,
               noise: true, std: 0.05, angle_std: 0.01}]
)";
  Simulation one = make_sim(yaml, 1), two = make_sim(yaml, 2);
  for (int k = 0; k < 30; ++k) {
    one.step();
    two.step();
  }
  for (int i = 0; i < 8; ++i) EXPECT_EQ(lidar(one, i).scan().ranges, lidar(two, i).scan().ranges);
}

}  // namespace
}  // namespace ubot
