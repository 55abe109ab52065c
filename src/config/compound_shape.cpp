// `shape: {name: compound, parts: [...]}`: IR-SIM's CompoundGeometry, a rigid body made of
// circles, rectangles and polygons, each placed in the body frame by its `pose` [x, y, theta].
// Collisions, fields of view and lidars see every part (world/geometry.h, sim/simulation.cpp);
// what sees a single outline (bounding radius, RVO) takes the parts' convex hull.
#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "object_reader.h"
#include "ubot/core/triangle_mesh.h"

namespace ubot::config {
namespace {

// IR-SIM builds a circle as a 64-gon (shapely's buffer); its outline points, for the hull.
constexpr int kCircleHullPoints = 64;

// Moves a body-frame part to `pose` (rotation about the body origin, then the translation), as
// IR-SIM's geometry_transform places a part.
void place_part(ShapeModel& part, const Eigen::Vector3d& pose) {
  const double c = std::cos(pose.z()), s = std::sin(pose.z());
  auto move = [&](const Eigen::Vector2d& p) {
    return Eigen::Vector2d(c * p.x() - s * p.y() + pose.x(), s * p.x() + c * p.y() + pose.y());
  };
  part.center = move(part.center);
  for (Eigen::Vector2d& v : part.vertices) v = move(v);
}

// Outline points of the parts: polygon vertices, and points around each circle.
std::vector<Eigen::Vector3d> outline_points(const std::vector<ShapeModel>& parts) {
  std::vector<Eigen::Vector3d> points;
  for (const ShapeModel& p : parts) {
    if (p.kind == ShapeKind::kCircle) {
      for (int i = 0; i < kCircleHullPoints; ++i) {
        const double a = 2.0 * std::numbers::pi * i / kCircleHullPoints;
        points.emplace_back(p.center.x() + p.radius * std::cos(a),
                            p.center.y() + p.radius * std::sin(a), 0.0);
      }
    } else {
      for (const Eigen::Vector2d& v : p.vertices) points.emplace_back(v.x(), v.y(), 0.0);
    }
  }
  return points;
}

ShapeModel read_part(const Field& field, std::vector<std::string>& warnings, MeshCache& meshes,
                     RandomStream& rng) {
  Mapping m(field);
  if (auto f = m.get("color")) {
    f->fail("compound parts have no colour of their own (as in IR-SIM): colour the object");
  }
  m.require("name").as_choice({"circle", "rectangle", "polygon"});
  Eigen::Vector3d pose = Eigen::Vector3d::Zero();
  if (auto f = m.get("pose")) pose = f->as_vector3();
  ShapeModel part = read_shape_keys(m, warnings, meshes, rng);
  m.finish();
  place_part(part, pose);
  return part;
}

}  // namespace

void read_compound_shape(Mapping& m, ShapeModel& s, std::vector<std::string>& warnings,
                         MeshCache& meshes, RandomStream& rng) {
  const Field list = m.require("parts");
  if (!list.is_sequence() || list.size() == 0) list.fail("expected a non-empty list of parts");
  for (std::size_t i = 0; i < list.size(); ++i) {
    s.parts.push_back(read_part(list.item(i), warnings, meshes, rng));
  }
  s.kind = ShapeKind::kPolygon;
  s.vertices = xy_convex_hull(outline_points(s.parts));
  if (s.vertices.size() < 3) list.fail("the parts enclose no area");
}

}  // namespace ubot::config
