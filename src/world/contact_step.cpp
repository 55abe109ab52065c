// collision_mode: contact (SPEC §9, docs/contact.md): after the kinematic step, the contact
// solver (physics/) moves every body from its pose before the step, each driven toward the pose
// its kinematics reached, and writes every object's contact sensor.
#include <algorithm>
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

// The grid's fixtures are solid walls with the default friction and restitution.
const PhysicsModel kGridPhysics;

// A rectangle of cells as a shape centred on its own centre (Box2D's polygons are built in the
// body frame, and a static body far from its shape would only cost float precision).
ShapeModel rectangle_shape(const Eigen::Vector2d& lo, const Eigen::Vector2d& hi) {
  ShapeModel shape;
  shape.kind = ShapeKind::kRectangle;
  shape.length = hi.x() - lo.x();
  shape.width = hi.y() - lo.y();
  const double x = shape.length / 2, y = shape.width / 2;
  shape.vertices = {{-x, -y}, {x, -y}, {x, y}, {-x, y}};
  return shape;
}

// The box a moving body can reach in the step: its box at the kinematic pose, grown by the
// farthest any body travels (so a body pushed by another is covered too) and 0.1 m of margin.
Aabb reach_box(const Aabb& box, double travel) {
  const double grow = travel + 0.1;
  return {box.min.array() - grow, box.max.array() + grow};
}

}  // namespace

const ContactReading& World::contact(int id) const {
  static const ContactReading kNone;
  return contact_mode() ? state_.contacts[id] : kNone;
}

void World::init_bodies() {
  if (model_->grid) {
    for (const CellRect& r : model_->grid->merged_rectangles()) {
      const Eigen::Vector2d lo = model_->grid->corner_min(r), hi = model_->grid->corner_max(r);
      grid_fixtures_.push_back({rectangle_shape(lo, hi), {lo, hi}});
    }
  }
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

// Only the grid rectangles a moving body may reach this step become bodies: a large map has
// thousands, and the Box2D world is built afresh each step.
void World::add_grid_fixtures(std::vector<physics::Body>& bodies) const {
  if (grid_fixtures_.empty()) return;
  const double dt = model_->world.step_time;
  double travel = 0.0;
  std::vector<Aabb> moving;
  for (const physics::Body& b : bodies) {
    if (b.kind == physics::BodyKind::kStatic) continue;
    travel = std::max({travel, b.velocity.norm() * dt, b.target_velocity.norm() * dt});
    moving.push_back(state_.shapes[b.id].box);
  }
  for (Aabb& box : moving) box = reach_box(box, 2.0 * travel);
  for (const GridFixture& f : grid_fixtures_) {
    if (std::none_of(moving.begin(), moving.end(),
                     [&](const Aabb& m) { return m.overlaps(f.box); }))
      continue;
    physics::Body b;
    b.id = kGridMapId;
    b.kind = physics::BodyKind::kStatic;
    b.shape = &f.shape;
    b.props = &kGridPhysics;
    b.pose = {(f.box.min.x() + f.box.max.x()) / 2, (f.box.min.y() + f.box.max.y()) / 2, 0.0};
    bodies.push_back(b);
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
  add_grid_fixtures(bodies);
  const int substeps = model_->world.contact_substeps.value_or(physics::default_substeps(dt));
  const physics::StepResult result = physics::step(bodies, {.step_time = dt, .substeps = substeps});
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const physics::Body& b = bodies[i];
    if (b.id < 0) continue;  // a grid fixture
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
    record_motion(b.id, p0.x(), p0.y(), p0.z());
    place_shape(model_->objects[b.id].shape, state[0], state[1], state[2], state_.shapes[b.id]);
  }
  physics::update_readings(result.contacts, step_ns_, state_.contacts);
}

}  // namespace ubot
