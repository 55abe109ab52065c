// collision_mode: contact (SPEC §9, docs/contact.md): after the kinematic step, the contact
// solver (physics/) moves every body from its pose before the step, each driven toward the pose
// its kinematics reached, and writes every object's contact sensor.
#include <cmath>

#include "ubot/core/angles.h"
#include "ubot/physics/contact_solver.h"
#include "ubot/world/world.h"

namespace ubot {
namespace {

double wrap_angle(double a) { return std::remainder(a, 2.0 * kPi); }

// Robots are driven dynamic bodies; an obstacle with a mass is free when it has no kinematics
// and driven otherwise; one without a mass is an immovable fixture that may still move.
physics::BodyKind body_kind(const ObjectModel& m, bool scripted) {
  // A line string has no area to give a mass (the loader refuses `mass` on one), and Box2D
  // finds no contact between two segments: a moving one follows its motion exactly.
  if (scripted || (!m.shape.closed() && !m.is_static)) return physics::BodyKind::kKinematic;
  if (m.role == Role::kRobot) {
    return m.is_static ? physics::BodyKind::kStatic : physics::BodyKind::kDriven;
  }
  if (m.physics.mass) return m.is_static ? physics::BodyKind::kFree : physics::BodyKind::kDriven;
  return m.is_static ? physics::BodyKind::kStatic : physics::BodyKind::kKinematic;
}

double body_mass(const ObjectModel& m) {
  return m.physics.mass.value_or(PhysicsModel::kDefaultRobotMass);
}

bool is_dynamic(physics::BodyKind kind) {
  return kind == physics::BodyKind::kFree || kind == physics::BodyKind::kDriven;
}

}  // namespace

const ContactReading& World::contact(int id) const {
  static const ContactReading kNone;
  return contact_mode() ? state_.contacts[id] : kNone;
}

void World::init_bodies() {
  state_.bodies.resize(size());
  state_.contacts.resize(size());
  for (std::size_t i = 0; i < size(); ++i) {
    const ObjectModel& m = model_->objects[i];
    const physics::BodyKind kind = body_kind(m, trajectories_[i].has_value());
    state_.bodies[i].dynamic = is_dynamic(kind);
    // A free body's `velocity` is its initial world-frame velocity [vx, vy].
    if (kind == physics::BodyKind::kFree)
      state_.bodies[i].velocity = {m.velocity[0], m.velocity[1]};
  }
}

void World::solve_contacts(const std::vector<Eigen::Vector3d>& before) {
  const double dt = model_->world.step_time;
  std::vector<physics::Body> bodies;
  for (int id = 0; id < static_cast<int>(size()); ++id) {
    const ObjectModel& m = model_->objects[id];
    if (m.unobstructed) continue;  // collides with nothing: keeps its kinematic pose
    const std::vector<double>& after = state_.objects[id].state;
    physics::Body b;
    b.id = id;
    b.kind = body_kind(m, trajectories_[id].has_value());
    b.shape = &m.shape;
    b.props = &m.physics;
    b.pose = before[id];
    b.velocity = state_.bodies[id].velocity;
    b.spin = state_.bodies[id].spin;
    b.target_velocity = (Eigen::Vector2d(after[0], after[1]) - before[id].head<2>()) / dt;
    b.target_spin = wrap_angle(after[2] - before[id].z()) / dt;
    b.mass = body_mass(m);
    b.drive_force = m.physics.drive_force.value_or(PhysicsModel::kDriveAcceleration * b.mass);
    bodies.push_back(b);
  }
  const int substeps = model_->world.contact_substeps.value_or(physics::default_substeps(dt));
  const physics::StepResult result = physics::step(bodies, {.step_time = dt, .substeps = substeps});
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const physics::Body& b = bodies[i];
    BodyMotion& motion = state_.bodies[b.id];
    if (!is_dynamic(b.kind)) {  // moved exactly as its kinematics or trajectory said
      motion.velocity = b.target_velocity;
      motion.spin = b.target_spin;
      continue;
    }
    const physics::BodyResult& r = result.bodies[i];
    std::vector<double>& state = state_.objects[b.id].state;
    state[0] = r.pose.x();
    state[1] = r.pose.y();
    state[2] = wrap_angle(r.pose.z());
    motion.velocity = r.velocity;
    motion.spin = r.spin;
    // A free body has no command: what it reports (frames.jsonl "velocity") is its own motion.
    if (b.kind == physics::BodyKind::kFree) state_.objects[b.id].velocity = r.velocity;
    const Eigen::Vector3d& p0 = before[b.id];
    state_.step_motion[b.id] = StepMotion(p0.x(), p0.y(), p0.z(), state[0], state[1], state[2]);
    place_shape(model_->objects[b.id].shape, state[0], state[1], state[2], state_.shapes[b.id]);
  }
  physics::update_readings(result.contacts, step_ns_, state_.contacts);
}

}  // namespace ubot
