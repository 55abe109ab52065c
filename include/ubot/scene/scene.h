#pragma once
// Ray casting over the world's geometry, with Embree 3.
//
// The scene holds one body per world object that sensors can see: an exact vertical cylinder for
// a circle (Embree user geometry, intersected analytically), and vertical quads for the edges of
// polygons (closed) and polylines (open), each extruded between z_min and z_max. Closed bodies
// are solids: a ray coming from above or below enters through their flat top or bottom face.
// Moving (dynamic) bodies get a BVH of their own, rebuilt after a commit() by the first ray cast
// that needs it; static bodies are built once (again only if bodies are added later, or moving
// bodies go twice as far out as any body had gone before).
//
// Three paths compute the same exact answer:
//   - cast() (and cast_fan() where the fan path does not apply): Embree traces 16-wide packets
//     in single precision, with bounds and walls padded so it proposes every candidate;
//   - cast(), runs of at least 64 rays from one origin (cameras, a 3D lidar's sweep without
//     motion distortion): the coherent path (coherent.cpp) lists the shapes within the rays'
//     reach (grids of the static and the moving bodies, the spheres, the ground), keeps per group
//     of consecutive rays (4096, 256, 16) those the group's directions can reach, and tests each
//     ray against its 16-ray group's shapes, nearest bound first. No Embree: a 640 x 480 camera
//     image's rays cost 0.85x raw Embree's 16-wide packets on the same geometry (which compute
//     nothing exact), 0.6x on AVX2 (bench/camera_bench.cpp). It leaves to Embree the runs with a
//     mesh within reach, or reaching or starting beyond 1e5 m;
//   - cast_fan() and cast_fan_hits(), horizontal rays from one origin (lidar2d; beams given by
//     their yaws or by a FanTable turned by a heading): the 2D fan path lists the bodies within
//     max_distance (a point query on the static BVH, a grid of the moving bodies; each of the
//     two simply all of them when it holds at most 16 primitives), finds for each the arc of
//     beams it can reach, and tests only those beams, nearest shapes first.
//     It does not use Embree's ray traversal at all: 3.5x faster for the fans of 1000 robots,
//     20x for a fan that meets nothing (bench/scene_bench.cpp).
// Either way every candidate is decided and measured in double precision against the exact
// shape, and the nearest one wins (ties by lower body id), so ranges are exact (~1e-15
// relative: ~1e-12 m at 10 km from the origin, as tested). A ray that starts inside (or on) a
// closed body other than the ignored one hits it at distance 0. Rays within ~1e-14 rad of
// parallel to a wall miss it; near-tangent rays may go either way within ~1e-15 relative.
// The fan and coherent paths test every candidate that can hit, so they give the exact nearest
// hit on every ray. The Embree path can lose one that Embree's single precision fails to
// propose: a ray starting on (within float rounding of) a wall at grazing incidence, and, much
// farther from the origin than any body, at grazing incidence on corners (~5 in 10^5 beams in
// the random tests, which often start fans on walls and vertices).
//
// 3D content (solids.cpp, mesh.cpp): spheres (exact, like circles), triangle meshes placed by a
// rigid pose, and a ground plane, seen by cast(); cast_fan() takes the Embree path when the
// scene has any (the 2D fan path knows the extruded shapes only). See "3D content" below.
//
// Thread safety: cast functions are const and may run concurrently (the deferred BVH rebuild is
// serialised inside); update_body() and commit() (and the 3D content's add/update functions)
// must not overlap them.
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "ubot/core/triangle_mesh.h"
#include "ubot/scene/fan_table.h"

namespace ubot::scene {

class GridCaster;

enum class ShapeKind { kCircle, kPolygon, kPolyline };

// A body's geometry in world coordinates (metres).
struct BodyGeometry {
  ShapeKind kind = ShapeKind::kCircle;
  Eigen::Vector2d center = Eigen::Vector2d::Zero();  // circle centre
  double radius = 0.0;                               // circle radius
  std::vector<Eigen::Vector2d> vertices;             // polygon (implicitly closed) or polyline
  double z_min = -kUnboundedHeight;                  // vertical extent of the extrusion
  double z_max = kUnboundedHeight;

  // Default vertical extent: far beyond any sensor, so a body "reaches from below to above
  // every scan plane".
  static constexpr double kUnboundedHeight = 1.0e4;
};

using BodyId = std::int32_t;
inline constexpr BodyId kNoBody = -1;
// An ignore_user_id that hides nothing (add_body() rejects it as a body's user id).
inline constexpr int kNoUserId = std::numeric_limits<int>::min();

// A ray in world coordinates. `direction` need not be unit length; distances are reported in
// units of |direction| (so pass unit vectors to get metres). Casts refuse an origin whose largest
// |coordinate| plus the float allowance, 4e-6 x (scene extent + |coordinate| + 1 m), exceeds
// 1e18 m: Embree takes no float ray origin beyond ~1.8e18 m.
struct Ray {
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  Eigen::Vector3d direction = Eigen::Vector3d::UnitX();
  double max_distance = std::numeric_limits<double>::infinity();
};

struct RayHit {
  double distance = std::numeric_limits<double>::infinity();  // inf when nothing was hit
  BodyId body = kNoBody;                                      // kNoBody when nothing was hit
  // The hit body's user_id (what Scene::user_id(body) returns), kNoUserId when nothing was hit:
  // a scan asks it for every beam, and the cast has the body's record at hand already.
  int user_id = kNoUserId;
  // Unit surface normal at the hit in world coordinates, facing the ray's origin side
  // (zero for a hit at distance 0 from inside a body).
  Eigen::Vector3d normal = Eigen::Vector3d::Zero();
  bool hit() const { return body != kNoBody; }
};

class Scene {
 public:
  Scene();
  ~Scene();
  Scene(const Scene&) = delete;
  Scene& operator=(const Scene&) = delete;

