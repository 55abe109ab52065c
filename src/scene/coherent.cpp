// The coherent path of cast(): runs of rays that share one origin (a camera's pixels, a 3D
// lidar's sweep without motion distortion), traced without Embree.
//   1. Broad phase: the shapes whose bounds lie within the run's reach of the origin (the static
//      and the moving bodies' grids, every sphere, the ground), minus the ignored body's; a prism
//      whose interior only a ray starting inside can meet, and which the origin is not inside,
//      is dropped (its walls remain).
//   2. Nested groups of consecutive rays, 4096, 256 and 16 (a camera orders its rays so that
//      these are 64 x 64, 16 x 16 and 4 x 4 pixel blocks): a group bounds its rays' direction
//      components and keeps, of its parent's shapes, those whose padded bounds some ray with
//      directions in those intervals can enter within the group's longest ray (interval slab
//      test), with a lower bound of the distance it enters at.
//   3. Each ray of a 16-ray group tests that group's shapes, lowest bound first, with the very
//      exact functions and tie rule of the Embree path's callbacks, and stops at the first shape
//      whose bound lies beyond its nearest hit.
// So every ray ends with the nearest exact hit of all shapes, as the Embree path defines it (and
// without the hits Embree's float traversal can fail to propose: scene.h).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "scene_impl.h"

