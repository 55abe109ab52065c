#pragma once
// The scene's 3D content, kept apart from the extruded 2D shapes (scene.cpp, trace.cpp): spheres,
// triangle meshes placed by rigid poses, and the ground plane. It lives in the same Embree top
// scene (so every cast sees it) as extra instances:
//   - spheres: user geometry in two child scenes (static: built once; dynamic: rebuilt at
//     commit), intersected exactly in double precision (slots kSphereSlot, kSphereSlot + 1);
//   - the ground: one user primitive attached to the top scene (slot kGroundSlot);
//   - meshes: one child scene per registered mesh (triangles, built once, robust/watertight),
//     instanced once per body with its pose; a filter refines Embree's float hits in double
//     (slot kMeshSlot).
// Like the 2D tables, records are staged by add/update and copied to the live tables (what the
// callbacks read) at commit().

#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "embree_api.h"
#include "scene_tables.h"
#include "ubot/core/triangle_mesh.h"

namespace ubot::scene::internal {

// What a body of the scene is made of (BodyRecord::solid).
enum class SolidKind : std::uint8_t { kNone, kSphere, kMesh, kGround };

// Best::slot values of the 3D content, after the 2D shapes' slots.
inline constexpr int kSphereSlot = kSlotCount;  // + 1 for dynamic spheres
inline constexpr int kGroundSlot = kSlotCount + 2;
inline constexpr int kMeshSlot = kSlotCount + 3;

struct SphereRecord {
  double cx, cy, cz, radius;
  BodyId body;
  int user_id;
};

struct GroundRecord {
  double z;
  BodyId body;
  int user_id;
};

struct MeshBodyRecord {
  Eigen::Matrix3d rotation;  // mesh frame -> world
  Eigen::Vector3d translation;
  std::int32_t mesh;
  BodyId body;
  int user_id;
};

class SolidLayer;

// User data of a sphere geometry (one per mobility class).
struct SphereDesc {
  const std::vector<SphereRecord>* spheres = nullptr;
  std::uint8_t slot = 0;
  double extent = 0.0;  // scene extent the bounds are padded for
};

// A registered mesh: its data, BVH and the user data its filter gets.
struct MeshShape {
  std::shared_ptr<const TriangleMesh> mesh;
  Eigen::Vector3d min = Eigen::Vector3d::Zero(), max = Eigen::Vector3d::Zero();  // its bounds
  RTCScene scene = nullptr;
  RTCGeometry geometry = nullptr;
  const SolidLayer* layer = nullptr;
  bool built = false;
};

class SolidLayer {
 public:
  SolidLayer(RTCDevice device, RTCScene top);
  ~SolidLayer();
  SolidLayer(const SolidLayer&) = delete;
  SolidLayer& operator=(const SolidLayer&) = delete;

  // Each returns the index of the record within its table (BodyRecord::prim).
  std::uint32_t add_sphere(const SphereRecord& sphere, bool dynamic);
  void update_sphere(std::uint32_t index, const Eigen::Vector3d& center);
  std::int32_t add_mesh(std::shared_ptr<const TriangleMesh> mesh);
  std::size_t mesh_count() const { return meshes_.size(); }
  std::uint32_t add_mesh_body(const MeshBodyRecord& body, bool dynamic);
  void update_mesh_body(std::uint32_t index, const Eigen::Isometry3d& pose);
  bool mesh_body_dynamic(std::uint32_t index) const { return mesh_dynamic_[index] != 0; }
  bool has_ground() const { return has_ground_; }
  void set_ground(const GroundRecord& ground);

  // commit(), first half: staged -> live. Returns the extent (max |x|, |y|) of the live content;
  // sets `heavy` when BVHs of static content are to be built (worth all threads) and `changed`
  // when Embree must be brought up to date.
  double stage_for_commit(bool* heavy, bool* changed);
  // Brings Embree up to date with the live content (before the top scene is committed).
  void sync(double extent);
  // Whether a horizontal fan from `origin` reaching `reach` could meet some of this content: a
  // sphere or mesh body whose bounds span the fan's height within its reach (bounds padded, so
  // the answer errs towards yes), or the ground from below it.
  bool can_meet_fan(const Eigen::Vector3d& origin, double reach) const;

  // For the coherent path (coherent.cpp), which tests spheres and the ground itself: the live
  // spheres of one mobility class, the ground once Embree has it (nullptr before), and whether a
  // mesh body not of `ignore_user_id` has bounds within `reach` of `origin` (meshes are left to
  // Embree).
  const std::vector<SphereRecord>& live_spheres(int dynamic) const {
    return live_spheres_[dynamic];
  }
  const GroundRecord* ground() const { return ground_attached_ ? &ground_ : nullptr; }
  bool mesh_within(const Eigen::Vector3d& origin, double reach, int ignore_user_id) const;

  // Unit normal at a hit of this layer (facing the ray's origin); `prim` is the body's record
  // index for meshes (BodyRecord::prim), unused otherwise.
  Eigen::Vector3d normal(const Best& best, const ExactRay& ray, std::uint32_t prim) const;

