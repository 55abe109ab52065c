// Group behaviours in a world: `orca` from YAML, the registry, the order of precedence of
// commands, and snapshots that carry a behaviour's state.
#include "ubot/world/group_behavior.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "ubot/core/error.h"
#include "ubot/world/world.h"
#include "world_test_support.h"

namespace ubot {
namespace {

using testing_support::make_world;

// Two omni robots swapping through ORCA (radius 0.5 + safe_radius 0.1 each).
const char* const kSwap = R"(
world: {width: 20, height: 20, offset: [-10, -10]}
robot:
  - number: 2
    distribution: {name: manual}
    kinematics: {name: omni}
    shape: {name: circle, radius: 0.5}
    state: [[-5, 0, 0], [5, 0, 3.141592653589793]]
    goal: [[5, 0, 0], [-5, 0, 0]]
    vel_max: [2, 2]
    vel_min: [-2, -2]
    group_behavior: {name: orca, timeHorizon: 5.0, safe_radius: 0.1, maxSpeed: 1.5}
)";

double distance(const World& w, int a, int b) {
  return std::hypot(w.object(a).state[0] - w.object(b).state[0],
                    w.object(a).state[1] - w.object(b).state[1]);
}

TEST(GroupBehavior, OrcaSwapsTwoOmniRobotsWithoutTouching) {
  World w = make_world(kSwap);
  // The first step from rest, 10 m apart, combined radius 1.2, timeHorizon 5: each may close at
  // most half of (10 - 1.2) / 5 m/s (the cut-off circle, see the Orca tests), less than its
  // preferred 1.5 m/s (maxSpeed, below the 2 m/s component limits); it moves that for 0.1 s, in
  // the world frame even facing -x.
  w.step();
  EXPECT_NEAR(w.object(0).state[0], -5.0 + (10.0 - 1.2) / (2.0 * 5.0) * 0.1, 1e-12);
  EXPECT_NEAR(w.object(1).state[0], 5.0 - (10.0 - 1.2) / (2.0 * 5.0) * 0.1, 1e-12);
  EXPECT_NEAR(w.object(1).state[1], 0.0, 1e-12);
  double closest = 1e9;
  int k = 1;
  for (; k < 400 && !w.done(); ++k) {
    w.step();
    closest = std::min(closest, distance(w, 0, 1));
    ASSERT_FALSE(w.object(0).collision) << k;
  }
  EXPECT_TRUE(w.done()) << k;
  EXPECT_GE(closest, 1.2 - 1e-9);  // the agents' radii include safe_radius
  EXPECT_LT(std::abs(w.object(0).state[0] - 5.0), 0.1);
}

TEST(GroupBehavior, OrcaOmniMemberPlansAtItsSmallerComponentLimit) {
  // IR-SIM 2.12.0 (OrcaGroupBehavior._agent_speed, _pref_velocity): without maxSpeed the cap is
  // min(vel_max[0], vel_max[1]) = 2 m/s, and the preferred velocity is that cap towards the goal.
  // Alone, the agent takes it: 0.2 m in the first 0.1 s step. (2.10.2 clipped the preferred
  // velocity to 1 m/s: 0.1 m.)
  World w = make_world(R"(
robot:
  - kinematics: {name: omni}
    shape: {name: circle, radius: 0.3}
    state: [0, 0, 0]
    goal: [10, 0, 0]
    vel_max: [3, 2]
    vel_min: [-3, -2]
    group_behavior: {name: orca}
)");
  w.step();
  EXPECT_NEAR(w.object(0).state[0], 0.2, 1e-12);
  EXPECT_NEAR(w.object(0).state[1], 0.0, 1e-12);
}

TEST(GroupBehavior, DiffRobotsFollowOrcaThroughOmniToDiff) {
  World w = make_world(R"(
robot:
  - number: 2
    distribution: {name: manual}
    kinematics: {name: diff}
    shape: {name: circle, radius: 0.3}
    state: [[0, 0, 0], [8, 0.01, 3.14]]
    goal: [[8, 0, 0], [0, 0.01, 0]]
    vel_max: [1, 2]
    vel_min: [-1, -2]
    goal_threshold: 0.2
    group_behavior: {name: orca, timeHorizon: 5.0, timeHorizonObst: 5.0, safe_radius: 0.2}
)");
  double closest = 1e9;
  for (int k = 0; k < 400 && !w.done(); ++k) {
    w.step();
    closest = std::min(closest, distance(w, 0, 1));
  }
  EXPECT_TRUE(w.done());
  EXPECT_GT(closest, 0.6);
}

TEST(GroupBehavior, ExternalCommandsOverrideTheGroupsAndSnapshotsCarryItsState) {
  World w = make_world(kSwap);
  for (int k = 0; k < 30; ++k) w.step();
  World copy = w;  // copies the ORCA agents' velocities with the world state
  const WorldState snapshot = w.state();
  for (int k = 0; k < 40; ++k) {
    w.step();
    copy.step();
  }
  EXPECT_EQ(w.object(0).state, copy.object(0).state);
  EXPECT_EQ(w.object(1).state, copy.object(1).state);
  // Restoring replays the same steps.
  const std::vector<double> after = w.object(0).state;
  w.set_state(snapshot);
  for (int k = 0; k < 40; ++k) w.step();
  EXPECT_EQ(w.object(0).state, after);
  // An external command wins over ORCA's.
  const std::vector<Command> commands{Eigen::Vector2d(0.0, 0.0)};
  const std::vector<double> before = w.object(0).state;
  w.step(commands);
  EXPECT_EQ(w.object(0).state, before);
  EXPECT_NE(w.object(1).state, copy.object(1).state);  // still driven by ORCA
}

TEST(GroupBehavior, ARegisteredFunctionDrivesItsGroup) {
  // A stateless behaviour naming each member's command after its index in the group.
  register_group_behavior(
      KinematicsKind::kOmni, "test_ladder",
      [](const World&, std::span<const int> members, const GroupBehaviorModel& config) {
        const double gain = std::get<double>(config.params.at("gain"));
        std::vector<Command> out;
        for (std::size_t k = 0; k < members.size(); ++k) {
          out.emplace_back(Eigen::Vector2d(gain * double(k), 0.0));
        }
        return out;
      });
  EXPECT_TRUE(group_behavior_registered(KinematicsKind::kOmni, "test_ladder"));
  EXPECT_FALSE(group_behavior_registered(KinematicsKind::kDiff, "test_ladder"));
  EXPECT_THROW(register_group_behavior(KinematicsKind::kOmni, "test_ladder", {}), Error);
  World w = make_world(R"(
robot:
  - number: 3
    distribution: {name: manual}
    kinematics: {name: omni}
    state: [[0, 0, 0], [0, 3, 0], [0, 6, 0]]
    vel_max: [5, 5]
    vel_min: [-5, -5]
    group_behavior: {name: test_ladder, gain: 0.5, label: steps, scale: [1, 2]}
  - kinematics: {name: omni}
    state: [0, 9, 0]
    behavior: {name: dash}
    goal: [5, 9, 0]
)");
  EXPECT_EQ(w.object_model(0).group_behavior.params.at("label"), GroupParam{std::string("steps")});
  const GroupParam scale = std::vector<double>{1, 2};
  EXPECT_EQ(w.object_model(0).group_behavior.params.at("scale"), scale);
  w.step();
  EXPECT_DOUBLE_EQ(w.object(0).state[0], 0.0);
  EXPECT_DOUBLE_EQ(w.object(1).state[0], 0.05);
  EXPECT_DOUBLE_EQ(w.object(2).state[0], 0.1);
  EXPECT_DOUBLE_EQ(w.object(3).state[0], 0.1);  // its own group: its dash behaviour (vel_max 1)
}

TEST(GroupBehavior, AnUnregisteredNameIsAnErrorAtItsNameListingTheKnownOnes) {
  const WorldModel model = load_world_from_string(R"(
robot:
  - number: 2
    distribution: {name: manual}
    kinematics: {name: omni}
    state: [[0, 0, 0], [0, 3, 0]]
    goal: [5, 5, 0]
    group_behavior: {name: swarm, cohesion_gain: 0.3}
)",
                                                  "swarm.yaml");
  // The loader does not judge the name: a plug-in may register it before the world is built.
  try {
    World w(model);
    FAIL() << "a world with an unregistered group behaviour was built";
  } catch (const Error& e) {
    // Known: the built-in orca and sfm, and whatever this test binary registered before.
    std::string known;
    for (const std::string& n : group_behavior_names(KinematicsKind::kOmni)) {
      known += (known.empty() ? "" : ", ") + n;
    }
    EXPECT_NE(known.find("orca, sfm"), std::string::npos);
    EXPECT_EQ(std::string(e.what()),
              "swarm.yaml:8:28: robot[0].group_behavior.name: no group behaviour 'swarm' for omni "
              "kinematics (known: " +
                  known +
                  "); one written in Python is registered with ubot.register_group_behavior "
                  "before the world is loaded, or runs through ubot.irsim with its script "
                  "(docs/behaviors.md)");
    EXPECT_EQ(e.line(), 8);
    EXPECT_EQ(e.key_path(), "robot[0].group_behavior.name");
  }
}

