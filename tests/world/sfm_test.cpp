// The social force model's terms against closed forms and against IR-SIM's own
// social_force_model.py on the same inputs, and the `sfm` behaviour in a world.
#include "ubot/world/social_force.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "world_test_support.h"

namespace ubot {
namespace {

using testing_support::make_world;

BehaviorModel::Sfm defaults() { return {}; }

TEST(SocialForce, DesiredTermRelaxesTowardsTheDesiredVelocity) {
  sfm::Agent a;
  a.velocity = {1.0, 0.0};
  a.desired_velocity = {1.2, 0.4};
  const sfm::Forces f = sfm::forces(a, {}, {}, defaults());
  // (v0 - v) / tau with tau = 0.5.
  EXPECT_DOUBLE_EQ(f.desired.x(), (1.2 - 1.0) / 0.5);
  EXPECT_DOUBLE_EQ(f.desired.y(), 0.4 / 0.5);
  EXPECT_EQ(f.social, Eigen::Vector2d::Zero());
  EXPECT_EQ(f.obstacle, Eigen::Vector2d::Zero());
}

TEST(SocialForce, NeighbourStraightAheadAtRestPushesBackByExpMinusDistanceOverGamma) {
  // Both at rest, the neighbour 1 m ahead: t = d_hat, |t| = 1, B = gamma, theta = 0, so only
  // the slowdown term acts: -exp(-d / gamma) along d_hat.
  sfm::Agent a;
  const std::vector<sfm::Neighbor> n{{{1.0, 0.0}, {0.0, 0.0}}};
  const sfm::Forces f = sfm::forces(a, n, {}, defaults());
  EXPECT_DOUBLE_EQ(f.social.x(), -std::exp(-1.0 / 0.35));
  EXPECT_DOUBLE_EQ(f.social.y(), 0.0);
  // The safety bubbles shift the decay by 2 safety_radius.
  BehaviorModel::Sfm p = defaults();
  p.safety_radius = 0.2;
  EXPECT_DOUBLE_EQ(sfm::forces(a, n, {}, p).social.x(), -std::exp(-(1.0 - 0.4) / 0.35));
}

TEST(SocialForce, NeighboursBeyondTheThresholdAreIgnored) {
  sfm::Agent a;
  const std::vector<sfm::Neighbor> n{{{10.0, 0.0}, {0.0, 0.0}}};  // default threshold 10 m
  EXPECT_EQ(sfm::forces(a, n, {}, defaults()).social, Eigen::Vector2d::Zero());
  BehaviorModel::Sfm p = defaults();
  p.neighbor_threshold = 10.5;
  EXPECT_NE(sfm::forces(a, n, {}, p).social, Eigen::Vector2d::Zero());
}

TEST(SocialForce, WallPushesAwayByExpMinusClearanceOverSigma) {
  sfm::Agent a;
  a.radius = 0.3;
  const std::vector<sfm::Segment> wall{{{-5.0, 1.5}, {5.0, 1.5}}};
  const sfm::Forces f = sfm::forces(a, {}, wall, defaults());
  // Closest point (0, 1.5): clearance 1.5 - 0.3 = 1.2, sigma 0.8, pushed along -y.
  EXPECT_DOUBLE_EQ(f.obstacle.x(), 0.0);
  EXPECT_DOUBLE_EQ(f.obstacle.y(), -std::exp(-1.2 / 0.8));
  // Two walls symmetric about the agent cancel.
  const std::vector<sfm::Segment> corridor{{{-5.0, 1.5}, {5.0, 1.5}}, {{-5.0, -1.5}, {5.0, -1.5}}};
  EXPECT_DOUBLE_EQ(sfm::forces(a, {}, corridor, defaults()).obstacle.y(), 0.0);
  // Beyond 5 sigma + radius a wall does nothing.
  const std::vector<sfm::Segment> far{{{-5.0, 4.4}, {5.0, 4.4}}};
  EXPECT_EQ(sfm::forces(a, {}, far, defaults()).obstacle, Eigen::Vector2d::Zero());
}

// Agent (0, 0) moving (1, 0), desired (1.2, 0.4), radius 0.3; a neighbour at (2, 0.5) moving
// (-1, 0); a wall along y = 1.5. The expected values are what IR-SIM's social_force_model
// (irsim/lib/algorithm/social_force_model.py at a76275f) returns for the same inputs.
struct TwoAgents {
  sfm::Agent a;
  std::vector<sfm::Neighbor> n{{{2.0, 0.5}, {-1.0, 0.0}}};
  std::vector<sfm::Segment> wall{{{-5.0, 1.5}, {5.0, 1.5}}};
  TwoAgents() {
    a.velocity = {1.0, 0.0};
    a.desired_velocity = {1.2, 0.4};
    a.radius = 0.3;
  }
};

TEST(SocialForce, TwoAgentsMatchIrsimsForces) {
  const TwoAgents s;
  const sfm::Forces f = sfm::forces(s.a, s.n, s.wall, defaults());
  EXPECT_DOUBLE_EQ(f.social.x(), -0.09753723374625273);
  EXPECT_DOUBLE_EQ(f.social.y(), -0.19687674932901936);
  EXPECT_DOUBLE_EQ(f.obstacle.y(), -0.22313016014842987);
  const Eigen::Vector2d v = sfm::next_velocity(s.a, s.n, s.wall, defaults(), 0.1);
  EXPECT_DOUBLE_EQ(v.x(), 1.019517180913287);
  EXPECT_DOUBLE_EQ(v.y(), -0.18447427750752393);
  // v = v0 + dt (1 f_d + 2.1 f_s + 10 f_o), written out.
  EXPECT_NEAR(v.y(), 0.0 + 0.1 * (0.8 + 2.1 * -0.19687674932901936 + 10.0 * -0.22313016014842987),
              1e-15);
}

TEST(SocialForce, TwoAgentsWithTunedParametersMatchIrsim) {
  const TwoAgents s;
  BehaviorModel::Sfm p = defaults();
  p.safety_radius = 0.25;
  p.lambda_importance = 1.0;
  p.gamma = 0.5;
  p.n_angular = 1.5;
  p.n_velocity = 2.5;
  const sfm::Forces f = sfm::forces(s.a, s.n, s.wall, p);
  EXPECT_DOUBLE_EQ(f.social.x(), -0.21619483528714303);
  EXPECT_DOUBLE_EQ(f.social.y(), -0.3254778266277852);
  const Eigen::Vector2d v = sfm::next_velocity(s.a, s.n, s.wall, p, 0.1);
  EXPECT_DOUBLE_EQ(v.x(), 0.9945990845896999);
  EXPECT_DOUBLE_EQ(v.y(), -0.21148050374026478);
}

TEST(SocialForce, SpeedIsCappedAtVmax) {
  sfm::Agent a;
  a.desired_velocity = {100.0, 0.0};
  const Eigen::Vector2d v = sfm::next_velocity(a, {}, {}, defaults(), 0.1);
  EXPECT_DOUBLE_EQ(v.norm(), 1.5);
  EXPECT_DOUBLE_EQ(v.y(), 0.0);
}

TEST(SfmBehavior, OmniRobotAloneAcceleratesTowardsItsGoal) {
  // From rest, desired vmax = 1 along +x: v = dt (v0 - 0) / tau = 0.1 * 1 / 0.5 = 0.2 m/s.
  World w = make_world(R"(
robot:
  - kinematics: {name: omni}
    state: [0, 0, 0]
    goal: [5, 0, 0]
    vel_max: [2, 2]
    vel_min: [-2, -2]
    behavior: {name: sfm, vmax: 1.0}
)");
  w.step();
  EXPECT_DOUBLE_EQ(w.object(0).velocity[0], 0.2);
  EXPECT_DOUBLE_EQ(w.object(0).velocity[1], 0.0);
  EXPECT_DOUBLE_EQ(w.object(0).state[0], 0.02);
}

TEST(SfmBehavior, HeadOnDiffRobotsPassEachOther) {
  // IR-SIM's sfm_head_on world, less the walls: the 1 mm offset decides the side.
  World w = make_world(R"(
world: {width: 14, height: 8, offset: [-7, -4], collision_mode: unobstructed}
robot:
  - kinematics: {name: diff}
    shape: {name: circle, radius: 0.3}
    state: [-6, 0, 0]
    goal: [6, 0, 0]
    behavior: {name: sfm, vmax: 1.0, force_factor_social: 5.4, gamma: 0.5, safety_radius: 0.05}
    vel_min: [-1.5, -3]
    vel_max: [1.5, 3]
    goal_threshold: 0.2
  - kinematics: {name: diff}
    shape: {name: circle, radius: 0.3}
    state: [6, 0.001, 3.14]
    goal: [-6, 0.001, 3.14]
    behavior: {name: sfm, vmax: 1.0, force_factor_social: 5.4, gamma: 0.5, safety_radius: 0.05}
    vel_min: [-1.5, -3]
    vel_max: [1.5, 3]
    goal_threshold: 0.2
)");
  double closest = 1e9;
  for (int k = 0; k < 200 && !w.done(); ++k) {
    w.step();
    const double dx = w.object(0).state[0] - w.object(1).state[0];
    const double dy = w.object(0).state[1] - w.object(1).state[1];
    closest = std::min(closest, std::hypot(dx, dy));
  }
  EXPECT_TRUE(w.done());
  EXPECT_GT(closest, 0.6);  // never touching (radii 0.3 + 0.3)
}

}  // namespace
}  // namespace ubot
