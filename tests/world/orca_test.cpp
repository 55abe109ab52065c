// ORCA (ubot/world/orca.h) on cases with known answers: a lone agent, the half-plane of two
// agents at rest, an infeasible program, a head-on swap and a circle of agents.
#include "ubot/world/orca.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

namespace ubot {
namespace {

using Vec2 = Eigen::Vector2d;
constexpr double kDt = 0.1;

orca::Agent agent_at(const Vec2& p, double radius = 0.5, double max_speed = 1.0) {
  orca::Agent a;
  a.position = p;
  a.radius = radius;
  a.max_speed = max_speed;
  return a;
}

// RVO2's doStep with each agent's preferred velocity towards its goal, as RVO2's circle
// example sets it (unit speed, or the goal vector itself within 1 m), positions advanced by the
// new velocities. Returns the smallest surface gap (centre distance minus the radii) seen over
// `steps` steps and the largest speed.
struct RunSummary {
  double smallest_gap = 1e9;
  double largest_speed = 0.0;
};
RunSummary simulate(std::vector<orca::Agent>& agents, const std::vector<Vec2>& goals, int steps,
                    double jitter = 0.0) {
  RunSummary run;
  for (int k = 0; k < steps; ++k) {
    for (std::size_t i = 0; i < agents.size(); ++i) {
      const Vec2 to_goal = goals[i] - agents[i].position;
      const double d = to_goal.norm();
      agents[i].pref_velocity = d > 1.0 ? Vec2(to_goal / d) : to_goal;
      const double phi = 2.399963 * static_cast<double>(i + agents.size() * k);  // golden angle
      agents[i].pref_velocity += jitter * Vec2(std::cos(phi), std::sin(phi));
    }
    const std::vector<Vec2> v = orca::new_velocities(agents, kDt);
    for (std::size_t i = 0; i < agents.size(); ++i) {
      agents[i].velocity = v[i];
      agents[i].position += v[i] * kDt;
      run.largest_speed = std::max(run.largest_speed, v[i].norm());
    }
    for (std::size_t i = 0; i < agents.size(); ++i) {
      for (std::size_t j = i + 1; j < agents.size(); ++j) {
        const double gap =
            (agents[i].position - agents[j].position).norm() - agents[i].radius - agents[j].radius;
        run.smallest_gap = std::min(run.smallest_gap, gap);
      }
    }
  }
  return run;
}

TEST(Orca, LoneAgentTakesItsPreferredVelocity) {
  std::vector<orca::Agent> agents{agent_at({0, 0}, 0.5, 2.0)};
  agents[0].pref_velocity = {0.6, -0.8};
  EXPECT_EQ(orca::new_velocities(agents, kDt)[0], Vec2(0.6, -0.8));
  // Faster than maxSpeed: the same direction at maxSpeed.
  agents[0].pref_velocity = {3.0, 4.0};
  const Vec2 v = orca::new_velocities(agents, kDt)[0];
  EXPECT_NEAR(v.x(), 1.2, 1e-15);
  EXPECT_NEAR(v.y(), 1.6, 1e-15);
}

TEST(Orca, AgentsBeyondNeighborDistAreIgnored) {
  std::vector<orca::Agent> agents{agent_at({0, 0}), agent_at({15, 0})};
  agents[0].pref_velocity = {1.0, 0.0};
  agents[1].pref_velocity = {-1.0, 0.0};
  EXPECT_TRUE(orca::neighbors(agents, 0).empty());  // 15 is not < neighborDist 15
  EXPECT_EQ(orca::new_velocities(agents, kDt)[0], Vec2(1.0, 0.0));
  agents[0].neighbor_dist = 15.5;
  EXPECT_EQ(orca::neighbors(agents, 0), std::vector<int>{1});
}

TEST(Orca, NeighboursAreTheNearestMaxNeighbors) {
  std::vector<orca::Agent> agents{agent_at({0, 0}), agent_at({3, 0}), agent_at({1, 0}),
                                  agent_at({0, -2}), agent_at({-1, 0})};
  agents[0].max_neighbors = 3;
  // Nearest first; the tie at distance 1 keeps the lower index first.
  EXPECT_EQ(orca::neighbors(agents, 0), (std::vector<int>{2, 4, 3}));
  agents[0].max_neighbors = 0;
  EXPECT_TRUE(orca::neighbors(agents, 0).empty());
}

TEST(Orca, HalfPlaneOfTwoAgentsAtRestIsAtHalfTheCutOffCircle) {
  // At rest, B at distance d along x, combined radius r, horizon tau: the velocity obstacle's
  // nearest boundary point to v = 0 is on the cut-off circle, (d - r) / tau along -x away from
  // it; A takes half, so the line passes through ((d - r) / (2 tau), 0), pointing along +y
  // (permitted: its left, x below that).
  const orca::Agent a = agent_at({0, 0}), b = agent_at({4, 0});
  const orca::Line line = *orca::orca_line(a, b, kDt);
  const double tau = a.time_horizon;
  EXPECT_DOUBLE_EQ(line.point.x(), (4.0 - 1.0) / (2.0 * tau));
  EXPECT_DOUBLE_EQ(line.point.y(), 0.0);
  EXPECT_DOUBLE_EQ(line.direction.x(), 0.0);
  EXPECT_DOUBLE_EQ(line.direction.y(), 1.0);
}

TEST(Orca, OverlappingAgentsSeparateWithinOneStep) {
  // 0.6 apart with combined radius 1: the line asks for (1 - 0.6) / dt of separation, half each.
  const orca::Line line = *orca::orca_line(agent_at({0, 0}), agent_at({0.6, 0}), kDt);
  EXPECT_NEAR(line.point.x(), -(1.0 - 0.6) / kDt / 2.0, 1e-12);
  EXPECT_NEAR(line.direction.y(), 1.0, 1e-15);
}

TEST(Orca, CoincidentAgentsAreLeftUnconstrainedRatherThanNaN) {
  std::vector<orca::Agent> agents{agent_at({1, 1}), agent_at({1, 1})};
  agents[0].pref_velocity = {0.5, 0.0};
  EXPECT_FALSE(orca::orca_line(agents[0], agents[1], kDt).has_value());
  EXPECT_EQ(orca::new_velocities(agents, kDt)[0], Eigen::Vector2d(0.5, 0.0));
}

TEST(Orca, InfeasibleLinesFallBackToTheLeastViolation) {
  // x <= 0.5 (left of the upward line) and x >= 1.5 (left of the downward one) cannot both
  // hold: the 3D program splits the violation, x = 1.
  const std::vector<orca::Line> lines{{{0.5, 0.0}, {0.0, 1.0}}, {{1.5, 0.0}, {0.0, -1.0}}};
  const Vec2 v = orca::solve(lines, 0, 2.0, {2.0, 0.0});
  EXPECT_NEAR(v.x(), 1.0, 1e-12);
  EXPECT_LE(v.norm(), 2.0 + 1e-12);
  // Feasible: the point of the permitted strip nearest the preferred velocity.
  const std::vector<orca::Line> strip{{{1.5, 0.0}, {0.0, 1.0}}, {{0.5, 0.0}, {0.0, -1.0}}};
  EXPECT_EQ(orca::solve(strip, 0, 2.0, {2.0, 0.3}), Vec2(1.5, 0.3));
}

TEST(Orca, HeadOnSwapIsCollisionFreeAndSymmetric) {
  // Exactly collinear, ORCA deadlocks (every half-plane is perpendicular to the line of
  // centres, so nothing turns the agents aside); 1 mm off the line, they pass. The setup is
  // point-symmetric about c = (0, 0.0005).
  std::vector<orca::Agent> agents{agent_at({-5, 0}), agent_at({5, 0.001})};
  const std::vector<Vec2> goals{{5, 0}, {-5, 0.001}};
  const Vec2 c(0.0, 0.0005);
  double swerve = 0.0;
  for (int k = 0; k < 300; ++k) {
    const RunSummary run = simulate(agents, goals, 1);
    ASSERT_GE(run.smallest_gap, -1e-9) << k;
    swerve = std::max(swerve, std::abs(agents[0].position.y() - c.y()));
    // Point symmetry: ORCA's computation for B is A's with every vector negated.
    ASSERT_NEAR(((agents[0].position - c) + (agents[1].position - c)).norm(), 0.0, 1e-12) << k;
  }
  EXPECT_NEAR((agents[0].position - goals[0]).norm(), 0.0, 1e-9);
  EXPECT_NEAR((agents[1].position - goals[1]).norm(), 0.0, 1e-9);
  // They passed side by side, each off the line by about half the combined radius.
  EXPECT_GT(swerve, 0.4);
}

TEST(Orca, AgentsOnACircleSwapWithoutCollisionAndWithinMaxSpeed) {
  // Antipodal goals, as in RVO2's circle example. Perfect symmetry can deadlock ORCA (RVO2 too:
  // a ring of agents each blocked by its neighbours), so, as that example once did, each
  // preferred velocity gets a 1e-4 m/s perturbation every step.
  const int n = 10;
  const double radius = 15.0;
  std::vector<orca::Agent> agents;
  std::vector<Vec2> goals;
  for (int i = 0; i < n; ++i) {
    const double a = 2.0 * std::numbers::pi * i / n;
    agents.push_back(agent_at(radius * Vec2(std::cos(a), std::sin(a)), 0.5, 2.0));
    agents.back().time_horizon = 10.0;
    goals.push_back(-agents.back().position);
  }
  const RunSummary run = simulate(agents, goals, 3000, 1e-4);
  EXPECT_GE(run.smallest_gap, 0.0);
  EXPECT_LE(run.largest_speed, 2.0 * (1.0 + 1e-12));
  for (int i = 0; i < n; ++i) {
    // Arrived: within the 1e-4 m/s perturbation's reach, 1e-5 m.
    EXPECT_LT((agents[i].position - goals[i]).norm(), 1e-4) << i;
  }
}

}  // namespace
}  // namespace ubot
