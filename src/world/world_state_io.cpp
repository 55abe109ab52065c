// WorldState in state files (core/state_io.h): every field, in declaration order. Sizes the
// model fixes (one entry per object, the groups, the fog's cells) are checked, not taken from
// the file, so a file of another world is an error naming the first difference.
#include <fmt/format.h>

#include "ubot/core/error.h"
#include "ubot/core/state_io.h"
#include "ubot/world/world.h"

namespace ubot {
namespace {

// One entry per object (or per group, cell): the file must hold exactly as many as the state.
template <class T, class F>
void same_count(StateIo& s, std::vector<T>& v, std::string_view what, F&& item) {
  std::size_t i = 0;
  s.same_size(v, what, [&](T& x) {
    StateIo::Section at(s, "", static_cast<std::int64_t>(i++));
    item(x);
  });
}

void io(StateIo& s, ObjectState& o, std::size_t objects) {
  same_count(s, o.state, "state entries", [&](double& x) { s.value(x); });
  s.value(o.velocity);
  s.value(o.yaw_rate);
  s.sequence(o.goals, [&](std::vector<double>& g) {
    s.values(g);
    if (s.reading() && (g.size() < 2 || g.size() > 3)) {
      s.fail(fmt::format("a waypoint of {} entries (2 or 3: x, y[, yaw])", g.size()));
    }
  });
  s.value(o.arrive);
  s.value(o.collision);
  s.value(o.stop);
  s.ids(o.collision_ids, static_cast<std::int64_t>(objects), "a collision with object");
}

void io(StateIo& s, Aabb& b) {
  s.value(b.min);
  s.value(b.max);
}

void io(StateIo& s, WorldShape& w) {
  s.value(w.circle);
  s.value(w.closed);
  s.value(w.center);
  s.value(w.radius);
  same_count(s, w.vertices, "vertices", [&](Eigen::Vector2d& v) { s.value(v); });
  io(s, w.box);
  same_count(s, w.parts, "shape parts", [&](WorldShape& part) { io(s, part); });
}

void io(StateIo& s, ScriptedMotion& m) {
  io(s, m.pose);
  s.value(m.velocity);
  s.value(m.angular_velocity);
}

void io(StateIo& s, BodyMotion& b) {
  s.value(b.velocity);
  s.value(b.spin);
  s.value(b.dynamic);
}

void io(StateIo& s, ContactReport& r) {
  s.value(r.other);
  if (s.reading() && (r.other < -1 || r.other >= s.object_count)) {
    s.fail(fmt::format("a contact with object {} of {}", r.other, s.object_count));
  }
  s.value(r.point);
  s.value(r.normal);
  s.value(r.depth);
  s.value(r.force);
}

void io(StateIo& s, GroupRun& g) {
  std::vector<int> members = g.members;
  s.values(members);
  if (s.reading() && members != g.members) s.fail("the group's members differ from this world's");
  if (g.behavior.get() == nullptr) return;
  try {
    g.behavior.get()->io_state(s);
  } catch (const Error& e) {
    if (s.reading()) throw;
    throw Error(fmt::format("cannot save the state of the group of objects {}..{}: {}",
                            g.members.front(), g.members.back(), e.what()));
  }
}

}  // namespace

void io(StateIo& s, ContactReading& c) {
  s.value(c.in_contact);
  s.ids(c.partners, s.object_count, "a contact with object");
  s.sequence(c.reports, [&](ContactReport& r) { io(s, r); });
  s.value(c.force);
  s.value(c.contact_time);
  s.value(c.air_time);
  s.value(c.started);
  s.value(c.ended);
}

void io(StateIo& s, StepMotion& m) {
  s.value(m.start_);
  s.value(m.start_rotation_);
  s.value(m.start_yaw_);
  s.value(m.turn_);
  s.value(m.twist_);
}

void io(StateIo& s, FogMap& f) {
  same_count(s, f.explored_, "fog cells", [&](std::uint8_t& c) { s.value(c); });
  std::uint64_t seen = f.explored_count_;
  s.value(seen);
  if (s.reading() && seen > f.explored_.size()) s.fail("more fog cells seen than there are");
  f.explored_count_ = static_cast<std::size_t>(seen);
}

void io(StateIo& s, WorldState& w) {
  StateIo::Section world(s, "world");
  // What a running world holds: finite, far within the doubles' range (world files are limited
  // to ±1e9 m; a velocity or a rotation is smaller still).
  const StateIo::Bound bound(s, 1e12);
  s.value(w.seed);
  {
    StateIo::Section at(s, "objects");
    const std::size_t n = w.objects.size();
    same_count(s, w.objects, "objects", [&](ObjectState& o) { io(s, o, n); });
  }
  {
    StateIo::Section at(s, "shapes");
    same_count(s, w.shapes, "shapes", [&](WorldShape& shape) { io(s, shape); });
  }
  {
    StateIo::Section at(s, "wander_rng");
    same_count(s, w.wander_rng, "random streams", [&](RandomStream& r) { io(s, r); });
  }
  {
    StateIo::Section at(s, "motion_rng");
    same_count(s, w.motion_rng, "random streams", [&](RandomStream& r) { io(s, r); });
  }
  {
    StateIo::Section at(s, "scripted");
    same_count(s, w.scripted, "trajectory motions", [&](ScriptedMotion& m) { io(s, m); });
  }
  {
    StateIo::Section at(s, "step_motion");
    same_count(s, w.step_motion, "step motions", [&](StepMotion& m) { io(s, m); });
  }
  {
    StateIo::Section at(s, "groups");
    same_count(s, w.groups, "object groups", [&](GroupRun& g) { io(s, g); });
  }
  {
    StateIo::Section at(s, "fog");
    io(s, w.fog);
  }
  s.value(w.step_count);
  if (s.reading() && w.step_count < 0) s.fail(fmt::format("step count {}", w.step_count));
  {
    StateIo::Section at(s, "bodies");
    same_count(s, w.bodies, "contact bodies", [&](BodyMotion& b) { io(s, b); });
  }
  {
    StateIo::Section at(s, "contacts");
    same_count(s, w.contacts, "contact readings", [&](ContactReading& c) { io(s, c); });
  }
}

}  // namespace ubot
