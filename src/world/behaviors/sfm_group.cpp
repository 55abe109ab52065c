// IR-SIM 2.12.0's `sfm` group behaviour (SfmGroupBehavior and SocialForceModelBatch,
// irsim/lib/behavior/group_behavior_methods.py and irsim/lib/algorithm/social_force_model.py):
//  - every member is moved from one snapshot of the group, taken before any of them moves (the
//    per-object `sfm` lets each object see the ones stepped before it);
//  - a member's neighbours are the other members, then the outside objects of the target roles;
//    an outside linestring is a wall, any other outside object a neighbour at its centroid;
//  - the three forces are the per-object model's (social_force.h), with the desired velocity
//    the goal's, rescaled to vmax;
//  - members of a social group get the three forces of Moussaïd et al. (2010) on top:
//    coherence (towards the group's centre, ramping in beyond (size - 1) / 2 m), repulsion
//    (from members closer than the threshold or the two radii) and gaze (braking in proportion
//    to how far the rest of the group is outside the vision angle);
//  - diff members follow the velocity through omni_to_diff (the step's angular limit, the step
//    time, 0.02 rad), omni members get it in their body frame.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "../behavior.h"
#include "sfm_group.h"
#include "ubot/world/social_force.h"
#include "ubot/world/world.h"

