// IR-SIM 2.12.0's `orca` group behaviour (OrcaGroupBehavior), which drives pyrvo (RVO2) once
// per step:
//  - one agent per member, radius = the member's radius + safe_radius, maxSpeed = the member's
//    realizable speed (diff: vel_max[0]; omni: the smaller component), lowered to the key;
//  - each step every agent's position is set from its member, its preferred velocity from the
//    goal: the agent's speed cap along the goal bearing (omni: along desired_omni_velocity;
//    diff: towards the goal, without a tolerance), then one RVO2 step. The velocity an agent
//    carries into the next step is the one ORCA chose, not the member's clipped one.
//  - diff members follow the chosen world velocity through omni_to_diff (vel_max[1], the step
//    time, 0.1 rad); omni members get it rotated into their body frame (vel_world2omni), so
//    they move along it at any heading, as IR-SIM 2.12.0 does (up to 2.10.2 it handed the world
//    velocity over unrotated, which only agrees at heading 0).
#include "orca_group.h"

#include <algorithm>
#include <cmath>

#include "../behavior.h"
#include "ubot/core/angles.h"
#include "ubot/core/state_io.h"
#include "ubot/world/orca.h"
#include "ubot/world/world.h"

namespace ubot::detail {
namespace {

class OrcaGroup final : public GroupBehavior {
 public:
  OrcaGroup(std::span<const int> members, const OrcaModel& params)
      : params_(params), velocities_(members.size(), Eigen::Vector2d::Zero()) {}

  std::vector<Command> step(const World& world, std::span<const int> members) override {
    if (velocities_.size() != members.size()) velocities_.assign(members.size(), {0.0, 0.0});
    std::vector<orca::Agent> agents;
    agents.reserve(members.size());
    for (std::size_t k = 0; k < members.size(); ++k) {
      agents.push_back(agent(world, members[k], velocities_[k]));
    }
    velocities_ = orca::new_velocities(agents, world.step_time());
    std::vector<Command> commands;
    commands.reserve(members.size());
    for (std::size_t k = 0; k < members.size(); ++k) {
      commands.emplace_back(to_command(world, members[k], velocities_[k]));
    }
    return commands;
  }

  std::unique_ptr<GroupBehavior> clone() const override {
    return std::make_unique<OrcaGroup>(*this);
  }

  void io_state(StateIo& s) override { s.values(velocities_); }

 private:
  // IR-SIM 2.12.0's OrcaGroupBehavior._realizable_speed: the speed a member holds in every
  // direction: the smaller component limit for omni and omni_angular (their norm, 2.10.2's cap,
  // is reachable only on the diagonal and the plan was clipped off ORCA's direction), the linear
  // limit otherwise.
  static double realizable_speed(const ObjectModel& m) {
    const std::vector<double>& v = m.vel_max;
    const KinematicsKind kind = m.kinematics.kind;
    return kind == KinematicsKind::kOmni || kind == KinematicsKind::kOmniAngular
               ? std::min(v[0], v[1])
               : v[0];
  }

  // _agent_speed: the realizable speed, lowered to maxSpeed when given (2.10.2 took maxSpeed as
  // it was).
  double agent_speed(const ObjectModel& m) const {
    const double realizable = realizable_speed(m);
    return params_.max_speed ? std::min(*params_.max_speed, realizable) : realizable;
  }

  // _pref_velocity: the agent's speed cap along the goal bearing (diff) or along the desired omni
  // velocity (zero below 1e-9). 2.10.2 clipped the omni one to 1 m/s, holding members at 1 m/s.
  Eigen::Vector2d pref_velocity(const World& world, int id) const {
    const ObjectModel& m = world.object_model(id);
    const ObjectState& s = world.object(id);
    const double speed = agent_speed(m);
    if (m.kinematics.kind == KinematicsKind::kDiff) {
      if (s.goals.empty()) return Eigen::Vector2d::Zero();
      const double dx = s.goals.front()[0] - s.state[0], dy = s.goals.front()[1] - s.state[1];
      const double bearing = wrap_to_pi(std::atan2(dy, dx));
      return speed * Eigen::Vector2d(std::cos(bearing), std::sin(bearing));
    }
    const Eigen::Vector2d v = desired_omni_velocity(world, id);
    const double norm = std::hypot(v.x(), v.y());
    if (norm < 1e-9) return Eigen::Vector2d::Zero();
    return {speed * v.x() / norm, speed * v.y() / norm};
  }

  orca::Agent agent(const World& world, int id, const Eigen::Vector2d& velocity) const {
    const ObjectModel& m = world.object_model(id);
    const ObjectState& s = world.object(id);
    orca::Agent a;
    a.position = {s.state[0], s.state[1]};
    a.velocity = velocity;
    a.pref_velocity = pref_velocity(world, id);
    a.radius = m.shape.bounding_radius() + params_.safe_radius;
    a.max_speed = agent_speed(m);
    a.neighbor_dist = params_.neighbor_dist;
    a.max_neighbors = params_.max_neighbors;
    a.time_horizon = params_.time_horizon;
    return a;
  }

  static Eigen::Vector2d to_command(const World& world, int id, const Eigen::Vector2d& v) {
    const ObjectModel& m = world.object_model(id);
    const double theta = world.object(id).state[2];
    if (m.kinematics.kind == KinematicsKind::kDiff) {
      return omni_to_diff(theta, v, m.vel_max[1], world.step_time(), 0.1);
    }
    return world_to_body(theta, v);
  }

  OrcaModel params_;
  std::vector<Eigen::Vector2d> velocities_;  // each agent's velocity in RVO2, last chosen
};

}  // namespace

std::unique_ptr<GroupBehavior> make_orca_group(const World&, std::span<const int> members,
                                               const GroupBehaviorModel& config) {
  return std::make_unique<OrcaGroup>(members, config.orca);
}

}  // namespace ubot::detail
