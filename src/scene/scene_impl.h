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
//
// Two broad phases read `live`: Embree's BVHs (cast(), and cast_fan() where the 2D fan path does
// not apply) and, for the 2D fan path, a point query over the static child's BVH plus a grid of
// the moving bodies. commit() rebuilds the grid and, when static geometry changed, the static
// BVH (the fan path queries it); the rest of Embree (the moving bodies' BVHs, the instances and
// the top scene) is brought up to date by the first ray cast that needs it (ensure_embree()).
// So a world whose sensors only cast fans never pays for those rebuilds (bench/scene_bench.cpp:
// ~5 us per commit with one moving body, ~120 us with 1000; a commit now costs ~0.07 us and
// ~15 us, table copy and grid included).
#include <tbb/task_arena.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "body_grid.h"
#include "embree_api.h"
#include "embree_device.h"
#include "fan_rays.h"
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
  bool dirty = false;                     // staged tables changed since the last commit
  bool stale = false;                     // the Embree geometry is behind the live tables
};

struct Scene::Impl {
  Impl();
  ~Impl();

  // Throws ubot::Error if Embree reported an error since the last call.
  // Throws what the device reported since the last check (its errors are the process's: any
  // scene may be the one to report one).
  void throw_if_embree_error(const char* where) const;

  // Brings the static child scene up to date with `live` (at commit).
  void build_static();
  // Brings the rest of Embree up to date, once per commit, on the first cast that needs it.
  // Logically const (casts see the same geometry either way); serialised by embree_mutex.
  void ensure_embree() const;
  void build_deferred();
  bool sync_slot(int slot);  // returns whether the slot's geometry changed
  RTCScene child_of(int slot) const;
  void create_geometry(int slot, std::size_t count);
  void write_wall_quads(int slot);

  // Traces 1 to kMaxLanes rays as one packet (unused lanes: see prepare_unused_lane()).
  void trace_packet(std::span<const Ray> rays, int ignore_user_id, internal::rtc::QueryFlags flags,
                    std::span<RayHit> out) const;
  RayHit resolve(const internal::Best& best, const internal::ExactRay& ray) const;
  // The same without the normal (left zero): cast_fan_hits(), whose lidar reads none.
  RayHit resolve_without_normal(const internal::Best& best) const;
  // The exact 2D fan path (fan.cpp); returns false, having written nothing, where it does not
  // apply. With hit_beams (cast_fan_hits()), it writes the hits only and sets their bits.
  bool cast_fan_2d(const Eigen::Vector3d& origin, const internal::FanRays& rays,
                   double max_distance, int ignore_user_id, std::span<RayHit> out,
                   std::span<std::uint64_t> hit_beams) const;
  // Lists the primitives a fan from `origin` may hit: near it, visible at its height.
  void find_fan_candidates(const Eigen::Vector3d& origin, double max_distance, int ignore_user_id,
                           std::vector<internal::FanCandidate>* out) const;
  // The static primitives within `reach` of `origin` (Embree's point query), visible at its
  // height.
  void query_static(const Eigen::Vector3d& origin, double reach, int ignore_user_id,
                    std::vector<internal::FanCandidate>* out) const;
  // The point query callback that lists static geometry `slot`'s primitives for fans.
  static RTCPointQueryFunction fan_query_function(int slot);

  // The coherent path (coherent.cpp): rays sharing one origin (a camera's, a 3D lidar's), culled
  // in nested groups and tested exactly, without Embree; `reach2`: the largest of their
  // max_distance^2 |direction|^2. Returns false, having written nothing, where it does not apply
  // (meshes within reach, rays reaching too far).
  bool cast_coherent(std::span<const Ray> rays, double reach2, int ignore_user_id,
                     std::span<RayHit> out) const;