namespace ubot::scene {

using internal::Best;
using internal::ExactHit;
using internal::ExactRay;
using internal::PrimKind;

namespace {

// The path declines rays reaching farther than this (metres) or starting farther out: there the
// ground's bounds (Scene::set_ground: 1e6 m) and float pads would need thought, and Embree
// serves.
constexpr double kMaxCoherentReach = 1.0e5;
// More shapes within reach than this: Embree's BVH culls them better than the flat lists here.
constexpr std::size_t kMaxCoherentShapes = 20000;
// Group sizes (rays) of the three levels.
constexpr std::size_t kPacket = 16, kTile = 16 * kPacket, kBlock = 16 * kTile;

enum class ShapeKind3 : std::uint8_t { kCircle, kWall, kPrism, kSphere, kGround };

// A shape the run can meet: its padded bounds, its record and the ids of the tie rule.
struct Shape {
  double lo[3], hi[3];
  const void* record;
  const internal::Vec2* vertices;  // prisms
  ShapeKind3 kind;
  std::uint8_t slot;
  std::uint32_t prim;
};

// A group's rays: each direction component within [lo, hi] (and the reciprocals of the bounds),
// t within [0, t_max].
struct Group {
  double lo[3], hi[3];
  double inv_lo[3], inv_hi[3];
  double t_max;
};

struct Near {
  double bound;  // no ray of the group enters the shape's bounds before this t
  std::uint32_t shape;
};

struct CoherentScratch {
  std::vector<Shape> shapes;
  std::vector<Group> packets;
  std::vector<std::uint32_t> in_block, in_tile;
  std::vector<Near> in_packet;
};

thread_local CoherentScratch t_coherent;

Group unite(const Group* g, std::size_t n) {
  Group u = g[0];
  for (std::size_t i = 1; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      u.lo[k] = std::min(u.lo[k], g[i].lo[k]);
      u.hi[k] = std::max(u.hi[k], g[i].hi[k]);
    }
    u.t_max = std::max(u.t_max, g[i].t_max);
  }
  for (int k = 0; k < 3; ++k) {
    u.inv_lo[k] = 1.0 / u.lo[k];
    u.inv_hi[k] = 1.0 / u.hi[k];
  }
  return u;
}

Group group_of(std::span<const Ray> rays) {
  Group g;
  const Eigen::Vector3d& d0 = rays[0].direction;
  for (int k = 0; k < 3; ++k) g.lo[k] = g.hi[k] = d0[k];
  g.t_max = rays[0].max_distance;
  for (const Ray& r : rays) {
    const Eigen::Vector3d& d = r.direction;
    for (int k = 0; k < 3; ++k) {
      g.lo[k] = std::min(g.lo[k], d[k]);
      g.hi[k] = std::max(g.hi[k], d[k]);
    }
    g.t_max = std::max(g.t_max, r.max_distance);
  }
  for (int k = 0; k < 3; ++k) {
    g.inv_lo[k] = 1.0 / g.lo[k];
    g.inv_hi[k] = 1.0 / g.hi[k];
  }
  return g;
}

// Whether some ray from `o` with direction components within the group's intervals enters the
// box within t in [0, t_max]; *bound gets a lower bound of where. Per axis, the union of the
// rays' slab intervals is bounded with the interval ends; the box is padded well beyond the
// rounding of these products and of the exact tests.
inline bool group_meets(const Group& g, const double* o, const Shape& s, double* bound) {
  double enter = 0.0, exit = g.t_max;
  for (int k = 0; k < 3; ++k) {
    const double a = s.lo[k] - o[k], b = s.hi[k] - o[k];
    if (a > 0.0) {  // the box lies ahead along +k: only rays with d_k > 0 reach it
      if (!(g.hi[k] > 0.0)) return false;
      enter = std::max(enter, a * g.inv_hi[k]);
      if (g.lo[k] > 0.0) exit = std::min(exit, b * g.inv_lo[k]);
    } else if (b < 0.0) {  // along -k
      if (!(g.lo[k] < 0.0)) return false;
      enter = std::max(enter, b * g.inv_lo[k]);
      if (g.hi[k] < 0.0) exit = std::min(exit, a * g.inv_hi[k]);
    } else if (g.lo[k] > 0.0) {  // the origin lies within the slab
      exit = std::min(exit, b * g.inv_lo[k]);
    } else if (g.hi[k] < 0.0) {
      exit = std::min(exit, a * g.inv_hi[k]);
    }
  }
  *bound = enter;
  return enter <= exit;
}

// The exact test of the Embree path's callback for this shape, offered to `best`.
inline void test_shape(const Shape& s, const ExactRay& r, Best& best) {
  ExactHit hit;
  switch (s.kind) {
    case ShapeKind3::kWall: {
      const auto& w = *static_cast<const internal::WallRecord*>(s.record);
      if (internal::intersect_wall(r, w.a, w.b, w.z_min, w.z_max, &hit.t)) {
        internal::offer(best, hit, w.body, s.slot, s.prim);
      }
      return;
    }
    case ShapeKind3::kGround: {
      const auto& g = *static_cast<const internal::GroundRecord*>(s.record);
      if (internal::intersect_ground(r, g.z, &hit)) internal::offer(best, hit, g.body, s.slot, 0);
      return;
    }
    case ShapeKind3::kCircle: {
      const auto& c = *static_cast<const internal::CircleRecord*>(s.record);
      if (internal::intersect_cylinder(r, c.cx, c.cy, c.radius, c.z_min, c.z_max, &hit)) {
        internal::offer(best, hit, c.body, s.slot, s.prim);
      }
      return;
    }
    case ShapeKind3::kPrism: {
      const auto& p = *static_cast<const internal::PrismRecord*>(s.record);
      if (internal::intersect_prism_interior(r, s.vertices, p.vertex_count, p.box, p.z_min, p.z_max,
                                             &hit)) {
        internal::offer(best, hit, p.body, s.slot, s.prim);
      }
      return;
    }
    case ShapeKind3::kSphere: {
      const auto& q = *static_cast<const internal::SphereRecord*>(s.record);
      if (internal::intersect_sphere(r, q.cx, q.cy, q.cz, q.radius, &hit)) {
        internal::offer(best, hit, q.body, s.slot, s.prim);
      }
      return;
    }
  }
}

}  // namespace

