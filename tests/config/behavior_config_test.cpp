// `sfm` keys and `group_behavior:` in world files: defaults, values, and precise errors.
#include <gtest/gtest.h>

#include "load_error.h"
#include "ubot/config/load_world.h"

namespace ubot {
namespace {

using testing_support::BadCase;

TEST(BehaviorConfig, SfmKeysAndTheirDefaults) {
  const WorldModel m = load_world_from_string(R"(
robot:
  - kinematics: {name: diff}
    behavior: {name: sfm, vmax: 0.7, gamma: 0.5, safety_radius: 0.12, loop: true}
  - kinematics: {name: omni}
    behavior: {name: sfm}
)",
                                              "sfm.yaml");
  const BehaviorModel::Sfm& tuned = m.objects[0].behavior.sfm;
  EXPECT_EQ(m.objects[0].behavior.name, "sfm");
  EXPECT_TRUE(m.objects[0].behavior.loop);
  EXPECT_EQ(tuned.vmax, 0.7);
  EXPECT_EQ(tuned.gamma, 0.5);
  EXPECT_EQ(tuned.safety_radius, 0.12);
  // IR-SIM's SFMVelocity defaults.
  const BehaviorModel::Sfm& d = m.objects[1].behavior.sfm;
  EXPECT_EQ(d.vmax, 1.5);
  EXPECT_EQ(d.neighbor_threshold, 10.0);
  EXPECT_EQ(d.relaxation_time, 0.5);
  EXPECT_EQ(d.force_factor_desired, 1.0);
  EXPECT_EQ(d.force_factor_social, 2.1);
  EXPECT_EQ(d.force_factor_obstacle, 10.0);
  EXPECT_EQ(d.sigma_obstacle, 0.8);
  EXPECT_EQ(d.lambda_importance, 2.0);
  EXPECT_EQ(d.gamma, 0.35);
  EXPECT_EQ(d.n_angular, 2.0);
  EXPECT_EQ(d.n_velocity, 3.0);
  EXPECT_EQ(d.safety_radius, 0.0);
}

TEST(BehaviorConfig, OrcaKeysEveryMemberAndTheirDefaults) {
  const WorldModel m = load_world_from_string(R"(
robot:
  - number: 3
    kinematics: {name: omni}
    group_behavior: {name: orca, neighborDist: 12, maxNeighbors: 4, timeHorizon: 5,
                     timeHorizonObst: 3, safe_radius: 0.5, maxSpeed: 2.0}
  - kinematics: {name: diff}
    group_behavior: {name: orca}
)",
                                              "orca.yaml");
  ASSERT_EQ(m.objects.size(), 4u);
  for (int id = 0; id < 3; ++id) {
    const GroupBehaviorModel& g = m.objects[id].group_behavior;
    EXPECT_EQ(g.name, "orca");
    EXPECT_EQ(g.orca.neighbor_dist, 12.0);
    EXPECT_EQ(g.orca.max_neighbors, 4);
    EXPECT_EQ(g.orca.time_horizon, 5.0);
    EXPECT_EQ(g.orca.time_horizon_obst, 3.0);
    EXPECT_EQ(g.orca.safe_radius, 0.5);
    EXPECT_EQ(g.orca.max_speed, 2.0);
  }
  // IR-SIM's OrcaGroupBehavior defaults; maxSpeed unset means each member's own.
  const OrcaModel& d = m.objects[3].group_behavior.orca;
  EXPECT_EQ(d.neighbor_dist, 15.0);
  EXPECT_EQ(d.max_neighbors, 10);
  EXPECT_EQ(d.time_horizon, 20.0);
  EXPECT_EQ(d.time_horizon_obst, 10.0);
  EXPECT_EQ(d.safe_radius, 0.1);
  EXPECT_FALSE(d.max_speed.has_value());
  for (const std::string& w : m.warnings) EXPECT_EQ(w.find("group behaviour"), std::string::npos);
}

const BadCase kBehaviorCases[] = {
    {"misspelt ORCA key",
     "robot:\n  - kinematics: {name: omni}\n    group_behavior: {name: orca, neighbourDist: 5}\n",
     "bad.yaml:3:34: robot[0].group_behavior.neighbourDist: unknown key 'neighbourDist' (did "
     "you mean 'neighborDist'?)"},
    {"fractional maxNeighbors",
     "robot:\n  - kinematics: {name: omni}\n    group_behavior: {name: orca, maxNeighbors: 2.5}\n",
     "bad.yaml:3:48: robot[0].group_behavior.maxNeighbors: expected a whole number, got 2.5"},
    {"negative timeHorizon",
     "robot:\n  - kinematics: {name: omni}\n    group_behavior: {name: orca, timeHorizon: -1}\n",
     "bad.yaml:3:47: robot[0].group_behavior.timeHorizon: must be greater than 0, got -1"},
    {"orca on acker", "robot:\n  - kinematics: {name: acker}\n    group_behavior: {name: orca}\n",
     "bad.yaml:3:28: robot[0].group_behavior.name: group behaviour 'orca' is available for diff "
     "and omni kinematics"},
    {"a custom behaviour's nested mapping",
     "robot:\n  - kinematics: {name: omni}\n    group_behavior: {name: swarm, gains: {a: 1}}\n",
     "bad.yaml:3:42: robot[0].group_behavior.gains: expected a number, a boolean, a string or a "
     "list of numbers"},
    {"sfm gamma 0", "robot:\n  - kinematics: {name: diff}\n    behavior: {name: sfm, gamma: 0}\n",
     "bad.yaml:3:34: robot[0].behavior.gamma: must be greater than 0, got 0"},
    {"misspelt sfm key",
     "robot:\n  - kinematics: {name: diff}\n    behavior: {name: sfm, sigma_obstacles: 0.5}\n",
     "bad.yaml:3:27: robot[0].behavior.sigma_obstacles: unknown key 'sigma_obstacles' (did you "
     "mean 'sigma_obstacle'?)"},
    {"sfm on acker", "robot:\n  - kinematics: {name: acker}\n    behavior: {name: sfm}\n",
     "bad.yaml:3:22: robot[0].behavior.name: behavior 'sfm' is available for diff and omni "
     "kinematics, not acker"},
};

TEST(BehaviorConfig, BadKeysAndValuesNameTheirPlace) {
  for (const BadCase& c : kBehaviorCases) {
    EXPECT_EQ(testing_support::load_error(c.yaml), c.message) << c.what;
  }
}

}  // namespace
}  // namespace ubot
