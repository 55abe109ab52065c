#pragma once
// An exhaustive exact reference for the scene: every visible primitive of every body tested with
// the scene's own exact functions (exact_geometry.h) and tie rule, the nearest hit resolved as
// Scene does. It is what cast() returns when Embree proposes every candidate, and what the 2D fan
// path must return always. TestWorld keeps a Scene and this reference in step.
#include <vector>

#include "../../src/scene/scene_tables.h"
#include "scene_test_util.h"

namespace ubot::scene::testing {

struct OracleBody {
  BodyGeometry geometry;
  bool dynamic = false;
  int user_id = 0;
};

// The normal Scene reports for a side hit at distance t (see Scene::Impl::resolve).
inline Eigen::Vector3d side_normal(const internal::ExactRay& r, double t, const BodyGeometry& g,
                                   std::size_t edge) {
  Eigen::Vector2d n;
  if (g.kind == ShapeKind::kCircle) {
    n = {r.ox + t * r.dx - g.center.x(), r.oy + t * r.dy - g.center.y()};
  } else {
    const Eigen::Vector2d& a = g.vertices[edge];
    const Eigen::Vector2d& b = g.vertices[(edge + 1) % g.vertices.size()];
    n = {b.y() - a.y(), a.x() - b.x()};
    if (n.x() * r.dx + n.y() * r.dy > 0.0) n = -n;
  }
  const double norm = n.norm();
  return norm > 0.0 ? Eigen::Vector3d(n.x() / norm, n.y() / norm, 0.0) : Eigen::Vector3d::Zero();
}

inline RayHit oracle_cast(const std::vector<OracleBody>& bodies, const Ray& ray, int ignore) {
  using internal::PrimKind;
  using internal::slot_of;
  const internal::ExactRay r{ray.origin.x(),    ray.origin.y(),    ray.origin.z(),
                             ray.direction.x(), ray.direction.y(), ray.direction.z(),
                             ray.max_distance};
  internal::Best best;
  std::size_t best_edge = 0;
  std::uint32_t circles[2] = {0, 0}, walls[2] = {0, 0}, prisms[2] = {0, 0};  // prim ids by group
  for (std::size_t id = 0; id < bodies.size(); ++id) {
    const BodyGeometry& g = bodies[id].geometry;
    const bool dyn = bodies[id].dynamic;
    const bool visible = bodies[id].user_id != ignore;
    const auto body = static_cast<BodyId>(id);
    internal::ExactHit hit;
    if (g.kind == ShapeKind::kCircle) {
      const std::uint32_t prim = circles[dyn]++;
      if (visible && internal::intersect_cylinder(r, g.center.x(), g.center.y(), g.radius, g.z_min,
                                                  g.z_max, &hit)) {
        internal::offer(best, hit, body, slot_of(dyn, PrimKind::kCircle), prim);
      }
      continue;
    }
    const std::size_t n = g.vertices.size();
    const std::size_t edges = g.kind == ShapeKind::kPolygon ? n : n - 1;
    std::vector<internal::Vec2> v;
    for (const Eigen::Vector2d& p : g.vertices) v.push_back({p.x(), p.y()});
    for (std::size_t e = 0; e < edges; ++e) {
      const std::uint32_t prim = walls[dyn]++;
      internal::ExactHit wall;
      if (visible && internal::intersect_wall(r, v[e], v[(e + 1) % n], g.z_min, g.z_max, &wall.t) &&
          internal::offer(best, wall, body, slot_of(dyn, PrimKind::kWall), prim)) {
        best_edge = e;
      }
    }
    if (g.kind != ShapeKind::kPolygon) continue;
    const std::uint32_t prim = prisms[dyn]++;
    internal::Box2 box{kInf, kInf, -kInf, -kInf};
    for (const internal::Vec2& p : v) {
      box = {std::min(box.min_x, p.x), std::min(box.min_y, p.y), std::max(box.max_x, p.x),
             std::max(box.max_y, p.y)};
    }
    if (visible && internal::intersect_prism_interior(r, v.data(), static_cast<std::uint32_t>(n),
                                                      box, g.z_min, g.z_max, &hit)) {
      internal::offer(best, hit, body, slot_of(dyn, PrimKind::kPrism), prim);
    }
  }
  RayHit out;
  if (best.body == kNoBody) return out;
  out.distance = best.t;
  out.body = best.body;
  switch (best.feature) {
    case internal::Feature::kInside:
      break;
    case internal::Feature::kBottomCap:
      out.normal = -Eigen::Vector3d::UnitZ();
      break;
    case internal::Feature::kTopCap:
      out.normal = Eigen::Vector3d::UnitZ();
      break;
    case internal::Feature::kSide:
      out.normal =
          side_normal(r, best.t, bodies[static_cast<std::size_t>(best.body)].geometry, best_edge);
  }
  return out;
}

// A Scene and its oracle, updated together.
class TestWorld {
 public:
  BodyId add(const BodyGeometry& g, bool dynamic, int user_id) {
    bodies_.push_back({g, dynamic, user_id});
    return scene_.add_body(g, dynamic, user_id);
  }
  void update(BodyId id, const BodyGeometry& g) {
    bodies_[static_cast<std::size_t>(id)].geometry = g;
    scene_.update_body(id, g);
  }
  void commit() { scene_.commit(); }
  const Scene& scene() const { return scene_; }
  const std::vector<OracleBody>& bodies() const { return bodies_; }
  const BodyGeometry& geometry(BodyId id) const {
    return bodies_[static_cast<std::size_t>(id)].geometry;
  }
  RayHit oracle(const Ray& ray, int ignore) const { return oracle_cast(bodies_, ray, ignore); }

 private:
  Scene scene_;
  std::vector<OracleBody> bodies_;
};

}  // namespace ubot::scene::testing
