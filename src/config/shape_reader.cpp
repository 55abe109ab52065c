// The 3D shapes of objects (box, sphere, cylinder, mesh) and their planar footprints.
#include <fmt/format.h>

#include <filesystem>

#include "mesh_reader.h"
#include "object_reader.h"
#include "ubot/core/error.h"
#include "ubot/core/pose3d.h"

namespace ubot::config {
namespace {

Eigen::Vector3d positive3(const Field& f) {
  const auto v = f.as_numbers(3, 3);
  for (std::size_t k = 0; k < 3; ++k) f.item(k).as_positive();
  return {v[0], v[1], v[2]};
}

// A mesh file relative to the directory of the world file that names it.
std::string resolve(const Field& f, const std::string& file) {
  const std::filesystem::path p(file);
  if (p.is_absolute() || !f.file()) return p.lexically_normal().string();
  return (std::filesystem::path(*f.file()).parent_path() / p).lexically_normal().string();
}

// A mesh's vertices, placed (scaled and turned), are held to the limit of every number of a
// world: vertices at 3e38 passed `validate` and stopped `run` in the scene, naming no file.
void check_vertices_within_limit(const TriangleMesh& mesh, const std::string& path,
                                 const Field& file) {
  for (const Eigen::Vector3d& p : mesh.vertices) {
    if (!(p.cwiseAbs().maxCoeff() <= kMaxMagnitude)) {
      file.fail(
          fmt::format("{}: a vertex at ({:g}, {:g}, {:g}) once scaled, beyond the limit of "
                      "±1e9 m for any position in a world",
                      path, p.x(), p.y(), p.z()));
    }
  }
}

void read_mesh(Mapping& m, SolidModel& s, MeshCache& cache) {
  const Field file = m.require("file");
  s.file = file.as_string();
  s.path = resolve(file, s.file);
  if (auto f = m.get("scale")) {
    if (f->is_scalar()) {
      s.scale = Eigen::Vector3d::Constant(f->as_positive());
    } else {
      s.scale = positive3(*f);
    }
  }
  if (auto f = m.get("rpy")) s.rpy = f->as_vector3();
  const std::string key = fmt::format("{}|{}|{}|{}|{}|{}|{}", s.path, s.scale.x(), s.scale.y(),
                                      s.scale.z(), s.rpy.x(), s.rpy.y(), s.rpy.z());
  if (const auto it = cache.placed.find(key); it != cache.placed.end()) {
    s.mesh = it->second;
    return;
  }
  auto& raw = cache.files[s.path];
  if (!raw) {
    try {
      raw = read_mesh_file(s.path);
    } catch (const Error& e) {
      file.fail(e.what());
    }
  }
  auto mesh = std::make_shared<TriangleMesh>(*raw);
  const Eigen::Matrix3d r = rotation_from_rpy(s.rpy).toRotationMatrix();
  for (Eigen::Vector3d& v : mesh->vertices) v = r * s.scale.cwiseProduct(v);
  check_vertices_within_limit(*mesh, s.path, file);
  s.mesh = mesh;
  cache.placed.emplace(key, s.mesh);
}

}  // namespace

void read_solid_shape(Mapping& m, const std::string& name, ShapeModel& s, MeshCache& cache) {
  if (auto f = m.get("wheelbase")) {
    f->fail(fmt::format("applies to circle and rectangle shapes, not to a {}", name));
  }
  SolidModel solid;
  if (name == "box") {
    solid.kind = SolidKind::kBox;
    solid.size = positive3(m.require("size"));
    s.kind = ShapeKind::kRectangle;
    s.length = solid.size.x();
    s.width = solid.size.y();
    const double x0 = -s.length / 2.0, y0 = -s.width / 2.0;
    s.vertices = {{x0, y0}, {-x0, y0}, {-x0, -y0}, {x0, -y0}};
  } else if (name == "sphere" || name == "cylinder") {
    solid.kind = name == "sphere" ? SolidKind::kSphere : SolidKind::kCylinder;
    solid.radius = m.require("radius").as_positive();
    if (solid.kind == SolidKind::kCylinder) solid.height = m.require("height").as_positive();
    s.kind = ShapeKind::kCircle;
    s.radius = solid.radius;
  } else {
    solid.kind = SolidKind::kMesh;
    read_mesh(m, solid, cache);
    s.vertices = xy_convex_hull(solid.mesh->vertices);
    if (s.vertices.size() < 2) {
      m.require("file").fail("the mesh's footprint in the xy plane is a single point");
    }
    s.kind = s.vertices.size() >= 3 ? ShapeKind::kPolygon : ShapeKind::kLinestring;
  }
  s.solid = std::move(solid);
}

}  // namespace ubot::config
