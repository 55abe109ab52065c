// One world step of Box2D 2.4 rigid-body dynamics (include/ubot/physics/contact_solver.h).
#include "ubot/physics/contact_solver.h"

#include <box2d/box2d.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <tuple>

namespace ubot::physics {
namespace {

b2Vec2 to_b2(const Eigen::Vector2d& v) {
  return {static_cast<float>(v.x()), static_cast<float>(v.y())};
}
Eigen::Vector2d from_b2(const b2Vec2& v) { return {v.x, v.y}; }

b2BodyType body_type(BodyKind kind) {
  switch (kind) {
    case BodyKind::kStatic:
      return b2_staticBody;
    case BodyKind::kKinematic:
      return b2_kinematicBody;
    case BodyKind::kFree:
    case BodyKind::kDriven:
      break;
  }
  return b2_dynamicBody;
}

// Which body and which of its pieces a fixture is (stored in the fixture's user data).
struct PieceTag {
  int body = 0;  // index into the step's bodies
  int piece = 0;
};

// A touching pair of pieces over the step: impulses summed over the sub-steps, geometry of the
// last sub-step that solved it. Fixture A's body is `body_a` (Box2D orders the pair).
struct Accumulated {
  PieceTag a, b;
  Eigen::Vector2d impulse_on_a = Eigen::Vector2d::Zero();  // N s, world frame
  double normal_impulse = 0.0;                             // N s, along the normal
  Eigen::Vector2d point = Eigen::Vector2d::Zero();
  Eigen::Vector2d normal_to_a = Eigen::Vector2d::Zero();
  double depth = 0.0;
};

using PairKey = std::tuple<int, int, int, int>;  // body a, body b, piece a, piece b

class ImpulseRecorder : public b2ContactListener {
 public:
  explicit ImpulseRecorder(const std::vector<PieceTag>& tags) : tags_(tags) {}

  void PostSolve(b2Contact* contact, const b2ContactImpulse* impulse) override {
    const PieceTag& a = tag(contact->GetFixtureA());
    const PieceTag& b = tag(contact->GetFixtureB());
    const int points = contact->GetManifold()->pointCount;
    if (points == 0) return;
    b2WorldManifold wm;
    contact->GetWorldManifold(&wm);
    // Box2D's normal points from A to B; its impulse P = n Pn + t Pt acts on B, -P on A.
    const Eigen::Vector2d n = from_b2(wm.normal), t(n.y(), -n.x());
    double pn = 0.0, pt = 0.0, separation = 0.0;
    Eigen::Vector2d point = Eigen::Vector2d::Zero();
    for (int i = 0; i < points; ++i) {
      pn += impulse->normalImpulses[i];
      pt += impulse->tangentImpulses[i];
      point += from_b2(wm.points[i]);
      separation = std::min(separation, static_cast<double>(wm.separations[i]));
    }
    Accumulated& acc = pairs_[key(a, b)];
    acc.a = a;
    acc.b = b;
    acc.impulse_on_a -= n * pn + t * pt;
    acc.normal_impulse += pn;
    acc.point = point / points;
    acc.normal_to_a = -n;
    acc.depth = -separation;
  }

  const std::map<PairKey, Accumulated>& pairs() const { return pairs_; }

