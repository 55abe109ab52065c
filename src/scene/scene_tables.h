#pragma once
// The scene's own tables of shapes (what Embree's primitives stand for), the extended
// intersection context that carries each ray's exact double-precision form and nearest hit so
// far, and the Embree callbacks that read them.

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "embree_api.h"
#include "exact_geometry.h"
#include "ubot/scene/scene.h"

namespace ubot::scene::internal {

// Relative allowance for Embree's single-precision arithmetic (float epsilon is 6e-8; this is
// ~60 ulps). Geometry bounds and walls are enlarged, and Embree's ray interval extended, by
// kRelPad * (scene extent + |coordinate| + 1 m) so that Embree never culls a true hit; the exact
// tests then reject the false candidates this lets through.
inline constexpr double kRelPad = 4e-6;
inline double pad_for(double extent, double coordinate) {
  return kRelPad * (extent + std::abs(coordinate) + 1.0);
}

struct CircleRecord {
  double cx, cy, radius, z_min, z_max;
  BodyId body;
  int user_id;
};

struct WallRecord {  // one edge of a polygon or polyline
  Vec2 a, b;
  double z_min, z_max;
  BodyId body;
  int user_id;
};

struct PrismRecord {  // a closed polygon's inside and caps; its edges are walls
  std::uint32_t first_vertex, vertex_count;
  Box2 box;
  double z_min, z_max;
  BodyId body;
  int user_id;
};

// All shapes of one mobility class (static or dynamic).
struct GroupTables {
  std::vector<CircleRecord> circles;
  std::vector<WallRecord> walls;
  std::vector<PrismRecord> prisms;
  std::vector<Vec2> vertices;  // polygon vertices referenced by prisms
};

enum class PrimKind : std::uint8_t { kCircle, kWall, kPrism };
inline constexpr int kKindCount = 3;
inline constexpr int kSlotCount = 2 * kKindCount;  // {static, dynamic} x kinds
inline constexpr int slot_of(bool dynamic, PrimKind kind) {
  return (dynamic ? kKindCount : 0) + static_cast<int>(kind);
}

// Per-geometry user data handed to Embree; the geometry id equals `slot`.
struct GeomDesc {
  const GroupTables* tables = nullptr;
  PrimKind kind = PrimKind::kCircle;
  std::uint8_t slot = 0;
  double extent = 0.0;  // scene extent used for the padding of this geometry's bounds
};

// The nearest exact hit of one ray so far; ties broken by (body, slot, prim) for determinism
// independent of Embree's traversal order.
struct Best {
  double t = kInf;
  BodyId body = kNoBody;
  std::uint8_t slot = 0;
  Feature feature = Feature::kSide;
  std::uint32_t prim = 0;
};

// Records `hit` in `b` if it is nearer than b (ties: lower body, slot, prim); returns whether it
// was. The one tie rule of every cast path.
inline bool offer(Best& b, const ExactHit& hit, BodyId body, std::uint8_t slot,
                  std::uint32_t prim) {
  if (hit.t != b.t) {
    if (hit.t > b.t) return false;
  } else if (body != b.body) {
    if (body > b.body) return false;
  } else if (slot != b.slot ? slot > b.slot : prim >= b.prim) {
    return false;
  }
  b = {hit.t, body, slot, hit.feature, prim};
  return true;
}

// A primitive a 2D fan may hit.
struct FanCandidate {
  std::uint8_t slot;
  std::uint32_t prim;
};

inline constexpr int kMaxLanes = 16;

struct CastContext {
  rtc::QueryContext embree;  // first member: Embree hands its address back to callbacks
  int ignore_user_id;
  ExactRay rays[kMaxLanes];
  double length[kMaxLanes];  // |direction|: Embree traces unit directions in metres
  double slack[kMaxLanes];   // metres of float error allowed on Embree's side of each ray
  Best best[kMaxLanes];

  // Records the hit if nearer than the lane's best; returns whether it was.
  bool offer(unsigned lane, const ExactHit& hit, BodyId body, std::uint8_t slot,
             std::uint32_t prim) {
    return internal::offer(best[lane], hit, body, slot, prim);
  }

  // Embree-side far limit that still admits every candidate as near as the lane's best.
  float embree_tfar(unsigned lane) const {
    const double t = best[lane].t;
    if (!(t < kInf)) return std::numeric_limits<float>::infinity();
    return float_above(t * length[lane] * (1.0 + kRelPad) + 2.0 * slack[lane]);
  }

  // A float >= x (x >= 0): scaling by 1 + 2^-22 outweighs the rounding (<= 2^-24 relative).
  static float float_above(double x) { return static_cast<float>(x * (1.0 + 0x1p-22)); }
};

inline CastContext* cast_context(rtc::QueryContext* context) {
  return reinterpret_cast<CastContext*>(context);
}

// Embree 4 hands filter callbacks a const context; the CastContext behind it is ubot's own,
// not const (Scene::Impl::trace_packet's), so writing the lane's best there is defined.
inline CastContext* cast_context(const rtc::QueryContext* context) {
  return cast_context(const_cast<rtc::QueryContext*>(context));
}

// Shared by the user-geometry callbacks (embree_callbacks.cpp): padded float bounds, and
// offering an exact hit for lane i of an intersect call (if it is the new best, Embree is told).
void set_bounds(RTCBounds* out, double min_x, double min_y, double min_z, double max_x,
                double max_y, double max_z, double extent);
void accept(const RTCIntersectFunctionNArguments* args, CastContext* ctx, unsigned i,
            const ExactHit& hit, BodyId body, std::uint8_t slot);

// Embree callbacks (embree_callbacks.cpp).
void circle_bounds(const RTCBoundsFunctionArguments* args);
void prism_bounds(const RTCBoundsFunctionArguments* args);
void circle_intersect(const RTCIntersectFunctionNArguments* args);
void prism_intersect(const RTCIntersectFunctionNArguments* args);
void wall_filter(const RTCFilterFunctionNArguments* args);

}  // namespace ubot::scene::internal
