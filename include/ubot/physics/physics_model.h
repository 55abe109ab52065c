#pragma once
// An object's physical properties for `collision_mode: contact` (docs/contact.md), read from its
// YAML keys. Declared beside the physics component that uses them; world_model.h holds one per
// object. Depends on nothing but the standard library.
#include <optional>

namespace ubot {

struct PhysicsModel {
  // kg. An obstacle with a mass is a dynamic body (pushed, it moves); one without is an
  // immovable fixture (static, or kinematic when it has kinematics). A robot is always a driven
  // dynamic body; without `mass` it weighs kDefaultRobotMass.
  std::optional<double> mass;
  double friction = 0.5;     // Coulomb coefficient between two bodies (Box2D mixes sqrt(a b))
  double restitution = 0.0;  // bounce (Box2D keeps the larger of the two)
  // 1/s: how fast a free body's speed decays on the floor (the floor friction of a top-down
  // world), linear and angular. A driven body's controller holds its own speed instead.
  double damping = 2.0;
  double angular_damping = 2.0;
  // N: the largest force a driven body's velocity controller applies; unset: kDriveAcceleration
  // times its mass.
  std::optional<double> drive_force;

  static constexpr double kDefaultRobotMass = 10.0;   // kg
  static constexpr double kDriveAcceleration = 10.0;  // m/s², about the traction of rubber, 1 g
};

}  // namespace ubot