// Per-object behaviours share the registry: `behavior: {name: N}` with a name that is not built
// in runs the function registered for (kinematics, N), each object when it moves.
TEST(Behavior, ARegisteredFunctionDrivesEachObjectThatNamesIt) {
  register_behavior(KinematicsKind::kOmni, "test_lane",
                    [](const World& w, int id, const BehaviorModel& config) -> Command {
                      const double speed = std::get<double>(config.params.at("speed"));
                      if (w.object(id).state[1] > 5) return std::nullopt;  // the top lane stands
                      return Eigen::Vector2d(speed, 0.0);
                    });
  EXPECT_THROW(register_behavior(KinematicsKind::kOmni, "test_lane", {}), Error);
  EXPECT_THROW(register_behavior(KinematicsKind::kOmni, "dash", {}), Error);  // built in
  const std::vector<std::string> omni = behavior_names(KinematicsKind::kOmni);
  EXPECT_NE(std::find(omni.begin(), omni.end(), "test_lane"), omni.end());
  const std::vector<std::string> diff = behavior_names(KinematicsKind::kDiff);
  EXPECT_EQ(std::find(diff.begin(), diff.end(), "test_lane"), diff.end());
  World w = make_world(R"(
robot:
  - number: 2
    distribution: {name: manual}
    kinematics: {name: omni}
    state: [[0, 0, 0], [0, 6, 0]]
    vel_max: [0.8, 0.8]
    behavior: {name: test_lane, speed: 2.0, wander: false}
)");
  EXPECT_EQ(w.object_model(0).behavior.params.at("speed"), GroupParam(2.0));
  EXPECT_EQ(w.object_model(0).behavior.params.count("wander"), 0u);  // a goal key, read as such
  w.step();
  EXPECT_DOUBLE_EQ(w.object(0).state[0], 0.08);  // 2.0 clipped to vel_max 0.8, 0.1 s
  EXPECT_DOUBLE_EQ(w.object(1).state[0], 0.0);   // None: no velocity
  // An external command still wins over it.
  std::vector<Command> commands(2);
  commands[0] = Eigen::Vector2d(-0.5, 0.0);
  w.step(commands);
  EXPECT_DOUBLE_EQ(w.object(0).state[0], 0.03);
}

