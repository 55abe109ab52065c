#pragma once
// ORCA, optimal reciprocal collision avoidance (J. van den Berg, S. J. Guy, M. Lin, D. Manocha,
// "Reciprocal n-body collision avoidance", Robotics Research, 2011), as RVO2 computes one
// simulation step: each agent's neighbours (the maxNeighbors nearest within neighborDist), one
// half-plane of permitted velocities per neighbour (its share, half, of the avoidance), then the
// permitted velocity nearest the preferred one inside the maxSpeed disc (a 2D linear program),
// or, when the half-planes leave nothing, the velocity that violates them least (the 3D
// program). Double precision throughout. Agents only: IR-SIM gives pyrvo no obstacles, so
// obstacle half-planes (timeHorizonObst) are not built; the linear programs already keep any
// leading "hard" lines, as RVO2 keeps its obstacle lines, should they be added.
#include <optional>
#include <span>
#include <vector>

#include <Eigen/Core>

namespace ubot::orca {

struct Agent {
  Eigen::Vector2d position = Eigen::Vector2d::Zero();
  Eigen::Vector2d velocity = Eigen::Vector2d::Zero();  // the agent's velocity last step
  Eigen::Vector2d pref_velocity = Eigen::Vector2d::Zero();
  double radius = 0.5;
  double max_speed = 2.0;
  double neighbor_dist = 15.0;
  int max_neighbors = 10;
  double time_horizon = 20.0;
};

// A directed line; the permitted half-plane is on its left.
struct Line {
  Eigen::Vector2d point;
  Eigen::Vector2d direction;  // unit length
};

// Indices of agent i's neighbours, nearest first (ties: lower index first), as RVO2 keeps them:
// at most max_neighbors, each strictly closer than neighbor_dist.
std::vector<int> neighbors(std::span<const Agent> agents, int i);

// ORCA half-plane of agent `a` against neighbour `b` for a step of `time_step` seconds; none
// for two agents at the same place with the same velocity (no direction to part in).
std::optional<Line> orca_line(const Agent& a, const Agent& b, double time_step);

// The velocity nearest `preferred` inside the disc of radius `max_speed` and on the left of
// every line; when no velocity is, the one minimising the largest violation of the lines after
// the first `hard_lines` (which stay satisfied). RVO2's linearProgram2, then linearProgram3.
Eigen::Vector2d solve(std::span<const Line> lines, std::size_t hard_lines, double max_speed,
                      const Eigen::Vector2d& preferred);

// Every agent's new velocity for one step (RVO2's doStep without moving the agents).
std::vector<Eigen::Vector2d> new_velocities(std::span<const Agent> agents, double time_step);

}  // namespace ubot::orca
