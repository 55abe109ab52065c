// The 3D content layer: spheres and the ground (exact user geometry), the staging/commit of all
// 3D content, and the Scene functions that add spheres and the ground. Meshes: mesh.cpp.
#include "solids.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "scene_error.h"
#include "scene_impl.h"
#include "ubot/core/error.h"

namespace ubot::scene {
namespace internal {
namespace {

// The ground's extent in x and y around the origin (metres): far beyond any sensor's range.
constexpr double kGroundHalfSize = 1.0e6;

double sphere_extent(const std::vector<SphereRecord>& spheres) {
  double e = 0.0;
  for (const SphereRecord& s : spheres) {
    e = std::max({e, std::abs(s.cx) + s.radius, std::abs(s.cy) + s.radius});
  }
  return e;
}

}  // namespace

void sphere_bounds(const RTCBoundsFunctionArguments* args) {
  const auto& desc = *static_cast<const SphereDesc*>(args->geometryUserPtr);
  const SphereRecord& s = (*desc.spheres)[args->primID];
  set_bounds(args->bounds_o, s.cx - s.radius, s.cy - s.radius, s.cz - s.radius, s.cx + s.radius,
             s.cy + s.radius, s.cz + s.radius, desc.extent);
}

void sphere_intersect(const RTCIntersectFunctionNArguments* args) {
  const auto& desc = *static_cast<const SphereDesc*>(args->geometryUserPtr);
  const SphereRecord& s = (*desc.spheres)[args->primID];
  CastContext* ctx = cast_context(args->context);
  if (s.user_id == ctx->ignore_user_id) return;
  RTCRayN* ray = RTCRayHitN_RayN(args->rayhit, args->N);
  for (unsigned i = 0; i < args->N; ++i) {
    if (args->valid[i] == 0) continue;
    ExactHit hit;
    if (intersect_sphere(ctx->rays[RTCRayN_id(ray, args->N, i)], s.cx, s.cy, s.cz, s.radius,
                         &hit)) {
      accept(args, ctx, i, hit, s.body, desc.slot);
    }
  }
}

void ground_bounds(const RTCBoundsFunctionArguments* args) {
  const auto& g = *static_cast<const GroundRecord*>(args->geometryUserPtr);
  args->bounds_o->lower_x = args->bounds_o->lower_y = static_cast<float>(-kGroundHalfSize);
  args->bounds_o->upper_x = args->bounds_o->upper_y = static_cast<float>(kGroundHalfSize);
  // Everything below the plane: rays starting underground are inside the ground.
  args->bounds_o->lower_z = static_cast<float>(g.z - kGroundHalfSize);
  args->bounds_o->upper_z = static_cast<float>(g.z + pad_for(kGroundHalfSize, g.z));
}

void ground_intersect(const RTCIntersectFunctionNArguments* args) {
  const auto& g = *static_cast<const GroundRecord*>(args->geometryUserPtr);
  CastContext* ctx = cast_context(args->context);
  if (g.user_id == ctx->ignore_user_id) return;
  RTCRayN* ray = RTCRayHitN_RayN(args->rayhit, args->N);
  for (unsigned i = 0; i < args->N; ++i) {
    if (args->valid[i] == 0) continue;
    ExactHit hit;
    if (intersect_ground(ctx->rays[RTCRayN_id(ray, args->N, i)], g.z, &hit)) {
      accept(args, ctx, i, hit, g.body, static_cast<std::uint8_t>(kGroundSlot));
    }
  }
}

// The sphere child scenes are made when the first sphere of their class arrives.
SolidLayer::SolidLayer(RTCDevice device, RTCScene top) : device_(device), top_(top) {
  for (int d = 0; d < 2; ++d) {
    sphere_desc_[d].spheres = &live_spheres_[d];
    sphere_desc_[d].slot = static_cast<std::uint8_t>(kSphereSlot + d);
  }
}

SolidLayer::~SolidLayer() {
  for (RTCGeometry g : mesh_instances_) {
    if (g != nullptr) rtcReleaseGeometry(g);
  }
  for (auto& m : meshes_) {
    if (m->geometry != nullptr) rtcReleaseGeometry(m->geometry);
    if (m->scene != nullptr) rtcReleaseScene(m->scene);
  }
  for (int d = 0; d < 2; ++d) {
    if (sphere_geometries_[d] != nullptr) rtcReleaseGeometry(sphere_geometries_[d]);
    if (sphere_instances_[d] != nullptr) rtcReleaseGeometry(sphere_instances_[d]);
    if (sphere_scenes_[d] != nullptr) rtcReleaseScene(sphere_scenes_[d]);
  }
  if (ground_geometry_ != nullptr) rtcReleaseGeometry(ground_geometry_);
}

std::uint32_t SolidLayer::add_sphere(const SphereRecord& sphere, bool dynamic) {
  staged_spheres_[dynamic].push_back(sphere);
  spheres_dirty_[dynamic] = true;
  return static_cast<std::uint32_t>(staged_spheres_[dynamic].size() - 1);
}

void SolidLayer::update_sphere(std::uint32_t index, const Eigen::Vector3d& center) {
  SphereRecord& s = staged_spheres_[1][index];
  s.cx = center.x();
  s.cy = center.y();
  s.cz = center.z();
  spheres_dirty_[1] = true;
}

void SolidLayer::set_ground(const GroundRecord& ground) {
  ground_ = ground;
  has_ground_ = true;
}

double SolidLayer::stage_for_commit(bool* heavy, bool* changed) {
  for (int d = 0; d < 2; ++d) {
    if (!spheres_dirty_[d]) continue;
    live_spheres_[d] = staged_spheres_[d];
    if (d == 0) *heavy = true;
    *changed = true;
  }
  if (has_ground_ && !ground_attached_) *heavy = true;
  for (const auto& m : meshes_) *heavy = *heavy || !m->built;
  *changed = *changed || *heavy;
  live_mesh_bodies_.resize(staged_mesh_bodies_.size());
  for (std::size_t i = 0; i < staged_mesh_bodies_.size(); ++i) {
    if (!mesh_body_dirty_[i]) continue;
    live_mesh_bodies_[i] = staged_mesh_bodies_[i];
    *changed = true;
  }
  double e = std::max(sphere_extent(live_spheres_[0]), sphere_extent(live_spheres_[1]));
  live_bounds_.clear();
  for (const auto& spheres : live_spheres_) {
    for (const SphereRecord& s : spheres) {
      const Eigen::Vector3d c(s.cx, s.cy, s.cz), r = Eigen::Vector3d::Constant(s.radius);
      live_bounds_.emplace_back(c - r, c + r);
    }
  }
  for (const MeshBodyRecord& b : live_mesh_bodies_) {
    const MeshShape& shape = *meshes_[static_cast<std::size_t>(b.mesh)];
    const Eigen::Vector3d& lo = shape.min;
    const Eigen::Vector3d& hi = shape.max;
    Eigen::AlignedBox3d box;
    for (int corner = 0; corner < 8; ++corner) {
      const Eigen::Vector3d p((corner & 1) ? hi.x() : lo.x(), (corner & 2) ? hi.y() : lo.y(),
                              (corner & 4) ? hi.z() : lo.z());
      const Eigen::Vector3d w = b.rotation * p + b.translation;
      e = std::max({e, std::abs(w.x()), std::abs(w.y())});
      box.extend(w);
    }
    live_bounds_.push_back(box);
  }
  live_extent_ = e;
  return e;
}

bool SolidLayer::can_meet_fan(const Eigen::Vector3d& origin, double reach) const {
  if (has_ground_ && origin.z() < ground_.z) return true;
  // Meshes are float triangles refined in double: a margin well above float rounding.
  const double pad = 1e-5 * (1.0 + live_extent_ + std::abs(origin.z()));
  for (const Eigen::AlignedBox3d& b : live_bounds_) {
    if (origin.z() < b.min().z() - pad || origin.z() > b.max().z() + pad) continue;
    const double dx = std::max({b.min().x() - origin.x(), 0.0, origin.x() - b.max().x()});
    const double dy = std::max({b.min().y() - origin.y(), 0.0, origin.y() - b.max().y()});
    if (std::hypot(dx, dy) <= reach + pad) return true;
  }
  return false;
}

bool SolidLayer::mesh_within(const Eigen::Vector3d& origin, double reach,
                             int ignore_user_id) const {
  const std::size_t first = live_spheres_[0].size() + live_spheres_[1].size();
  const double pad = 1e-5 * (1.0 + live_extent_ + origin.cwiseAbs().maxCoeff());
  for (std::size_t i = 0; i < live_mesh_bodies_.size(); ++i) {
    if (live_mesh_bodies_[i].user_id == ignore_user_id) continue;
    if (live_bounds_[first + i].exteriorDistance(origin) <= reach + pad) return true;
  }
  return false;
}

void SolidLayer::sync_spheres(int d, double extent) {
  SphereDesc& desc = sphere_desc_[d];
  const std::size_t count = live_spheres_[d].size();
  const bool pads_too_small = extent > desc.extent;
  if (!spheres_dirty_[d] && !pads_too_small) return;
  if (pads_too_small) desc.extent = 2.0 * extent;
  if (sphere_scenes_[d] == nullptr) {
    sphere_scenes_[d] = rtcNewScene(device_);
    if (d == 1) {
      rtcSetSceneFlags(sphere_scenes_[d], RTC_SCENE_FLAG_DYNAMIC);
      rtcSetSceneBuildQuality(sphere_scenes_[d], RTC_BUILD_QUALITY_LOW);
    }
    sphere_instances_[d] = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_INSTANCE);
    rtcSetGeometryInstancedScene(sphere_instances_[d], sphere_scenes_[d]);
    const float identity[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    rtcSetGeometryTransform(sphere_instances_[d], 0, RTC_FORMAT_FLOAT3X4_COLUMN_MAJOR, identity);
    rtcAttachGeometry(top_, sphere_instances_[d]);
  }
  if (sphere_geometries_[d] != nullptr && sphere_counts_[d] != count) {
    rtcDetachGeometry(sphere_scenes_[d], sphere_geometry_ids_[d]);
    rtcReleaseGeometry(sphere_geometries_[d]);
    sphere_geometries_[d] = nullptr;
  }
  if (sphere_geometries_[d] == nullptr && count > 0) {
    RTCGeometry g = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_USER);
    rtcSetGeometryUserPrimitiveCount(g, static_cast<unsigned>(count));
    rtcSetGeometryBoundsFunction(g, sphere_bounds, nullptr);
    rtcSetGeometryIntersectFunction(g, sphere_intersect);
    rtcSetGeometryUserData(g, &desc);
    rtcSetGeometryBuildQuality(g, d == 1 ? RTC_BUILD_QUALITY_LOW : RTC_BUILD_QUALITY_MEDIUM);
    sphere_geometry_ids_[d] = rtcAttachGeometry(sphere_scenes_[d], g);
    sphere_geometries_[d] = g;
  }
  sphere_counts_[d] = count;
  if (sphere_geometries_[d] != nullptr) rtcCommitGeometry(sphere_geometries_[d]);
  rtcCommitScene(sphere_scenes_[d]);
  rtcCommitGeometry(sphere_instances_[d]);  // picks up the child's new bounds
  spheres_dirty_[d] = false;
}

void SolidLayer::sync(double extent) {
  for (int d = 0; d < 2; ++d) sync_spheres(d, extent);
  if (has_ground_ && !ground_attached_) {
    ground_geometry_ = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_USER);
    rtcSetGeometryUserPrimitiveCount(ground_geometry_, 1);
    rtcSetGeometryBoundsFunction(ground_geometry_, ground_bounds, nullptr);
    rtcSetGeometryIntersectFunction(ground_geometry_, ground_intersect);
    rtcSetGeometryUserData(ground_geometry_, &ground_);
    rtcCommitGeometry(ground_geometry_);
    rtcAttachGeometry(top_, ground_geometry_);
    ground_attached_ = true;
  }
  for (auto& m : meshes_) {
    if (!m->built) build_mesh(*m);
  }
  for (std::size_t i = 0; i < live_mesh_bodies_.size(); ++i) {
    if (!mesh_body_dirty_[i]) continue;
    const MeshBodyRecord& b = live_mesh_bodies_[i];
    float xfm[12];  // 3x4 column-major: rotation columns, then translation
    for (int c = 0; c < 3; ++c) {
      for (int r = 0; r < 3; ++r) xfm[3 * c + r] = static_cast<float>(b.rotation(r, c));
      xfm[9 + c] = static_cast<float>(b.translation[c]);
    }
    if (mesh_instances_[i] == nullptr) {
      RTCGeometry g = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_INSTANCE);
      rtcSetGeometryInstancedScene(g, meshes_[static_cast<std::size_t>(b.mesh)]->scene);
      rtcSetGeometryTransform(g, 0, RTC_FORMAT_FLOAT3X4_COLUMN_MAJOR, xfm);
      rtcCommitGeometry(g);
      const unsigned id = rtcAttachGeometry(top_, g);
      if (body_of_instance_.size() <= id) body_of_instance_.resize(id + 1, -1);
      body_of_instance_[id] = static_cast<std::int32_t>(i);
      mesh_instances_[i] = g;
    } else {
      rtcSetGeometryTransform(mesh_instances_[i], 0, RTC_FORMAT_FLOAT3X4_COLUMN_MAJOR, xfm);
      rtcCommitGeometry(mesh_instances_[i]);
    }
    mesh_body_dirty_[i] = 0;
  }
}

