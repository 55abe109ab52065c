#pragma once
// IR-SIM's behaviours: the velocity an object wants this step, before the world clips it to
// the object's velocity and acceleration limits.
#include <Eigen/Core>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "ubot/config/world_model.h"
#include "ubot/world/social_force.h"

namespace ubot {
class World;
}

namespace ubot::detail {

// Velocity bounds for this step: the configured limits narrowed by the acceleration limit
// around the previous velocity.
struct VelocityRange {
  Eigen::Vector2d min;
  Eigen::Vector2d max;
};

// What a per-object behaviour reads of the world, which decides how the world may step it beside
// other objects (World::step_in_parallel).
enum class BehaviorReach {
  kSelf,       // its own state and goals only: any order, any thread (dash)
  kNeighbors,  // objects within its neighbor_threshold, through the RVO grid: in waves (rvo)
  kAnything,   // anything (a Python one holds the GIL too): sequentially (sfm, registered ones)
};

// A per-object behaviour as the world runs it, built in or registered (ubot::register_behavior):
// the velocity it wants this step, in its kinematics frame, before the world clips it to `range`.
struct BehaviorEntry {
  std::function<Eigen::Vector2d(const World& world, int id, const VelocityRange& range)> velocity;
  // omni_angular's third component (a yaw rate, before the world's clip); null: none.
  double (*yaw_rate)(const World& world, int id) = nullptr;
  BehaviorReach reach = BehaviorReach::kAnything;
};

// The entry registered for (kinematics, name), or null. Entries are never removed: a pointer
// stays valid as long as the program runs (behaviors/group_behavior.cpp).
const BehaviorEntry* find_behavior(KinematicsKind kinematics, const std::string& name);

// `dash`: straight at the current goal (irsim/lib/behavior/behavior_methods.py).
Eigen::Vector2d dash_velocity(const World& world, int id, const VelocityRange& range);
// omni_angular's `dash` yaw rate: turn towards the goal, and at it to the goal's heading, slowing
// so that it stops within angle_tolerance (IR-SIM's OmniAngularDash). Before the world's clip.
double dash_yaw_rate(const World& world, int id);
// `rvo` / `vo` / `hrvo`: reciprocal velocity obstacles (irsim/lib/algorithm/rvo.py).
Eigen::Vector2d rvo_velocity(const World& world, int id);
// `sfm`: the social force model (behaviors/sfm_behavior.cpp).
Eigen::Vector2d sfm_velocity(const World& world, int id, const VelocityRange& range);

// IR-SIM's get_desired_omni_vel: speed_x cos, speed_y sin of the goal bearing while the goal is
// farther than 0.1 m (IR-SIM's fixed tolerance), else (or without a goal) zero. The bounds are
// 2.12.0's _desired_speed_bounds: (vel_max[0], vel_max[0]) for diff and acker, whose vel_max[1] is
// a turn rate, and (vel_max[0], vel_max[1]) otherwise.
Eigen::Vector2d desired_omni_velocity(const World& world, int id);

// IR-SIM's omni_to_diff: the [linear, angular] command that follows a world velocity: turn at
// -error / guarantee_time (bounded by w_max) unless within `tolerance`, drive at the speed's
// projection on the heading (never backwards); zero at or below `mini_speed`.
Eigen::Vector2d omni_to_diff(double theta, const Eigen::Vector2d& v, double w_max,
                             double guarantee_time, double tolerance, double mini_speed = 0.02);

// A world-frame velocity as an omni robot's body-frame [forward, lateral] command (IR-SIM
// 2.12.0's vel_world2omni; up to 2.10.2 IR-SIM passed the world velocity through unrotated,
// which is only right at heading 0).
Eigen::Vector2d world_to_body(double theta, const Eigen::Vector2d& v);

// What the social force model sees besides its agents (sfm and the sfm group behaviour): every
// object of `roles` not in `excluded` (ids ascending), as IR-SIM sees it: each segment of a
// linestring a wall, any other object a neighbour at its centroid, moving at its velocity_xy.
void sfm_surroundings(const World& world, TargetRoles roles, std::span<const int> excluded,
                      std::vector<sfm::Neighbor>& neighbors, std::vector<sfm::Segment>& walls);

// True when an object of `role` is among the behaviour's `target_roles`.
bool is_target(TargetRoles roles, Role role);

}  // namespace ubot::detail