  // Adds a body and returns its id (dense, 0, 1, 2, ... in the order of addition). `user_id` is
  // the caller's id for it (e.g. the world object index), returned by user_id(). Only dynamic
  // bodies may be updated later. Throws ubot::Error on degenerate geometry (radius <= 0, a
  // polygon with < 3 vertices, a polyline with < 2, non-finite values, z_min >= z_max) or
  // user_id == kNoUserId.
  BodyId add_body(const BodyGeometry& geometry, bool dynamic, int user_id);
  // Replaces a dynamic body's geometry; kind and vertex count must not change. Takes effect at
  // the next commit().
  void update_body(BodyId body, const BodyGeometry& geometry);
  // Builds (first call) or updates (later calls) the acceleration structure; bodies added or
  // updated since the last commit() become visible to casts only then.
  void commit();

  int user_id(BodyId body) const;
  std::size_t body_count() const;

  // Casts rays; out[i] receives the nearest hit of rays[i] with distance in [0, max_distance].
  // Bodies whose user_id equals `ignore_user_id` are invisible to these rays (a sensor's own
  // body). Every ray is checked before any is cast (a bad one throws, naming its index). Runs of
  // rays from one origin take the coherent path where it applies (their order matters for speed
  // only: consecutive rays with close directions are culled together, as a camera's 4 x 4 pixel
  // tiles are), the others are traced by Embree in packets.
  void cast(std::span<const Ray> rays, int ignore_user_id, std::span<RayHit> out) const;

  // A horizontal fan from `origin`: ray i points at world yaw `yaws[i]` (radians, in the xy
  // plane; any order, any spacing). Same semantics as cast(); this is the lidar2d hot path, on
  // the 2D fan path unless |yaw| > 1e4.
  void cast_fan(const Eigen::Vector3d& origin, std::span<const double> yaws, double max_distance,
                int ignore_user_id, std::span<RayHit> out) const;
  // The same for a fixed pattern (a lidar's beams without angle noise): ray i points at yaw
  // heading + table.angles()[i], along table.direction(FanTable::heading(heading), i): the
  // table's direction turned by one sincos of the heading instead of one a beam (fan_table.h).
  // out.size() == table.size().
  void cast_fan(const Eigen::Vector3d& origin, double heading, const FanTable& table,
                double max_distance, int ignore_user_id, std::span<RayHit> out) const;
  // Either form, writing only the beams that hit: out[i] (distance, body, user_id; the normal
  // left zero) and bit i % 64 of hit_beams[i / 64] for each, every other bit cleared and every
  // other entry of out left as it was. A scan that meets little then costs little more than its
  // hits (lidar2d's path: it reads the bits, and no normal). hit_beams.size() == (n + 63) / 64
  // for n beams.
  void cast_fan_hits(const Eigen::Vector3d& origin, double heading, const FanTable& table,
                     double max_distance, int ignore_user_id, std::span<RayHit> out,
                     std::span<std::uint64_t> hit_beams) const;
  void cast_fan_hits(const Eigen::Vector3d& origin, std::span<const double> yaws,
                     double max_distance, int ignore_user_id, std::span<RayHit> out,
                     std::span<std::uint64_t> hit_beams) const;

  // ---- 3D content -------------------------------------------------------------------------------
  // Bodies made here share the body ids, user ids, ignore rule and commit() of add_body(); they
  // are updated with their own update functions (update_body() refuses them).
  //
  // A solid sphere, exact in double precision like circles (a ray starting inside hits at 0).
  // Throws ubot::Error on a non-finite centre, radius <= 0 or user_id == kNoUserId.
  BodyId add_sphere(const Eigen::Vector3d& center, double radius, bool dynamic, int user_id);
  void update_sphere(BodyId body, const Eigen::Vector3d& center);

  // Registers a triangle mesh (in its own frame) that bodies then place; the mesh's BVH is built
  // once, at the next commit(), whatever the number of bodies placing it. Throws on an empty
  // mesh, non-finite vertices or out-of-range indices.
  using MeshId = std::int32_t;
  MeshId add_mesh(std::shared_ptr<const TriangleMesh> mesh);
  // Places mesh `mesh` at `pose` (rigid: p_W = pose * p_M). A mesh is a surface, hit from either
  // side (no inside). Exactness: Embree (single precision, watertight) decides which triangle a
  // ray meets, and the distance is the double-precision intersection with that triangle's plane
  // in the mesh frame, so it is exact (~1e-15 relative) inside triangles and within Embree's
  // float tolerance (~1e-7 x the coordinates' magnitude) of the surface at edges.
  BodyId add_mesh_body(MeshId mesh, const Eigen::Isometry3d& pose, bool dynamic, int user_id);
  void update_mesh_body(BodyId body, const Eigen::Isometry3d& pose);

  // The ground: the open half-space below z = `height`. A ray going down through the plane hits
  // it (normal +z), a ray starting below it hits at 0; a ray starting on the plane going up or
  // level does not hit it, so a 2D scan at the ground's height is unaffected. At most one.
  BodyId set_ground(double height, int user_id);

  // An occupancy grid (grid_caster.h), cast by its DDA next to everything else: every cast()
  // and cast_fan() ray takes the nearer of the grid's hit and the other bodies' (ties go to the
  // other bodies). Its cells report this one body. At most one; static.
  BodyId set_grid(std::shared_ptr<const GridCaster> grid, int user_id);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ubot::scene
