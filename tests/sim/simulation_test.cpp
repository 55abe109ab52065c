// The step pipeline: world moves, scene refits, sensors sample the post-move snapshot.
#include "ubot/sim/simulation.h"

#include <gtest/gtest.h>

#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/sensors/lidar2d/lidar2d.h"

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

// A provider that moves its one cell 1 m farther away at every call, and counts the calls.
class Receding final : public media::MediumProvider {
 public:
  explicit Receding(int* calls) : calls_(calls) {}
  bool snapshot(const media::MediumQuery& q, media::MediumSnapshot& out) override {
    ++*calls_;
    times_.push_back(q.time);
    out.name = "receding";
    out.tint = {0.9, 0.1, 0.1};
    out.cells.push_back({{4.0 + *calls_, 0, 0}, 1.0, 0.9, 1.0});
    return *calls_ % 4 != 0;  // every fourth call: no medium this time
  }
  std::vector<Nanos> times_;

 private:
  int* calls_;
};

// A reset makes a new world: it still moves large steps' objects on the simulation's threads
// (it once went on alone after the first reset).
TEST(Simulation, ResetKeepsTheWorldOnTheSimulationsThreads) {
  const char* yaml = "robot:\n  - kinematics: {name: omni}\n    state: [0, 0, 0]\n";
  Simulation two = make_sim(yaml, 2);
  Simulation one = make_sim(yaml, 1);
  EXPECT_TRUE(two.world().has_parallel_for());
  EXPECT_FALSE(one.world().has_parallel_for());
  two.reset(7);
  one.reset(7);
  EXPECT_TRUE(two.world().has_parallel_for());
  EXPECT_FALSE(one.world().has_parallel_for());
}

TEST(Simulation, MediumProvidersAreAskedOncePerStepAndChangesShowAtTheNextSample) {
  Simulation sim = make_sim(R"(
robot:
  - kinematics: {name: diff}
    state: [0, 0, 0]
    static: true
    unobstructed: true  # robot_1's lidar sits on it
    sensors:
      - {name: lidar2d, range_max: 20, angle_range: 0.1, number: 1}
      - {name: fmcw_lidar2d, range_max: 20, angle_range: 0.1, number: 1}
  - kinematics: {name: diff}
    state: [0, 5, 0]
    static: true
    sensors: [{name: lidar2d, range_max: 20, angle_range: 0.1, number: 1, offset: [0, -5, 0]}]
obstacle:
  - {shape: {name: linestring, vertices: [[15, -5], [15, 5]]}, state: [0, 0, 0]}
)");
  int calls = 0;
  auto provider = std::make_unique<Receding>(&calls);
  Receding* p = provider.get();
  sim.add_medium_provider(std::move(provider));
  for (int k = 1; k <= 12; ++k) {
    sim.step();
    ASSERT_EQ(calls, k);  // once per step, however many sensors sample
    ASSERT_EQ(p->times_.back(), sim.world().time_ns());
    const double expected = k % 4 == 0 ? 15.0 : 4.0 + k - 1.0;  // this step's snapshot
    for (int i = 0; i < 3; ++i) ASSERT_EQ(lidar(sim, i).scan().ranges[0], expected) << k << i;
    ASSERT_EQ(sim.media().size(), k % 4 == 0 ? 0u : 1u);
    if (k % 4 != 0) {
      EXPECT_EQ(sim.media()[0].name, "receding");
      EXPECT_EQ(lidar(sim, 0).scan().hit_medium[0], 0);
    }
  }
}

TEST(Simulation, MediaComeInOrderDeclaredProvidedLegacy) {
  Simulation sim = make_sim(R"(
robot:
  - kinematics: {name: diff}
    state: [0, 0, 0]
    static: true
    sensors: [{name: lidar2d, range_max: 20, number: 1}]
obstacle:
  - {name: tagged, shape: {name: circle, radius: 0.5}, state: [5, 5, 0], unobstructed: true,
     tags: [AgentSensor.SmokeVolume], density: 0.3}
  - {name: not_seen, state: [5, -5, 0], tags: [SomethingElse]}
media:
  - {name: declared, cells: [{position: [1, 1], density: 1}]}
)");
  int calls = 0;
  sim.add_medium_provider(std::make_unique<Receding>(&calls));
  sim.step();
  ASSERT_EQ(sim.media().size(), 3u);
  EXPECT_EQ(sim.media()[0].name, "declared");
  EXPECT_EQ(sim.media()[1].name, "receding");
  EXPECT_EQ(sim.media()[2].name, "tagged");
  EXPECT_EQ(sim.media()[2].legacy_tag, "AgentSensor.SmokeVolume");
  EXPECT_EQ(sim.media()[2].cells[0].density, 0.3);
  EXPECT_EQ(sim.media()[2].cells[0].radius, 0.5);
  EXPECT_EQ(sim.media()[2].cells[0].position, Eigen::Vector3d(5, 5, 0));
}

}  // namespace
}  // namespace ubot

