#pragma once
// Scene::Impl: the body tables, the Embree device and scene, and the geometry slots.
//
// Layout in Embree: up to six geometries ("slots"): {static, dynamic} x {circles (user
// geometry), walls (quads with an exactness filter), prisms (user geometry: polygon inside and
// caps)}. The static ones share one child scene, built once; each dynamic one has a child scene
// of its own, rebuilt at commit(). A top scene instances the children with identity transforms.
// Measured (bench/scene_bench.cpp): Embree's two-level scene with several geometries re-merges
// its top level at every commit (~300 us with 1500 bodies); instancing keeps a commit at the
// cost of the dynamic geometries alone.
//
// Bodies are written to `staged` tables by add_body()/update_body(); commit() copies the
// changed groups to `live`, which is what Embree and the exact tests read during casts.
#include <embree3/rtcore.h>
#include <tbb/task_arena.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "scene_tables.h"
#include "solids.h"
#include "ubot/scene/scene.h"

namespace ubot::scene {

struct BodyRecord {
  ShapeKind kind;
  bool dynamic;
  int user_id;
  std::uint32_t prim = 0;  // circle or prism index within its group
  std::uint32_t first_wall = 0, wall_count = 0;
  std::uint32_t first_vertex = 0, vertex_count = 0;
  // 3D content (solids.h): the body is a sphere, mesh or the ground, and `prim` its index there.
  internal::SolidKind solid = internal::SolidKind::kNone;
};

struct GeometrySlot {
  internal::GeomDesc desc;
  RTCGeometry geometry = nullptr;
  std::size_t prim_count = 0;
  unsigned id = RTC_INVALID_GEOMETRY_ID;  // within its child scene
  bool dirty = false;                     // its tables changed since the last commit
};

struct Scene::Impl {
  Impl();
  ~Impl();

  // Throws ubot::Error if Embree reported an error since the last call.
  void throw_if_embree_error(const char* where) const;
  void record_embree_error(RTCError code, const char* message) const;
  static void on_embree_error(void* impl, RTCError code, const char* message);

  void build();              // brings Embree up to date with `live`
  bool sync_slot(int slot);  // returns whether the slot's geometry changed
  RTCScene child_of(int slot) const;
  void create_geometry(int slot, std::size_t count);
  void write_wall_quads(int slot);

  // Traces up to kMaxLanes rays as one packet.
  void trace_packet(std::span<const Ray> rays, int ignore_user_id, RTCIntersectContextFlags flags,
                    std::span<RayHit> out) const;
  RayHit resolve(const internal::Best& best, const internal::ExactRay& ray) const;

  RTCDevice device = nullptr;
  RTCScene scene = nullptr;  // the top scene: instances of `children`
  // [0] static shapes, [1 + kind] the dynamic shapes of that kind.
  std::array<RTCScene, 1 + internal::kKindCount> children{};
  std::array<RTCGeometry, 1 + internal::kKindCount> instances{};
  std::vector<BodyRecord> bodies;
  std::array<internal::GroupTables, 2> staged;  // [dynamic]
  std::array<internal::GroupTables, 2> live;
  std::array<GeometrySlot, internal::kSlotCount> slots;
  // Spheres, meshes and the ground (solids.h), instanced into `scene` next to `children`.
  std::unique_ptr<internal::SolidLayer> solids;
  double extent = 0.0;  // max |x|, |y| over all bodies ever committed (metres)
  bool committed = false;
  // Commits that touch only dynamic geometry run here, on the calling thread alone: waking TBB
  // workers for a ~100 us build costs more than it saves and leaves them spinning on the core
  // another sensor thread wants. (Embree's "threads=1" would cap TBB for the whole process.)
  tbb::task_arena serial_arena{1};

  mutable std::mutex error_mutex;
  mutable std::string embree_error;
  mutable std::atomic<bool> has_embree_error{false};
};

}  // namespace ubot::scene