  // For the mesh filter: the live mesh body instanced as top-scene geometry `inst_id`.
  const MeshBodyRecord* mesh_body_of_instance(unsigned inst_id) const {
    return inst_id < body_of_instance_.size() && body_of_instance_[inst_id] >= 0
               ? &live_mesh_bodies_[static_cast<std::size_t>(body_of_instance_[inst_id])]
               : nullptr;
  }
  const MeshShape& mesh(std::int32_t id) const { return *meshes_[static_cast<std::size_t>(id)]; }

 private:
  void sync_spheres(int dynamic, double extent);
  void build_mesh(MeshShape& shape);

  RTCDevice device_;
  RTCScene top_;
  // Spheres: [dynamic].
  std::array<std::vector<SphereRecord>, 2> staged_spheres_, live_spheres_;
  std::array<SphereDesc, 2> sphere_desc_;
  std::array<RTCScene, 2> sphere_scenes_{};
  std::array<RTCGeometry, 2> sphere_instances_{};
  std::array<RTCGeometry, 2> sphere_geometries_{};
  std::array<unsigned, 2> sphere_geometry_ids_{};
  std::array<std::size_t, 2> sphere_counts_{};  // primitives in the Embree geometry
  std::array<bool, 2> spheres_dirty_{};
  // Ground.
  bool has_ground_ = false;
  bool ground_attached_ = false;
  GroundRecord ground_{};
  RTCGeometry ground_geometry_ = nullptr;
  // Meshes and their bodies.
  std::vector<std::unique_ptr<MeshShape>> meshes_;
  std::vector<MeshBodyRecord> staged_mesh_bodies_, live_mesh_bodies_;
  std::vector<std::uint8_t> mesh_dynamic_;
  std::vector<std::uint8_t> mesh_body_dirty_;
  std::vector<RTCGeometry> mesh_instances_;     // per mesh body, nullptr until attached
  std::vector<std::int32_t> body_of_instance_;  // top-scene geometry id -> mesh body, -1 none
  double live_extent_ = 0.0;
  std::vector<Eigen::AlignedBox3d> live_bounds_;  // world bounds of each live sphere, mesh body
};

// Embree callbacks (solids.cpp, mesh.cpp).
void sphere_bounds(const RTCBoundsFunctionArguments* args);
void sphere_intersect(const RTCIntersectFunctionNArguments* args);
void ground_bounds(const RTCBoundsFunctionArguments* args);
void ground_intersect(const RTCIntersectFunctionNArguments* args);
void mesh_filter(const RTCFilterFunctionNArguments* args);

// Exact tests (double precision), for the callbacks, the coherent path and the tests.
// Entry of the ray into the solid sphere: t = 0 with kInside when it starts inside or on it.
inline bool intersect_sphere(const ExactRay& r, double cx, double cy, double cz, double radius,
                             ExactHit* hit) {
  const double mx = r.ox - cx, my = r.oy - cy, mz = r.oz - cz;
  const double norm_m = std::sqrt(mx * mx + my * my + mz * mz);
  // |m|^2 - r^2 factored, so that it keeps its sign near the surface.
  const double c = (norm_m - radius) * (norm_m + radius);
  if (c <= 0.0) {
    *hit = {0.0, Feature::kInside};
    return true;
  }
  const double b = mx * r.dx + my * r.dy + mz * r.dz;
  if (b >= 0.0) return false;  // outside and moving away
  const double a = r.dx * r.dx + r.dy * r.dy + r.dz * r.dz;
  // b^2 - a c = a r^2 - |m x d|^2, factored against cancellation near tangency.
  const double hx = my * r.dz - mz * r.dy, hy = mz * r.dx - mx * r.dz, hz = mx * r.dy - my * r.dx;
  const double h = std::sqrt(hx * hx + hy * hy + hz * hz);
  const double dr = std::sqrt(a) * radius;
  const double disc = (dr - h) * (dr + h);
  if (disc < 0.0) return false;
  // Entry root (-b - sqrt(disc)) / a, written without cancellation.
  const double t = c / (-b + std::sqrt(disc));
  if (t > r.t_max) return false;
  *hit = {t, Feature::kSide};
  return true;
}

// The ground z = height (open half-space below): see Scene::set_ground.
inline bool intersect_ground(const ExactRay& r, double height, ExactHit* hit) {
  if (r.oz < height) {
    *hit = {0.0, Feature::kInside};
    return true;
  }
  if (!(r.dz < 0.0)) return false;
  const double t = (height - r.oz) / r.dz;
  if (t > r.t_max) return false;
  *hit = {t, Feature::kTopCap};
  return true;
}

// Möller–Trumbore in double: the parameter t where the ray o + t d meets the plane of triangle
// (a, b, c). False when the ray is parallel to it.
bool ray_triangle_plane(const Eigen::Vector3d& o, const Eigen::Vector3d& d,
                        const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                        const Eigen::Vector3d& c, double* t);

}  // namespace ubot::scene::internal
