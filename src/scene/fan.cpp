// The exact 2D fan path of cast_fan(): horizontal rays from one origin, tested shape by shape
// instead of ray by ray.
//
//   1. Broad phase (find_fan_candidates): an Embree point query on the static BVH (radius
//      max_distance, padded like the rays' bounds) and a query of the moving bodies' grid list
//      the primitives near the origin; those the fan cannot see (its own body, a z-range not
//      containing the origin's z) are dropped.
//   2. Each candidate gets its reach (fan_arcs.h): the arc of beams it may hit and a lower bound
//      of those hits' distances. Candidates are taken nearest first.
//   3. The beams in a candidate's arc (fan_beams.h: binary search in sorted yaws, angular bins
//      otherwise) run the very exact test of the ray path and offer their hit with the same tie
//      rule, unless a hit nearer than the candidate's bound already blocks them. Every beam thus
//      ends with the nearest hit of all primitives, as cast() defines it.
// A beam's direction (std::cos, std::sin of its yaw, or its FanTable direction turned by the
// scan's heading) is computed only when some shape tests it: in sparse worlds most beams meet
// nothing and cost a few nanoseconds.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "embree_api.h"
#include "fan_arcs.h"
#include "fan_beams.h"
#include "scene_impl.h"

namespace ubot::scene {

using internal::BeamIndex;
using Candidate = internal::FanCandidate;
using internal::Best;
using internal::ExactHit;
using internal::ExactRay;
using internal::FanBeams;
using internal::PrimKind;
using internal::slot_of;

namespace {

// Yaws beyond this (radians) go to the ray path: reducing them mod 2 pi would need wide pads.
constexpr double kMaxFanYaw = 1e4;

thread_local internal::FanScratch t_scratch;
thread_local std::vector<Candidate> t_candidates;

// What the point query callbacks need.
struct QueryState {
  const GeometrySlot* slots;
  double oz;
  int ignore_user_id;
  std::vector<Candidate>* out;
};

// Whether a record can be hit by a horizontal ray at height oz (the z test of every exact
// function when dz = 0) and is not the fan's own body.
template <class Record>
bool visible(const Record& r, double oz, int ignore_user_id) {
  return r.user_id != ignore_user_id && oz >= r.z_min && oz <= r.z_max;
}

bool visible(const internal::GroupTables& t, PrimKind kind, std::uint32_t prim, double oz,
             int ignore_user_id) {
  switch (kind) {
    case PrimKind::kCircle:
      return visible(t.circles[prim], oz, ignore_user_id);
    case PrimKind::kWall:
      return visible(t.walls[prim], oz, ignore_user_id);
    case PrimKind::kPrism:
      return visible(t.prisms[prim], oz, ignore_user_id);
  }
  return false;
}

// Embree calls this for each static primitive whose bounds meet the query sphere (and for the
// other primitives of their BVH leaf).
template <int kSlot>
bool collect(RTCPointQueryFunctionArguments* args) {
  const auto& q = *static_cast<const QueryState*>(args->userPtr);
  constexpr auto kind = static_cast<PrimKind>(kSlot % internal::kKindCount);
  if (visible(*q.slots[kSlot].desc.tables, kind, args->primID, q.oz, q.ignore_user_id)) {
    q.out->push_back({static_cast<std::uint8_t>(kSlot), args->primID});
  }
  return false;  // the query radius is unchanged
}

// Up to this many static primitives, every one is a candidate: reach_of() drops the far ones for
// less than Embree's point query costs (a fifth of a small world's scan went to it).
constexpr std::size_t kFewStaticPrimitives = 16;

// Every visible static primitive, in table order.
void list_all_static(const internal::GroupTables& t, double oz, int ignore_user_id,
                     std::vector<Candidate>* out) {
  auto add = [&](const auto& records, PrimKind kind) {
    for (std::uint32_t prim = 0; prim < records.size(); ++prim) {
      if (visible(records[prim], oz, ignore_user_id)) {
        out->push_back({static_cast<std::uint8_t>(slot_of(false, kind)), prim});
      }
    }
  };
  add(t.circles, PrimKind::kCircle);
  add(t.walls, PrimKind::kWall);
  add(t.prisms, PrimKind::kPrism);
}

}  // namespace

// Static candidates come from a point query on the static BVH (or, in a world of a few, all of
// them), moving ones from their grid.
void Scene::Impl::find_fan_candidates(const Eigen::Vector3d& o, double t_max, int ignore_user_id,
                                      std::vector<Candidate>* out) const {
  const Impl& m = *this;
  out->clear();
  const internal::GroupTables& fixed = m.live[0];
  const double reach =
      t_max * (1.0 + internal::kRelPad) + 2 * internal::pad_for(m.extent, o.cwiseAbs().maxCoeff());
  if (fixed.circles.size() + fixed.walls.size() + fixed.prisms.size() <= kFewStaticPrimitives) {
    list_all_static(fixed, o.z(), ignore_user_id, out);
  } else {
    query_static(o, reach, ignore_user_id, out);
  }
  const internal::Box2 box{o.x() - reach, o.y() - reach, o.x() + reach, o.y() + reach};
  m.dynamic_grid.query(box, [&](PrimKind kind, std::uint32_t prim) {
    if (visible(m.live[1], kind, prim, o.z(), ignore_user_id)) {
      out->push_back({static_cast<std::uint8_t>(slot_of(true, kind)), prim});
    }
  });
}

void Scene::Impl::query_static(const Eigen::Vector3d& o, double reach, int ignore_user_id,
                               std::vector<Candidate>* out) const {
  const Impl& m = *this;
  QueryState state{m.slots.data(), o.z(), ignore_user_id, out};
  // `reach` has the rays' own allowance: the query point's float rounding and Embree's float
  // distance tests stay far inside it, and bounds are padded as for rays.
  alignas(16) RTCPointQuery query;
  query.x = static_cast<float>(o.x());
  query.y = static_cast<float>(o.y());
  query.z = static_cast<float>(o.z());
  query.time = 0.0f;
  query.radius = internal::CastContext::float_above(reach);
  RTCPointQueryContext context;
  rtcInitPointQueryContext(&context);
  rtcPointQuery(m.children[0], &query, &context, nullptr, &state);
}

namespace {

// A candidate and what it can do to this fan.
struct Prepared {
  internal::Reach reach;
  Candidate c;
};

thread_local std::vector<Prepared> t_prepared;

// The candidate's reach from origin o; false when it can hit no beam.
bool reach_of(const GeometrySlot* slots, const Candidate& c, const Eigen::Vector3d& o, double t_max,
              double pad, internal::Reach* reach) {
  const internal::GroupTables& t = *slots[c.slot].desc.tables;
  switch (static_cast<PrimKind>(c.slot % internal::kKindCount)) {
    case PrimKind::kCircle: {
      const internal::CircleRecord& r = t.circles[c.prim];
      return internal::circle_arc(o.x(), o.y(), r.cx, r.cy, r.radius, t_max, pad, reach);
    }
    case PrimKind::kWall: {
      const internal::WallRecord& r = t.walls[c.prim];
      return internal::wall_arc(o.x(), o.y(), r.a, r.b, t_max, pad, reach);
    }
    case PrimKind::kPrism: {
      // A horizontal ray meets a prism's interior only by starting inside it (its walls do the
      // rest): one test for every direction, and then every beam is hit at 0.
      const internal::PrismRecord& r = t.prisms[c.prim];
      const ExactRay probe{o.x(), o.y(), o.z(), 1.0, 0.0, 0.0, t_max};
      ExactHit hit;
      *reach = {{0.0, 0.0, true}, 0.0};
      return internal::intersect_prism_interior(probe, t.vertices.data() + r.first_vertex,
                                                r.vertex_count, r.box, r.z_min, r.z_max, &hit);
    }
  }
  return false;
}

// Offers the candidate's exact hit to every beam it may hit, unless a hit nearer than any of
// its own already blocks the beam.
void test_candidate(const GeometrySlot* slots, const Prepared& p, const BeamIndex& index,
                    const FanBeams& beams) {
  const internal::GroupTables& t = *slots[p.c.slot].desc.tables;
  const double near = p.reach.near;
  const std::uint8_t slot = p.c.slot;
  const std::uint32_t prim = p.c.prim;
  switch (static_cast<PrimKind>(slot % internal::kKindCount)) {
    case PrimKind::kCircle: {
      const internal::CircleRecord& r = t.circles[prim];
      index.for_each(p.reach.arc, [&](std::uint32_t i) {
        ExactHit hit;
        if (!beams.blocked(i, near) &&
            internal::intersect_cylinder(beams.ray(i), r.cx, r.cy, r.radius, r.z_min, r.z_max,
                                         &hit)) {
          internal::offer(beams.best(i), hit, r.body, slot, prim);
        }
      });
      return;
    }
    case PrimKind::kWall: {
      const internal::WallRecord& r = t.walls[prim];
      index.for_each(p.reach.arc, [&](std::uint32_t i) {
        ExactHit hit;
        if (!beams.blocked(i, near) &&
            internal::intersect_wall(beams.ray(i), r.a, r.b, r.z_min, r.z_max, &hit.t)) {
          internal::offer(beams.best(i), hit, r.body, slot, prim);
        }
      });
      return;
    }
    case PrimKind::kPrism: {
      const ExactHit inside{0.0, internal::Feature::kInside};  // as intersect_prism_interior
      const BodyId body = t.prisms[prim].body;
      index.for_each(p.reach.arc, [&](std::uint32_t i) {
        if (!beams.blocked(i, 0.0)) internal::offer(beams.best(i), inside, body, slot, prim);
      });
      return;
    }
  }
}

}  // namespace

RTCPointQueryFunction Scene::Impl::fan_query_function(int slot) {
  static constexpr RTCPointQueryFunction kTable[internal::kKindCount] = {collect<0>, collect<1>,
                                                                         collect<2>};
  return kTable[slot];
}

bool Scene::Impl::cast_fan_2d(const Eigen::Vector3d& o, const internal::FanRays& rays, double t_max,
                              int ignore_user_id, std::span<RayHit> out,
                              std::span<std::uint64_t> hit_beams) const {
  if (rays.max_abs_yaw > kMaxFanYaw) return false;
  std::vector<Candidate>& candidates = t_candidates;
  find_fan_candidates(o, t_max, ignore_user_id, &candidates);
  internal::FanScratch& s = t_scratch;
  const BeamIndex index(rays.index_yaws, rays.sorted, s);
  const FanBeams beams(o.x(), o.y(), o.z(), rays, t_max, s);
  // The shift to index yaws rounds by ~u (|arc| + |heading|), far inside the pad.
  const double pad = internal::yaw_pad(rays.max_abs_yaw);
  const double shift = rays.heading.yaw;
  // Nearest first, so that far shapes find most of their beams already blocked.
  std::vector<Prepared>& prepared = t_prepared;
  prepared.clear();
  for (const Candidate& c : candidates) {
    internal::Reach reach;
    if (reach_of(slots.data(), c, o, t_max, pad, &reach)) {
      reach.arc.lo -= shift;
      reach.arc.hi -= shift;
      prepared.push_back({reach, c});
    }
  }
  std::sort(prepared.begin(), prepared.end(),
            [](const Prepared& a, const Prepared& b) { return a.reach.near < b.reach.near; });
  for (const Prepared& p : prepared) test_candidate(slots.data(), p, index, beams);
  if (hit_beams.empty()) {
    std::fill(out.begin(), out.end(), RayHit{});
  } else {
    std::fill(hit_beams.begin(), hit_beams.end(), 0);
  }
  for (const std::uint32_t i : beams.touched()) {
    const Best& b = beams.best(i);
    if (b.body == kNoBody) continue;
    if (hit_beams.empty()) {
      out[i] = resolve(b, beams.ray(i));
    } else {
      out[i] = resolve_without_normal(b);
      hit_beams[i / 64] |= std::uint64_t{1} << (i % 64);
    }
  }
  return true;
}

}  // namespace ubot::scene