 private:
  const PieceTag& tag(b2Fixture* f) const { return tags_[f->GetUserData().pointer]; }
  static PairKey key(const PieceTag& a, const PieceTag& b) {
    return {a.body, b.body, a.piece, b.piece};
  }
  const std::vector<PieceTag>& tags_;
  std::map<PairKey, Accumulated> pairs_;
};

// The body's shape as Box2D shapes in the body frame.
std::vector<std::unique_ptr<b2Shape>> b2_shapes(const ShapeModel& shape) {
  std::vector<std::unique_ptr<b2Shape>> out;
  switch (shape.kind) {
    case ShapeKind::kCircle: {
      auto circle = std::make_unique<b2CircleShape>();
      circle->m_p = to_b2(shape.center);
      circle->m_radius = static_cast<float>(shape.radius);
      out.push_back(std::move(circle));
      break;
    }
    case ShapeKind::kRectangle:
    case ShapeKind::kPolygon:
      for (const auto& piece : convex_pieces(shape.vertices)) {
        std::vector<b2Vec2> points;
        for (const Eigen::Vector2d& p : piece) points.push_back(to_b2(p));
        auto polygon = std::make_unique<b2PolygonShape>();
        polygon->Set(points.data(), static_cast<int>(points.size()));
        out.push_back(std::move(polygon));
      }
      break;
    case ShapeKind::kLinestring:
      for (std::size_t i = 0; i + 1 < shape.vertices.size(); ++i) {
        if ((shape.vertices[i + 1] - shape.vertices[i]).norm() < 0.005) continue;
        auto edge = std::make_unique<b2EdgeShape>();
        edge->SetTwoSided(to_b2(shape.vertices[i]), to_b2(shape.vertices[i + 1]));
        out.push_back(std::move(edge));
      }
      break;
  }
  return out;
}

b2Body* add_body(b2World& world, const Body& body, int index, std::vector<PieceTag>& tags) {
  b2BodyDef def;
  def.type = body_type(body.kind);
  def.position = to_b2(body.pose.head<2>());
  def.angle = static_cast<float>(body.pose.z());
  def.allowSleep = false;
  if (body.kind == BodyKind::kKinematic) {
    def.linearVelocity = to_b2(body.target_velocity);
    def.angularVelocity = static_cast<float>(body.target_spin);
  } else if (body.kind != BodyKind::kStatic) {
    def.linearVelocity = to_b2(body.velocity);
    def.angularVelocity = static_cast<float>(body.spin);
  }
  if (body.kind == BodyKind::kFree) {  // the floor's drag; a driven body's controller is its own
    def.linearDamping = static_cast<float>(body.props->damping);
    def.angularDamping = static_cast<float>(body.props->angular_damping);
  }
  b2Body* b = world.CreateBody(&def);
  int piece = 0;
  for (const auto& shape : b2_shapes(*body.shape)) {
    b2FixtureDef fixture;
    fixture.shape = shape.get();
    fixture.density = 1.0f;  // rescaled to the body's mass below
    fixture.friction = static_cast<float>(body.props->friction);
    fixture.restitution = static_cast<float>(body.props->restitution);
    fixture.userData.pointer = tags.size();
    tags.push_back({index, piece++});
    b->CreateFixture(&fixture);
  }
  if (b->GetType() == b2_dynamicBody && b->GetMass() > 0.0f) {
    b2MassData mass;
    b->GetMassData(&mass);
    const float scale = static_cast<float>(body.mass) / mass.mass;
    mass.mass *= scale;
    mass.I *= scale;
    b->SetMassData(&mass);
  }
  return b;
}

// A driven body's controller for one sub-step of h seconds: the force that would reach the
// target velocity in this sub-step, bounded by the drive force; the yaw rate is imposed.
void drive(b2Body& b, const Body& body, double h) {
  const Eigen::Vector2d v = from_b2(b.GetLinearVelocity());
  Eigen::Vector2d force = body.mass * (body.target_velocity - v) / h;
  const double limit = body.drive_force;
  if (force.norm() > limit) force *= limit / force.norm();
  b.ApplyForceToCenter(to_b2(force), true);
  b.SetAngularVelocity(static_cast<float>(body.target_spin));
}

std::vector<Contact> contacts_of(const std::map<PairKey, Accumulated>& pairs,
                                 std::span<const Body> bodies, double step_time) {
  std::vector<Contact> contacts;
  for (const auto& [key, acc] : pairs) {
    Contact c;
    c.a = bodies[acc.a.body].id;
    c.b = bodies[acc.b.body].id;
    c.point = acc.point;
    c.normal = acc.normal_to_a;
    c.depth = std::max(0.0, acc.depth);
    c.normal_force = acc.normal_impulse / step_time;
    c.force = acc.impulse_on_a / step_time;
    if (c.a > c.b) {  // seen from the smaller id
      std::swap(c.a, c.b);
      c.normal = -c.normal;
      c.force = -c.force;
    }
    contacts.push_back(c);
  }
  std::stable_sort(contacts.begin(), contacts.end(), [](const Contact& x, const Contact& y) {
    return std::tie(x.a, x.b) < std::tie(y.a, y.b);
  });
  return contacts;
}

}  // namespace

StepResult step(std::span<const Body> bodies, const StepSettings& settings) {
  b2World world(b2Vec2(0.0f, 0.0f));  // top-down: no gravity in the plane
  world.SetAllowSleeping(false);
  std::vector<PieceTag> tags;
  std::vector<b2Body*> b2bodies;
  b2bodies.reserve(bodies.size());
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    b2bodies.push_back(add_body(world, bodies[i], static_cast<int>(i), tags));
  }
  ImpulseRecorder recorder(tags);
  world.SetContactListener(&recorder);
  const int substeps = std::max(1, settings.substeps);
  const double h = settings.step_time / substeps;
  for (int s = 0; s < substeps; ++s) {
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      if (bodies[i].kind == BodyKind::kDriven) drive(*b2bodies[i], bodies[i], h);
    }
    world.Step(static_cast<float>(h), settings.velocity_iterations, settings.position_iterations);
  }
  StepResult result;
  result.bodies.reserve(bodies.size());
  for (const b2Body* b : b2bodies) {
    result.bodies.push_back({{b->GetPosition().x, b->GetPosition().y, b->GetAngle()},
                             from_b2(b->GetLinearVelocity()),
                             b->GetAngularVelocity()});
  }
  result.contacts = contacts_of(recorder.pairs(), bodies, settings.step_time);
  return result;
}

}  // namespace ubot::physics