namespace ubot::detail {
namespace {

using Vec2 = Eigen::Vector2d;

// numpy's pairwise summation of float64 (numpy/_core/src/umath/loops_utils.h.src): below 8
// values one running sum; up to 128 eight running sums combined as a tree, then the rest; above,
// the two halves (split at a multiple of 8) summed so.
double pairwise_sum(const double* a, std::size_t n) {
  if (n < 8) {
    double res = 0.0;
    for (std::size_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j];
    std::size_t i = 8;
    for (; i < n - n % 8; i += 8) {
      for (int j = 0; j < 8; ++j) r[j] += a[i + static_cast<std::size_t>(j)];
    }
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  std::size_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise_sum(a, n2) + pairwise_sum(a + n2, n - n2);
}

// What `x.sum(axis=1)` gives for one row x (IR-SIM's batch sums): numpy adds the pairwise sum of
// the whole row to the identity, 0 (checked against numpy 2.4 on 20,000 random rows).
double numpy_sum(const std::vector<double>& x) { return 0.0 + pairwise_sum(x.data(), x.size()); }

class SfmGroup final : public GroupBehavior {
 public:
  explicit SfmGroup(const SfmGroupModel& params) : p_(params) {}

  std::vector<Command> step(const World& world, std::span<const int> members) override {
    const std::size_t n = members.size();
    std::vector<sfm::Agent> agents(n);
    for (std::size_t k = 0; k < n; ++k) agents[k] = agent(world, members[k]);
    std::vector<sfm::Neighbor> outside;
    std::vector<sfm::Segment> walls;
    sfm_surroundings(world, p_.target_roles, members, outside, walls);  // members: ascending
    GroupForces group(n);
    if (!p_.social_groups.empty()) group_forces(agents, group);

    std::vector<Command> commands;
    commands.reserve(n);
    for (std::size_t k = 0; k < n; ++k) {
      const sfm::Agent& a = agents[k];
      const Vec2 desired = (a.desired_velocity - a.velocity) / p_.sfm.relaxation_time;
      // numpy's order: the three weighted terms, then each group term in turn.
      Vec2 acc = p_.sfm.force_factor_desired * desired +
                 p_.sfm.force_factor_social * social_force(agents, k, outside) +
                 p_.sfm.force_factor_obstacle * obstacle_force(a, walls);
      if (!p_.social_groups.empty()) {
        acc = acc + p_.force_factor_coherence * group.coherence[k];
        acc = acc + p_.force_factor_group_repulsion * group.repulsion[k];
        acc = acc + p_.force_factor_gaze * group.gaze[k];
      }
      commands.emplace_back(to_command(world, members[k], next_velocity(a, acc, world)));
    }
    return commands;
  }

  std::unique_ptr<GroupBehavior> clone() const override {
    return std::make_unique<SfmGroup>(*this);
  }
  void io_state(StateIo& /*s*/) override {}  // everything comes from the world each step

 private:
  // rvo_state: position, world velocity, radius_extend, and the goal's desired velocity
  // rescaled to vmax.
  sfm::Agent agent(const World& world, int id) const {
    const ObjectState& s = world.object(id);
    sfm::Agent a;
    a.position = {s.state[0], s.state[1]};
    a.velocity = world.velocity_xy(id);
    a.radius = world.radius_extend(id);
    Vec2 des = desired_omni_velocity(world, id);
    const double norm = std::hypot(des.x(), des.y());
    if (norm > 1e-9) des = p_.sfm.vmax * des / norm;
    a.desired_velocity = des;
    return a;
  }

  struct GroupForces {
    explicit GroupForces(std::size_t n)
        : coherence(n, Vec2::Zero()), repulsion(n, Vec2::Zero()), gaze(n, Vec2::Zero()) {}
    std::vector<Vec2> coherence, repulsion, gaze;  // unweighted, by member index
  };

  // The social groups' three forces (members of no group get none).
  void group_forces(const std::vector<sfm::Agent>& agents, GroupForces& out) const {
    const double vision = p_.gaze_vision_angle * std::numbers::pi / 180.0;
    for (const std::vector<int>& group : p_.social_groups) {
      const double m = static_cast<double>(group.size());
      Vec2 sum = Vec2::Zero();
      for (const int i : group) sum += agents[static_cast<std::size_t>(i)].position;
      const Vec2 com = sum / m;
      for (const int i : group) {
        const auto k = static_cast<std::size_t>(i);
        const sfm::Agent& a = agents[k];
        // Coherence: pedsim_ros's smooth form of the paper's step at (size - 1) / 2.
        const Vec2 rel = com - a.position;
        const double soft = (std::tanh(std::hypot(rel.x(), rel.y()) - (m - 1.0) / 2.0) + 1.0) / 2.0;
        out.coherence[k] = rel * soft;
        // Repulsion: the raw offset from every member closer than the threshold.
        for (const int j : group) {
          if (j == i) continue;
          const sfm::Agent& b = agents[static_cast<std::size_t>(j)];
          const Vec2 d = a.position - b.position;
          const double threshold = p_.group_repulsion_threshold.value_or(a.radius + b.radius);
          if (std::hypot(d.x(), d.y()) < threshold) out.repulsion[k] += d;
        }
        // Gaze: braking as far as the other members' centre is outside the vision angle.
        const Vec2 others = (m * com - a.position) / (m - 1.0) - a.position;
        const double speed = std::hypot(a.velocity.x(), a.velocity.y());
        const double distance = std::hypot(others.x(), others.y());
        if (speed > 1e-9 && distance > 1e-9) {
          const double cos_phi =
              (a.velocity.x() * others.x() + a.velocity.y() * others.y()) / (speed * distance);
          const double phi = std::acos(std::clamp(cos_phi, -1.0, 1.0));
          out.gaze[k] = -std::max(phi - vision, 0.0) * a.velocity;
        }
      }
    }
  }

  // The anisotropic neighbour force on member k from every other member, then every outside
  // neighbour, as SocialForceModelBatch.social_force computes it: np.hypot for the lengths, and
  // each component summed in numpy's order (numpy_sum), with 0 for a neighbour that exerts none.
  Vec2 social_force(const std::vector<sfm::Agent>& agents, std::size_t k,
                    const std::vector<sfm::Neighbor>& outside) const {
    const sfm::Agent& a = agents[k];
    const BehaviorModel::Sfm& p = p_.sfm;
    fx_.assign(agents.size() + outside.size(), 0.0);
    fy_.assign(fx_.size(), 0.0);
    for (std::size_t j = 0; j < fx_.size(); ++j) {
      if (j == k) continue;
      const bool member = j < agents.size();
      const Vec2& position = member ? agents[j].position : outside[j - agents.size()].position;
      const Vec2& velocity = member ? agents[j].velocity : outside[j - agents.size()].velocity;
      const double dx = position.x() - a.position.x(), dy = position.y() - a.position.y();
      const double dist = std::hypot(dx, dy);
      if (!(dist >= 1e-6 && dist <= p.neighbor_threshold)) continue;
      const double dhx = dx / dist, dhy = dy / dist;
      const double tx = p.lambda_importance * (a.velocity.x() - velocity.x()) + dhx;
      const double ty = p.lambda_importance * (a.velocity.y() - velocity.y()) + dhy;
      const double t_norm = std::hypot(tx, ty);
      if (!(t_norm >= 1e-9)) continue;
      const double thx = tx / t_norm, thy = ty / t_norm;
      const double b = p.gamma * t_norm;
      const double theta = std::atan2(thx * dhy - thy * dhx, thx * dhx + thy * dhy);
      const double decay = -std::max(dist - 2.0 * p.safety_radius, 0.0) / b;
      const double kv = p.n_velocity * b * theta, ka = p.n_angular * b * theta;
      const double f_v = -std::exp(decay - kv * kv);
      const double sign = theta > 0.0 ? 1.0 : (theta < 0.0 ? -1.0 : 0.0);
      const double f_a = -sign * std::exp(decay - ka * ka);
      fx_[j] = f_v * thx - f_a * thy;
      fy_[j] = f_v * thy + f_a * thx;
    }
    return {numpy_sum(fx_), numpy_sum(fy_)};
  }

  // SocialForceModelBatch.obstacle_force: every wall whose closest point is within
  // 5 sigma + radius pushes exp(-clearance / sigma) away from it; one through the centre pushes
  // along +x.
  Vec2 obstacle_force(const sfm::Agent& a, const std::vector<sfm::Segment>& walls) const {
    if (walls.empty()) return Vec2::Zero();
    const BehaviorModel::Sfm& p = p_.sfm;
    fx_.assign(walls.size(), 0.0);
    fy_.assign(walls.size(), 0.0);
    double overlaps = 0.0;
    for (std::size_t w = 0; w < walls.size(); ++w) {
      const Vec2& s0 = walls[w].a;
      const double abx = walls[w].b.x() - s0.x(), aby = walls[w].b.y() - s0.y();
      const double l2 = abx * abx + aby * aby;
      const bool degenerate = l2 < 1e-12;
      double t = ((a.position.x() - s0.x()) * abx + (a.position.y() - s0.y()) * aby) /
                 (degenerate ? 1.0 : l2);
      t = std::clamp(degenerate ? 0.0 : t, 0.0, 1.0);
      const double dx = a.position.x() - (s0.x() + t * abx);
      const double dy = a.position.y() - (s0.y() + t * aby);
      const double dist_center = std::hypot(dx, dy);
      if (!(dist_center <= 5.0 * p.sigma_obstacle + a.radius)) continue;
      if (dist_center < 1e-9) {
        overlaps += 1.0;
        continue;
      }
      const double amount = std::exp(-std::max(dist_center - a.radius, 0.0) / p.sigma_obstacle);
      const double scale = amount / dist_center;
      fx_[w] = scale * dx;
      fy_[w] = scale * dy;
    }
    return {numpy_sum(fx_) + overlaps, numpy_sum(fy_)};
  }

  Vec2 next_velocity(const sfm::Agent& a, const Vec2& acc, const World& world) const {
    Vec2 v = a.velocity + world.step_time() * acc;
    const double speed = std::hypot(v.x(), v.y());
    if (speed > p_.sfm.vmax) v *= p_.sfm.vmax / speed;
    return v;
  }

  static Vec2 to_command(const World& world, int id, const Vec2& v) {
    const ObjectModel& m = world.object_model(id);
    const ObjectState& s = world.object(id);
    if (m.kinematics.kind == KinematicsKind::kOmni) return world_to_body(s.state[2], v);
    // The step's angular limit, as the world will clip (IR-SIM's get_vel_range).
    const double w_max = std::min(m.vel_max[1], s.velocity[1] + m.acce[1] * world.step_time());
    return omni_to_diff(s.state[2], v, w_max, world.step_time(), 0.02);
  }

  SfmGroupModel p_;
  mutable std::vector<double> fx_, fy_;  // one step's per-neighbour terms (scratch)
};

}  // namespace

std::unique_ptr<GroupBehavior> make_sfm_group(const World&, std::span<const int>,
                                              const GroupBehaviorModel& config) {
  return std::make_unique<SfmGroup>(config.sfm);
}

}  // namespace ubot::detail