TEST(Behavior, AnUnregisteredNameIsAnErrorAtItsNameListingTheKnownOnes) {
  const WorldModel model = load_world_from_string(R"(
robot:
  - kinematics: {name: diff}
    state: [1, 1, 0]
    behavior: {name: wobble, gain: 2}
)",
                                                  "wobble.yaml");
  try {
    World w(model);
    FAIL() << "a world with an unregistered behaviour was built";
  } catch (const Error& e) {
    EXPECT_THAT(std::string(e.what()),
                ::testing::StartsWith("wobble.yaml:5:22: robot[0].behavior.name: no behaviour "
                                      "'wobble' for diff kinematics (known: dash, rvo, sfm"));
    EXPECT_THAT(std::string(e.what()), ::testing::HasSubstr("ubot.register_behavior"));
    EXPECT_EQ(e.line(), 5);
  }
}

// The built-ins sit in the same registry as the registered ones, under each kinematics the loader
// accepts them for: a world runs whatever the registry holds under the name.
TEST(Behavior, BuiltInsAreInTheRegistryForTheKinematicsTheLoaderAccepts) {
  for (KinematicsKind k : kKinematicsKinds) {
    const std::vector<std::string> names = behavior_names(k);
    for (std::string_view builtin : builtin_behavior_names()) {
      const bool listed = std::find(names.begin(), names.end(), builtin) != names.end();
      EXPECT_EQ(listed, builtin_behavior_available(builtin, k))
          << builtin << " for " << kinematics_name(k);
    }
  }
  const std::vector<std::string> acker = behavior_names(KinematicsKind::kAcker);
  EXPECT_NE(std::find(acker.begin(), acker.end(), "dash"), acker.end());
  EXPECT_EQ(std::find(acker.begin(), acker.end(), "rvo"), acker.end());
  EXPECT_THROW(register_behavior(KinematicsKind::kAcker, "rvo", {}), Error);
}

