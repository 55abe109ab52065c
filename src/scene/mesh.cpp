// Triangle meshes in the scene: registration, per-body instances, and the filter that turns
// Embree's single-precision triangle hits into double-precision distances.
#include <cmath>
#include <string>

#include "scene_error.h"
#include "scene_impl.h"
#include "solids.h"
#include "ubot/core/error.h"

namespace ubot::scene {
namespace internal {
namespace {

// Distance along the exact ray to the plane of triangle `prim` of the body's mesh (Embree has
// already decided that the ray meets the triangle), in double precision in the mesh frame.
bool refine(const ExactRay& r, const MeshBodyRecord& b, const TriangleMesh& mesh,
            std::uint32_t prim, double* t_out) {
  const Eigen::Vector3d o =
      b.rotation.transpose() * (Eigen::Vector3d(r.ox, r.oy, r.oz) - b.translation);
  const Eigen::Vector3d d = b.rotation.transpose() * Eigen::Vector3d(r.dx, r.dy, r.dz);
  const auto& tri = mesh.triangles[prim];
  double t;
  if (!ray_triangle_plane(o, d, mesh.vertices[tri[0]], mesh.vertices[tri[1]], mesh.vertices[tri[2]],
                          &t)) {
    return false;
  }
  if (!(t >= 0.0) || t > r.t_max) return false;
  *t_out = t;
  return true;
}

}  // namespace

bool ray_triangle_plane(const Eigen::Vector3d& o, const Eigen::Vector3d& d,
                        const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                        const Eigen::Vector3d& c, double* t) {
  const Eigen::Vector3d e1 = b - a, e2 = c - a;
  const double det = e1.dot(d.cross(e2));
  if (det == 0.0 || !std::isfinite(det)) return false;
  // Möller–Trumbore's t (the barycentric coordinates are Embree's decision).
  *t = e2.dot((o - a).cross(e1)) / det;
  return true;
}

void mesh_filter(const RTCFilterFunctionNArguments* args) {
  const auto& shape = *static_cast<const MeshShape*>(args->geometryUserPtr);
  CastContext* ctx = cast_context(args->context);
  for (unsigned i = 0; i < args->N; ++i) {
    if (args->valid[i] == 0) continue;
    const MeshBodyRecord* b =
        shape.layer->mesh_body_of_instance(RTCHitN_instID(args->hit, args->N, i, 0));
    const std::uint32_t prim = RTCHitN_primID(args->hit, args->N, i);
    const unsigned lane = RTCRayN_id(args->ray, args->N, i);
    ExactHit hit;
    if (b != nullptr && b->user_id != ctx->ignore_user_id &&
        refine(ctx->rays[lane], *b, *shape.mesh, prim, &hit.t) &&
        ctx->offer(lane, hit, b->body, static_cast<std::uint8_t>(kMeshSlot), prim)) {
      RTCRayN_tfar(args->ray, args->N, i) = ctx->embree_tfar(lane);
    } else {
      args->valid[i] = 0;
    }
  }
}

std::int32_t SolidLayer::add_mesh(std::shared_ptr<const TriangleMesh> mesh) {
  auto shape = std::make_unique<MeshShape>();
  shape->mesh = std::move(mesh);
  shape->min = shape->mesh->min();
  shape->max = shape->mesh->max();
  shape->layer = this;
  meshes_.push_back(std::move(shape));
  return static_cast<std::int32_t>(meshes_.size() - 1);
}

std::uint32_t SolidLayer::add_mesh_body(const MeshBodyRecord& body, bool dynamic) {
  staged_mesh_bodies_.push_back(body);
  mesh_dynamic_.push_back(dynamic);
  mesh_body_dirty_.push_back(1);
  mesh_instances_.push_back(nullptr);
  return static_cast<std::uint32_t>(staged_mesh_bodies_.size() - 1);
}

void SolidLayer::update_mesh_body(std::uint32_t index, const Eigen::Isometry3d& pose) {
  staged_mesh_bodies_[index].rotation = pose.linear();
  staged_mesh_bodies_[index].translation = pose.translation();
  mesh_body_dirty_[index] = 1;
}

void SolidLayer::build_mesh(MeshShape& shape) {
  const TriangleMesh& mesh = *shape.mesh;
  shape.scene = rtcNewScene(device_);
  // Robust traversal and intersection: watertight triangle tests, so that no ray slips
  // between two triangles sharing an edge.
  rtcSetSceneFlags(shape.scene, RTC_SCENE_FLAG_ROBUST);
  rtcSetSceneBuildQuality(shape.scene, RTC_BUILD_QUALITY_MEDIUM);
  RTCGeometry g = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_TRIANGLE);
  auto* v = static_cast<float*>(rtcSetNewGeometryBuffer(
      g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 3 * sizeof(float), mesh.vertices.size()));
  auto* index = static_cast<unsigned*>(rtcSetNewGeometryBuffer(
      g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 3 * sizeof(unsigned), mesh.triangles.size()));
  if (v == nullptr || index == nullptr) {
    rtcReleaseGeometry(g);
    fail("cannot allocate the buffers of a mesh of " + std::to_string(mesh.triangles.size()) +
         " triangles");
  }
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    for (int k = 0; k < 3; ++k) v[3 * i + k] = static_cast<float>(mesh.vertices[i][k]);
  }
  for (std::size_t i = 0; i < mesh.triangles.size(); ++i) {
    for (int k = 0; k < 3; ++k) index[3 * i + k] = mesh.triangles[i][k];
  }
  rtcSetGeometryIntersectFilterFunction(g, mesh_filter);
  rtcSetGeometryUserData(g, &shape);
  rtcCommitGeometry(g);
  rtcAttachGeometry(shape.scene, g);
  rtcCommitScene(shape.scene);
  shape.geometry = g;
  shape.built = true;
}

}  // namespace internal