  // Both cast_fan()s, their beams checked: the 2D fan path, or Embree packets where it does not
  // apply, then the grid.
  // With hit_beams (cast_fan_hits()): only the hits written, their bits set.
  void cast_fan_rays(const Eigen::Vector3d& origin, const internal::FanRays& rays,
                     double max_distance, int ignore_user_id, std::span<RayHit> out,
                     std::span<std::uint64_t> hit_beams = {}) const;
  // cast_fan()'s rays through Embree packets (where the 2D fan path does not apply).
  void cast_fan_embree(const Eigen::Vector3d& origin, const internal::FanRays& rays,
                       double max_distance, int ignore_user_id, std::span<RayHit> out) const;
  // The occupancy grid (set_grid): folds its hit into out[i] where it is nearer, for ray i from
  // origins[i] along directions[i] within limits[i].max_distance.
  void apply_grid(std::span<const Eigen::Vector3d> origins,
                  std::span<const Eigen::Vector3d> directions, std::span<const Ray> limits,
                  int ignore_user_id, std::span<RayHit> out) const;

  std::shared_ptr<const GridCaster> grid;
  BodyId grid_body = kNoBody;
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
  bool static_instance_stale = false;  // the static child changed since the top scene's build
  internal::BodyGrid dynamic_grid;     // the fan path's broad phase for moving bodies
  internal::BodyGrid static_grid;      // the coherent path's for static ones (rebuilt at commit)
  mutable std::mutex embree_mutex;
  mutable std::atomic<bool> embree_ready{false};
  // The deferred rebuild of the moving bodies' BVHs runs here, on the casting thread alone:
  // waking TBB workers for a ~100 us build costs more than it saves and leaves them spinning on
  // the core another sensor thread wants. (Embree's "threads=1" would cap TBB for the whole
  // process.)
  tbb::task_arena serial_arena{1};

  internal::EmbreeErrors* errors = nullptr;  // the shared device's (embree_device.h)
};

// Inline: every cast path calls them per hit.
inline RayHit Scene::Impl::resolve_without_normal(const internal::Best& best) const {
  RayHit hit;
  if (best.body == kNoBody) return hit;
  hit.distance = best.t;
  hit.body = best.body;
  if (best.slot >= internal::kSlotCount) {  // 3D content (solids.h)
    hit.user_id = bodies[best.body].user_id;
    return hit;
  }
  // The user id from the primitive's record, which the exact test just read (bodies[] is one
  // more cache miss per hit in a large world).
  const internal::GroupTables& t = *slots[best.slot].desc.tables;
  switch (slots[best.slot].desc.kind) {
    case internal::PrimKind::kCircle:
      hit.user_id = t.circles[best.prim].user_id;
      break;
    case internal::PrimKind::kWall:
      hit.user_id = t.walls[best.prim].user_id;
      break;
    case internal::PrimKind::kPrism:
      hit.user_id = t.prisms[best.prim].user_id;
      break;
  }
  return hit;
}

inline RayHit Scene::Impl::resolve(const internal::Best& best, const internal::ExactRay& r) const {
  RayHit hit = resolve_without_normal(best);
  if (best.body == kNoBody || best.feature == internal::Feature::kInside) return hit;  // zero
  if (best.slot >= internal::kSlotCount) {  // 3D content (solids.h)
    // The ground's here: a camera's most common hit.
    hit.normal = best.slot == internal::kGroundSlot
                     ? Eigen::Vector3d::UnitZ()
                     : solids->normal(best, r, bodies[best.body].prim);
    return hit;
  }
  switch (best.feature) {
    case internal::Feature::kBottomCap:
      hit.normal = -Eigen::Vector3d::UnitZ();
      return hit;
    case internal::Feature::kTopCap:
      hit.normal = Eigen::Vector3d::UnitZ();
      return hit;
    case internal::Feature::kInside:
    case internal::Feature::kSide:
      break;
  }
  const internal::GeomDesc& desc = slots[best.slot].desc;
  Eigen::Vector2d n;
  if (desc.kind == internal::PrimKind::kCircle) {
    const internal::CircleRecord& c = desc.tables->circles[best.prim];
    n = {r.ox + best.t * r.dx - c.cx, r.oy + best.t * r.dy - c.cy};
  } else {
    const internal::WallRecord& w = desc.tables->walls[best.prim];
    n = {w.b.y - w.a.y, w.a.x - w.b.x};
    if (n.x() * r.dx + n.y() * r.dy > 0.0) n = -n;  // face the ray's origin
  }
  const double norm = n.norm();
  if (norm > 0.0) hit.normal = {n.x() / norm, n.y() / norm, 0.0};
  return hit;
}

}  // namespace ubot::scene