Eigen::Vector3d SolidLayer::normal(const Best& best, const ExactRay& r, std::uint32_t prim) const {
  const Eigen::Vector3d d(r.dx, r.dy, r.dz);
  if (best.slot == kGroundSlot) return Eigen::Vector3d::UnitZ();
  if (best.slot == kMeshSlot) {
    const MeshBodyRecord& b = live_mesh_bodies_[prim];
    const TriangleMesh& mesh = *meshes_[static_cast<std::size_t>(b.mesh)]->mesh;
    const auto& tri = mesh.triangles[best.prim];
    const Eigen::Vector3d& a = mesh.vertices[tri[0]];
    Eigen::Vector3d n = b.rotation * (mesh.vertices[tri[1]] - a).cross(mesh.vertices[tri[2]] - a);
    if (n.dot(d) > 0.0) n = -n;
    const double norm = n.norm();
    return norm > 0.0 ? Eigen::Vector3d(n / norm) : Eigen::Vector3d::Zero();
  }
  const SphereRecord& s = live_spheres_[best.slot - kSphereSlot][best.prim];
  const Eigen::Vector3d p = Eigen::Vector3d(r.ox, r.oy, r.oz) + best.t * d;
  const Eigen::Vector3d n = p - Eigen::Vector3d(s.cx, s.cy, s.cz);
  const double norm = n.norm();
  return norm > 0.0 ? Eigen::Vector3d(n / norm) : Eigen::Vector3d::Zero();
}

}  // namespace internal

