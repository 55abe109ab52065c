#pragma once
// IR-SIM's behaviours: the velocity an object wants this step, before the world clips it to
// the object's velocity and acceleration limits.
#include <Eigen/Core>

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

// `dash`: straight at the current goal (irsim/lib/behavior/behavior_methods.py).
Eigen::Vector2d dash_velocity(const World& world, int id, const VelocityRange& range);
// omni_angular's `dash` yaw rate: turn towards the goal, and at it to the goal's heading, slowing
// so that it stops within angle_tolerance (IR-SIM's OmniAngularDash). Before the world's clip.
double dash_yaw_rate(const World& world, int id);
// `rvo` / `vo` / `hrvo`: reciprocal velocity obstacles (irsim/lib/algorithm/rvo.py).
Eigen::Vector2d rvo_velocity(const World& world, int id);

}  // namespace ubot::detail