using internal::SolidKind;

namespace {
bool rigid(const Eigen::Isometry3d& pose) {
  const Eigen::Matrix3d r = pose.linear();
  return pose.matrix().allFinite() &&
         (r.transpose() * r - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() < 1e-9 &&
         r.determinant() > 0.0;
}
}  // namespace

Scene::MeshId Scene::add_mesh(std::shared_ptr<const TriangleMesh> mesh) {
  if (!mesh || mesh->triangles.empty()) fail("add_mesh: the mesh has no triangles");
  for (const Eigen::Vector3d& v : mesh->vertices) {
    if (!v.allFinite()) fail("add_mesh: a vertex is not finite");
  }
  const std::size_t n = mesh->vertices.size();
  for (std::size_t i = 0; i < mesh->triangles.size(); ++i) {
    for (const std::uint32_t k : mesh->triangles[i]) {
      if (k >= n) {
        fail("add_mesh: triangle " + std::to_string(i) + " refers to vertex " + std::to_string(k) +
             " of " + std::to_string(n));
      }
    }
  }
  return impl_->solids->add_mesh(std::move(mesh));
}

BodyId Scene::add_mesh_body(MeshId mesh, const Eigen::Isometry3d& pose, bool dynamic, int user_id) {
  Impl& m = *impl_;
  if (mesh < 0 || static_cast<std::size_t>(mesh) >= m.solids->mesh_count()) {
    fail("add_mesh_body: no mesh " + std::to_string(mesh));
  }
  if (!rigid(pose)) fail("add_mesh_body: the pose must be finite and rigid");
  if (user_id == kNoUserId) fail("user_id must not be kNoUserId");
  const auto id = static_cast<BodyId>(m.bodies.size());
  BodyRecord rec{ShapeKind::kPolygon, dynamic, user_id};
  rec.solid = SolidKind::kMesh;
  rec.prim =
      m.solids->add_mesh_body({pose.linear(), pose.translation(), mesh, id, user_id}, dynamic);
  m.bodies.push_back(rec);
  return id;
}

void Scene::update_mesh_body(BodyId body, const Eigen::Isometry3d& pose) {
  Impl& m = *impl_;
  if (body < 0 || static_cast<std::size_t>(body) >= m.bodies.size() ||
      m.bodies[body].solid != SolidKind::kMesh) {
    fail("update_mesh_body: body " + std::to_string(body) + " is not a mesh body");
  }
  if (!m.bodies[body].dynamic) {
    fail("update_mesh_body: body " + std::to_string(body) + " is static");
  }
  if (!rigid(pose)) fail("update_mesh_body: the pose must be finite and rigid");
  m.solids->update_mesh_body(m.bodies[body].prim, pose);
}

}  // namespace ubot::scene