using internal::SolidKind;

namespace {
const BodyRecord& solid_record(const std::vector<BodyRecord>& bodies, BodyId body, SolidKind kind,
                               const char* what) {
  if (body < 0 || static_cast<std::size_t>(body) >= bodies.size()) {
    fail(std::string(what) + ": no body " + std::to_string(body));
  }
  const BodyRecord& rec = bodies[body];
  if (rec.solid != kind) fail(std::string(what) + ": body " + std::to_string(body) + " is not one");
  if (!rec.dynamic) fail(std::string(what) + ": body " + std::to_string(body) + " is static");
  return rec;
}
}  // namespace

BodyId Scene::add_sphere(const Eigen::Vector3d& center, double radius, bool dynamic, int user_id) {
  if (!center.allFinite()) fail("sphere center must be finite");
  if (!std::isfinite(radius) || !(radius > 0.0)) fail("sphere radius must be > 0");
  if (user_id == kNoUserId) fail("user_id must not be kNoUserId");
  Impl& m = *impl_;
  const auto id = static_cast<BodyId>(m.bodies.size());
  BodyRecord rec{ShapeKind::kCircle, dynamic, user_id};
  rec.solid = SolidKind::kSphere;
  rec.prim =
      m.solids->add_sphere({center.x(), center.y(), center.z(), radius, id, user_id}, dynamic);
  m.bodies.push_back(rec);
  return id;
}

void Scene::update_sphere(BodyId body, const Eigen::Vector3d& center) {
  const BodyRecord& rec = solid_record(impl_->bodies, body, SolidKind::kSphere, "update_sphere");
  if (!center.allFinite()) fail("update_sphere: center must be finite");
  impl_->solids->update_sphere(rec.prim, center);
}

BodyId Scene::set_ground(double height, int user_id) {
  Impl& m = *impl_;
  if (m.solids->has_ground()) fail("set_ground: the scene already has a ground");
  if (!std::isfinite(height)) fail("ground height must be finite");
  if (user_id == kNoUserId) fail("user_id must not be kNoUserId");
  const auto id = static_cast<BodyId>(m.bodies.size());
  BodyRecord rec{ShapeKind::kPolygon, false, user_id};
  rec.solid = SolidKind::kGround;
  m.solids->set_ground({height, id, user_id});
  m.bodies.push_back(rec);
  return id;
}

}  // namespace ubot::scene