bool Scene::Impl::cast_coherent(std::span<const Ray> rays, double reach2, int ignore_user_id,
                                std::span<RayHit> out) const {
  const Impl& m = *this;
  CoherentScratch& scratch = t_coherent;
  const Eigen::Vector3d o = rays.front().origin;
  const double far_out = o.cwiseAbs().maxCoeff();
  if (!(far_out <= kMaxCoherentReach)) return false;
  const double reach = std::sqrt(reach2) * (1.0 + 1e-12);  // metres
  if (!(reach <= kMaxCoherentReach)) return false;         // also NaN, inf
  if (m.solids->mesh_within(o, reach, ignore_user_id)) return false;

  // Pads: far beyond the rounding of the exact tests and of the group tests here.
  const double pad = 16.0 * internal::pad_for(m.extent + reach, far_out);
  const double lim = reach + pad;
  std::vector<Shape>& shapes = scratch.shapes;
  shapes.clear();
  auto keep = [&](Shape s) {
    for (int k = 0; k < 3; ++k) {
      s.lo[k] -= pad;
      s.hi[k] += pad;
    }
    double d2 = 0.0;
    for (int k = 0; k < 3; ++k) {
      const double e = std::max({s.lo[k] - o[k], 0.0, o[k] - s.hi[k]});
      d2 += e * e;
    }
    if (d2 <= lim * lim) shapes.push_back(s);
  };
  auto gather = [&](int dynamic, PrimKind kind, std::uint32_t prim) {
    const internal::GroupTables& t = m.live[dynamic];
    const auto slot = static_cast<std::uint8_t>(internal::slot_of(dynamic != 0, kind));
    switch (kind) {
      case PrimKind::kCircle: {
        const internal::CircleRecord& c = t.circles[prim];
        if (c.user_id == ignore_user_id) return;
        keep({{c.cx - c.radius, c.cy - c.radius, c.z_min},
              {c.cx + c.radius, c.cy + c.radius, c.z_max},
              &c,
              nullptr,
              ShapeKind3::kCircle,
              slot,
              prim});
        return;
      }
      case PrimKind::kWall: {
        const internal::WallRecord& w = t.walls[prim];
        if (w.user_id == ignore_user_id) return;
        keep({{std::min(w.a.x, w.b.x), std::min(w.a.y, w.b.y), w.z_min},
              {std::max(w.a.x, w.b.x), std::max(w.a.y, w.b.y), w.z_max},
              &w,
              nullptr,
              ShapeKind3::kWall,
              slot,
              prim});
        return;
      }
      case PrimKind::kPrism: {
        const internal::PrismRecord& p = t.prisms[prim];
        if (p.user_id == ignore_user_id) return;
        const internal::Vec2* v = t.vertices.data() + p.first_vertex;
        // From within its height a ray meets the interior only by starting inside (then at 0,
        // whatever its direction): decided once for the run.
        if (o.z() >= p.z_min && o.z() <= p.z_max &&
            (!p.box.contains(o.x(), o.y()) ||
             !internal::point_in_polygon(v, p.vertex_count, o.x(), o.y()))) {
          return;
        }
        keep({{p.box.min_x, p.box.min_y, p.z_min},
              {p.box.max_x, p.box.max_y, p.z_max},
              &p,
              v,
              ShapeKind3::kPrism,
              slot,
              prim});
        return;
      }
    }
  };
  const internal::Box2 query{o.x() - lim, o.y() - lim, o.x() + lim, o.y() + lim};
  m.static_grid.query(query, [&](PrimKind kind, std::uint32_t prim) { gather(0, kind, prim); });
  m.dynamic_grid.query(query, [&](PrimKind kind, std::uint32_t prim) { gather(1, kind, prim); });
  for (int dynamic = 0; dynamic < 2; ++dynamic) {
    const std::vector<internal::SphereRecord>& spheres = m.solids->live_spheres(dynamic);
    for (std::uint32_t i = 0; i < spheres.size(); ++i) {
      const internal::SphereRecord& s = spheres[i];
      if (s.user_id == ignore_user_id) continue;
      keep({{s.cx - s.radius, s.cy - s.radius, s.cz - s.radius},
            {s.cx + s.radius, s.cy + s.radius, s.cz + s.radius},
            &s,
            nullptr,
            ShapeKind3::kSphere,
            static_cast<std::uint8_t>(internal::kSphereSlot + dynamic),
            i});
    }
  }
  if (const internal::GroundRecord* g = m.solids->ground(); g && g->user_id != ignore_user_id) {
    // Embree's ground bounds (solids.cpp): 1e6 m around the origin, down to 1e6 m below it.
    constexpr double kHalf = 1.0e6;
    if (!(o.z() - lim > g->z - kHalf)) return false;
    keep({{-kHalf, -kHalf, g->z - kHalf},
          {kHalf, kHalf, g->z},
          g,
          nullptr,
          ShapeKind3::kGround,
          static_cast<std::uint8_t>(internal::kGroundSlot),
          0});
  }
  if (shapes.size() > kMaxCoherentShapes) return false;

  const double origin[3] = {o.x(), o.y(), o.z()};
  const std::size_t n = rays.size();
  std::vector<Group>& packets = scratch.packets;
  packets.resize((n + kPacket - 1) / kPacket);
  std::vector<std::uint32_t>& in_block = scratch.in_block;
  std::vector<std::uint32_t>& in_tile = scratch.in_tile;
  std::vector<Near>& in_packet = scratch.in_packet;
  const std::size_t packet_count = packets.size();
  constexpr std::size_t kPerTile = kTile / kPacket, kPerBlock = kBlock / kPacket;
  for (std::size_t b0 = 0; b0 < packet_count; b0 += kPerBlock) {
    const std::size_t b1 = std::min(packet_count, b0 + kPerBlock);
    // The block's packets' direction bounds (its rays stay in cache for the tests below).
    for (std::size_t p = b0; p < b1; ++p) {
      packets[p] = group_of(rays.subspan(p * kPacket, std::min(kPacket, n - p * kPacket)));
    }
    const Group block = unite(&packets[b0], b1 - b0);
    in_block.clear();
    double bound;
    for (std::uint32_t s = 0; s < shapes.size(); ++s) {
      if (group_meets(block, origin, shapes[s], &bound)) in_block.push_back(s);
    }
    for (std::size_t t0 = b0; t0 < b1; t0 += kPerTile) {
      const std::size_t t1 = std::min(b1, t0 + kPerTile);
      in_tile.clear();
      if (!in_block.empty()) {
        const Group tile = unite(&packets[t0], t1 - t0);
        for (const std::uint32_t s : in_block) {
          if (group_meets(tile, origin, shapes[s], &bound)) in_tile.push_back(s);
        }
      }
      for (std::size_t p = t0; p < t1; ++p) {
        in_packet.clear();
        for (const std::uint32_t s : in_tile) {
          if (group_meets(packets[p], origin, shapes[s], &bound)) in_packet.push_back({bound, s});
        }
        const std::size_t r0 = p * kPacket, r1 = std::min(n, r0 + kPacket);
        if (in_packet.empty()) {
          std::fill(out.begin() + r0, out.begin() + r1, RayHit{});
          continue;
        }
        std::sort(in_packet.begin(), in_packet.end(),
                  [](const Near& a, const Near& b) { return a.bound < b.bound; });
        for (std::size_t i = r0; i < r1; ++i) {
          const Ray& ray = rays[i];
          // The ray's own origin: equal to o, but maybe another zero's sign.
          const ExactRay r{ray.origin.x(),    ray.origin.y(),    ray.origin.z(),  ray.direction.x(),
                           ray.direction.y(), ray.direction.z(), ray.max_distance};
          Best best;
          for (const Near& c : in_packet) {
            if (c.bound > best.t) break;
            test_shape(shapes[c.shape], r, best);
          }
          out[i] = m.resolve(best, r);
        }
      }
    }
  }
  return true;
}

}  // namespace ubot::scene
