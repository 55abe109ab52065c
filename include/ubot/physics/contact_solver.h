#pragma once
// The contact solver of `collision_mode: contact` (docs/contact.md): one world step of rigid-body
// dynamics with Box2D 2.4, split into sub-steps. A pure function of its input: the Box2D world is
// built for the step and dropped after it, so a step depends only on the bodies' poses and
// velocities (World snapshots stay plain copies, and the same input gives the same output).
#include <span>
#include <vector>

#include <Eigen/Core>

#include "ubot/config/world_model.h"

namespace ubot::physics {

enum class BodyKind {
  kStatic,     // never moves (a wall, an obstacle without mass or kinematics)
  kKinematic,  // moves at its target velocity whatever it meets (infinite mass)
  kFree,       // dynamic, moved only by contacts (an obstacle with a mass)
  kDriven,     // dynamic, a velocity controller of bounded force tracks its target velocity
};

struct Body {
  int id = 0;  // the object id, reported in contacts
  BodyKind kind = BodyKind::kStatic;
  const ShapeModel* shape = nullptr;    // body frame; the origin is the object's state point
  const PhysicsModel* props = nullptr;  // friction, restitution, damping, drive force
  Eigen::Vector3d pose = Eigen::Vector3d::Zero();             // x, y, yaw at the step's start
  Eigen::Vector2d velocity = Eigen::Vector2d::Zero();         // world frame, at the step's start
  double spin = 0.0;                                          // yaw rate at the step's start
  Eigen::Vector2d target_velocity = Eigen::Vector2d::Zero();  // kinematic, driven
  double target_spin = 0.0;                                   // kinematic, driven
  double mass = 0.0;                                          // kg (free, driven)
  double drive_force = 0.0;                                   // N (driven)
};

// One contact of the step between two objects, seen from `a`'s side.
struct Contact {
  int a = 0, b = 0;
  Eigen::Vector2d point = Eigen::Vector2d::Zero();   // world frame, mean of the manifold points
  Eigen::Vector2d normal = Eigen::Vector2d::Zero();  // unit, from b toward a (pushes a away)
  double depth = 0.0;         // m of overlap of the two solid shapes (0 when only touching)
  double normal_force = 0.0;  // N on a along `normal`: normal impulses of the step / step time
  Eigen::Vector2d force = Eigen::Vector2d::Zero();  // N on a, normal and friction, world frame
};

struct BodyResult {
  Eigen::Vector3d pose = Eigen::Vector3d::Zero();  // x, y, yaw at the step's end
  Eigen::Vector2d velocity = Eigen::Vector2d::Zero();
  double spin = 0.0;
};

struct StepResult {
  std::vector<BodyResult> bodies;  // entry i for bodies[i]
  // Every touching pair of pieces, ordered by (min id, max id, pieces), with `a` the smaller id.
  std::vector<Contact> contacts;
};

struct StepSettings {
  double step_time = 0.1;  // s
  int substeps = 1;        // solver steps of step_time / substeps each
  int velocity_iterations = 8;
  int position_iterations = 3;
};

StepResult step(std::span<const Body> bodies, const StepSettings& settings);

// Sub-steps of a world step when the world does not set `contact_substeps`: enough that none is
// longer than 1/60 s, Box2D's tested step.
int default_substeps(double step_time);

// Convex pieces (counter-clockwise) of a simple polygon: itself when it is convex with at most
// Box2D's 8 vertices, else the triangles of an ear-clipping triangulation (slivers dropped).
std::vector<std::vector<Eigen::Vector2d>> convex_pieces(const std::vector<Eigen::Vector2d>& poly);

}  // namespace ubot::physics

#include "ubot/physics/contact_reading.h"

namespace ubot::physics {

// Writes every object's contact sensor after a step of `step` ns from the step's contacts
// (readings[id] for object id): partners, reports from both sides, net force, and the timers
// and episode edges (started / ended) from the previous reading.
void update_readings(std::span<const Contact> contacts, Nanos step,
                     std::vector<ContactReading>& readings);

}  // namespace ubot::physics
