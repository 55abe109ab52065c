// IR-SIM's `sfm` behaviour (beh_diff_sfm / beh_omni_sfm and SFMVelocity in
// irsim/lib/behavior/behavior_methods.py): what the social force model sees of the world and
// how its world velocity becomes a command.
//  - Every other object (of the target roles) is either a wall (each segment of a linestring)
//    or a neighbour at its centroid; unobstructed and static objects count too, as in IR-SIM.
//  - The desired velocity is desired_omni_velocity rescaled to length vmax (for diff robots its
//    direction is therefore skewed by vel_max's two components, as IR-SIM's is).
//  - diff: omni_to_diff with the step's angular limit, the step time and a 0.02 rad deadband;
//    omni: the world velocity in the body frame.
#include <algorithm>
#include <cmath>
#include <vector>

#include "../behavior.h"
#include "ubot/world/social_force.h"
#include "ubot/world/world.h"

namespace ubot::detail {
namespace {

sfm::Agent ego_agent(const World& world, int id, double vmax) {
  const ObjectState& s = world.object(id);
  sfm::Agent a;
  a.position = {s.state[0], s.state[1]};
  a.velocity = world.velocity_xy(id);
  a.radius = world.radius_extend(id);
  Eigen::Vector2d des = desired_omni_velocity(world, id);
  const double norm = std::pow(des.x() * des.x() + des.y() * des.y(), 0.5);
  if (norm > 1e-9) des = {vmax * des.x() / norm, vmax * des.y() / norm};
  a.desired_velocity = des;
  return a;
}

}  // namespace

void sfm_surroundings(const World& world, TargetRoles roles, std::span<const int> excluded,
                      std::vector<sfm::Neighbor>& neighbors, std::vector<sfm::Segment>& walls) {
  for (int other = 0; other < static_cast<int>(world.size()); ++other) {
    if (std::binary_search(excluded.begin(), excluded.end(), other)) continue;
    if (!is_target(roles, world.object_model(other).role)) continue;
    const WorldShape& shape = world.shape(other);
    if (!shape.circle && !shape.closed) {
      for (std::size_t k = 0; k + 1 < shape.vertices.size(); ++k) {
        walls.push_back({shape.vertices[k], shape.vertices[k + 1]});
      }
      continue;
    }
    neighbors.push_back({centroid(shape), world.velocity_xy(other)});
  }
}

Eigen::Vector2d sfm_velocity(const World& world, int id, const VelocityRange& range) {
  const ObjectModel& m = world.object_model(id);
  const ObjectState& s = world.object(id);
  if (s.goals.empty()) return Eigen::Vector2d::Zero();
  const BehaviorModel::Sfm& p = m.behavior.sfm;
  std::vector<sfm::Neighbor> neighbors;
  std::vector<sfm::Segment> walls;
  sfm_surroundings(world, m.behavior.target_roles, std::span(&id, 1), neighbors, walls);
  const Eigen::Vector2d v =
      sfm::next_velocity(ego_agent(world, id, p.vmax), neighbors, walls, p, world.step_time());
  if (m.kinematics.kind == KinematicsKind::kOmni) return world_to_body(s.state[2], v);
  return omni_to_diff(s.state[2], v, range.max[1], world.step_time(), 0.02);
}

}  // namespace ubot::detail
