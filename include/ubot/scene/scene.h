#pragma once
// Ray casting over the world's geometry, with Embree 3.
//
// The scene holds one body per world object that sensors can see: an exact vertical cylinder for
// a circle (Embree user geometry, intersected analytically), and vertical quads for the edges of
// polygons (closed) and polylines (open), each extruded between z_min and z_max. Moving bodies
// are updated in place and the BVH is refit at commit(); static bodies are built once.
//
// Embree finds the nearest candidate in single precision; the distance of that candidate is then
// recomputed in double precision against the exact shape, so ranges are exact (to ~1e-12 m)
// whatever the coordinates. A ray that starts inside a closed body (circle or polygon) other
// than the ignored one hits it at distance 0.
//
// Thread safety: cast functions are const and may run concurrently; update_body() and commit()
// must not overlap them.
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include <Eigen/Core>

namespace ubot::scene {

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
// units of |direction| (so pass unit vectors to get metres).
struct Ray {
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  Eigen::Vector3d direction = Eigen::Vector3d::UnitX();
  double max_distance = std::numeric_limits<double>::infinity();
};

struct RayHit {
  double distance = std::numeric_limits<double>::infinity();  // inf when nothing was hit
  BodyId body = kNoBody;                                      // kNoBody when nothing was hit
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
  // polygon with < 3 vertices, a polyline with < 2).
  BodyId add_body(const BodyGeometry& geometry, bool dynamic, int user_id);
  // Replaces a dynamic body's geometry; kind and vertex count must not change. Takes effect at
  // the next commit().
  void update_body(BodyId body, const BodyGeometry& geometry);
  // Builds (first call) or refits (later calls) the acceleration structure.
  void commit();

  int user_id(BodyId body) const;
  std::size_t body_count() const;

  // Casts rays; out[i] receives the nearest hit of rays[i] with distance in [0, max_distance].
  // Bodies whose user_id equals `ignore_user_id` are invisible to these rays (a sensor's own
  // body). Rays are traced in packets.
  void cast(std::span<const Ray> rays, int ignore_user_id, std::span<RayHit> out) const;

  // A horizontal fan from `origin`: ray i points at world yaw `yaws[i]` (radians, in the xy
  // plane). Same semantics as cast(); this is the lidar2d hot path.
  void cast_fan(const Eigen::Vector3d& origin, std::span<const double> yaws, double max_distance,
                int ignore_user_id, std::span<RayHit> out) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ubot::scene