namespace ubot {
namespace {

// IR-SIM's step_mode: external (issue 24): a sensor server. Behaviours and commands move
// nothing; the caller's set_state / set_velocity are what the sensors and flags see.
constexpr const char* kExternalWorld = R"(
world: {step_time: 0.1, step_mode: External}
robot:
  - kinematics: {name: diff}
    shape: {name: circle, radius: 0.2}
    state: [1, 1, 0]
    goal: [[[5, 1, 0], [8, 1, 0]]]
    behavior: {name: dash}
    sensors: [{name: lidar2d, range_max: 20, angle_range: 0.1, number: 1}]
obstacle:
  - shape: {name: rectangle, length: 1, width: 4}
    state: [9.5, 1, 0]
)";

TEST(ExternalStepMode, NothingMovesButTimeAndTheSensorsSeeTheSetPose) {
  Simulation sim = make_sim(kExternalWorld, 1);
  ASSERT_EQ(sim.world().model().world.step_mode, StepMode::kExternal);
  sim.step();
  EXPECT_EQ(sim.world().object(0).state[0], 1.0);  // the dash behaviour did not drive it
  EXPECT_EQ(sim.world().step_count(), 1);
  EXPECT_NEAR(lidar(sim, 0).scan().ranges[0], 9.0 - 1.0, 1e-12);
  const std::vector<double> pose{3.0, 1.0, 0.0};
  sim.teleport(0, pose);
  sim.set_velocity(0, {0.7, 0.1});
  sim.step();
  EXPECT_EQ(sim.world().object(0).state[0], 3.0);
  EXPECT_EQ(sim.world().object(0).velocity, Eigen::Vector2d(0.7, 0.1));  // as set, not zeroed
  EXPECT_NEAR(lidar(sim, 0).scan().ranges[0], 9.0 - 3.0, 1e-12);
  EXPECT_EQ(sim.world().time_ns(), 200'000'000);
}

TEST(ExternalStepMode, ArrivalTakesTheNextWaypointAndCollisionsAreFlaggedAtTheSetPoses) {
  Simulation sim = make_sim(kExternalWorld, 1);
  const std::vector<double> at_first{5.0, 1.0, 0.0}, at_last{8.0, 1.0, 0.0}, inside{9.2, 1.0, 0.0};
  sim.teleport(0, at_first);
  sim.step();
  EXPECT_FALSE(sim.world().object(0).arrive);  // one waypoint is left: it becomes the goal
  EXPECT_EQ(sim.world().object(0).goals.front()[0], 8.0);
  sim.teleport(0, at_last);
  sim.step();
  EXPECT_TRUE(sim.world().object(0).arrive);
  EXPECT_TRUE(sim.world().done());
  sim.teleport(0, inside);
  sim.step();
  EXPECT_TRUE(sim.world().object(0).collision);
}

TEST(ExternalStepMode, ACommandIsRefusedNamingTheFile) {
  Simulation sim = make_sim(kExternalWorld, 1);
  std::vector<Command> commands(sim.world().size());
  commands[0] = Eigen::Vector2d(1.0, 0.0);
  try {
    sim.step(commands);
    FAIL() << "a command in step_mode external was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("test.yaml: world.step_mode is external"),
              std::string::npos)
        << e.what();
  }
  commands[0].reset();
  sim.step(commands);  // all unset (the CLI's bridge passes those): a step
  EXPECT_EQ(sim.world().step_count(), 1);
}

TEST(ExternalStepMode, AnUnknownModeIsAnErrorAtItsKey) {
  try {
    make_sim("world: {step_mode: outside}\n");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("must be 'internal' or 'external', got 'outside'"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace ubot
