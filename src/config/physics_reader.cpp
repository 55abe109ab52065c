// An object's physical properties (collision_mode: contact; docs/contact.md).
#include "physics_reader.h"

namespace ubot::config {

PhysicsModel read_physics(const FieldLookup& value, const ShapeModel& shape) {
  PhysicsModel p;
  if (auto f = value("mass")) {
    p.mass = f->as_positive();
    if (!shape.closed()) f->fail("a linestring has no area to carry a mass; use a polygon");
  }
  if (auto f = value("friction")) p.friction = f->as_non_negative();
  if (auto f = value("restitution")) p.restitution = f->as_unit_interval();
  if (auto f = value("damping")) p.damping = f->as_non_negative();
  if (auto f = value("angular_damping")) p.angular_damping = f->as_non_negative();
  if (auto f = value("drive_force")) p.drive_force = f->as_positive();
  return p;
}

}  // namespace ubot::config