// The built-in `sfm` group behaviour (IR-SIM 2.12.0): its social_groups are member indices of
// the YAML group, each member in one group at most; diff and omni only.
std::string sfm_group_error(const std::string& groups, const std::string& kinematics = "diff") {
  try {
    load_world_from_string(
        "robot:\n  - number: 3\n    distribution: {name: circle, radius: 2, "
        "center: [5, 5]}\n    kinematics: {name: " +
            kinematics + "}\n    group_behavior: {name: sfm, social_groups: " + groups + "}\n",
        "sfm.yaml");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(GroupBehavior, SfmSocialGroupsAreCheckedAgainstTheGroup) {
  EXPECT_EQ(sfm_group_error("[[0, 1], [2]]"), "");
  EXPECT_NE(sfm_group_error("[[0, 3]]")
                .find("social_groups index 3 is out of range for the "
                      "group's 3 members"),
            std::string::npos);
  EXPECT_NE(sfm_group_error("[[0, 1], [1, 2]]")
                .find("member 1 appears in more than one social "
                      "group"),
            std::string::npos);
  EXPECT_NE(sfm_group_error("[[0, 1]]", "acker")
                .find("group behaviour 'sfm' is available for "
                      "diff and omni kinematics"),
            std::string::npos);
  const WorldModel m = load_world_from_string(
      "robot:\n  - number: 3\n    distribution: {name: circle, radius: 2, center: [5, 5]}\n"
      "    kinematics: {name: omni}\n    group_behavior: {name: sfm, vmax: 0.8, "
      "social_groups: [[2, 0], [1]], group_repulsion_threshold: 0.7, gaze_vision_angle: 60}\n",
      "sfm.yaml");
  const SfmGroupModel& g = m.objects[0].group_behavior.sfm;
  EXPECT_EQ(g.sfm.vmax, 0.8);
  EXPECT_EQ(g.social_groups, (std::vector<std::vector<int>>{{2, 0}}));  // [1] walks alone
  EXPECT_EQ(g.group_repulsion_threshold, std::optional<double>(0.7));
  EXPECT_EQ(g.gaze_vision_angle, 60.0);
}

// Members of one social group hold together where, without the group forces, the same crowd
// spreads: the pair's distance after 60 steps is smaller with the coherence force.
TEST(GroupBehavior, SfmSocialGroupsWalkTogether) {
  const auto pair_distance = [](const std::string& groups) {
    World w(
        load_world_from_string("world: {width: 20, height: 10, collision_mode: unobstructed}\n"
                               "robot:\n  - number: 2\n    distribution: {name: manual}\n"
                               "    kinematics: {name: omni}\n    state: [[1, 4, 0], [1, 7, 0]]\n"
                               "    goal: [[19, 2, 0], [19, 8, 0]]\n    vel_max: [1, 1]\n"
                               "    group_behavior: {name: sfm, vmax: 1.0, social_groups: " +
                                   groups + "}\n",
                               "pair.yaml"));
    for (int k = 0; k < 60; ++k) w.step();
    return std::hypot(w.object(0).state[0] - w.object(1).state[0],
                      w.object(0).state[1] - w.object(1).state[1]);
  };
  const double apart = pair_distance("[]"), together = pair_distance("[[0, 1]]");
  EXPECT_GT(apart, 3.5);  // from 3 m apart, heading for goals 6 m apart
  EXPECT_LT(together, apart - 1.0);
}

TEST(GroupBehavior, WanderFromTheGroupBehaviourGivesEachMemberARandomGoal) {
  // IR-SIM reads wander and its range from group_behavior when there is no behavior.
  const World w = make_world(R"(
robot:
  - number: 3
    distribution: {name: manual}
    kinematics: {name: omni}
    state: [[0, 0, 0], [0, 3, 0], [0, 6, 0]]
    group_behavior: {name: orca, wander: true, range_low: [20, 20, 0], range_high: [30, 30, 0]}
)");
  for (int id = 0; id < 3; ++id) {
    ASSERT_EQ(w.object(id).goals.size(), 1u);
    EXPECT_GE(w.object(id).goals[0][0], 20.0);
    EXPECT_LE(w.object(id).goals[0][1], 30.0);
  }
}

}  // namespace
}  // namespace ubot
