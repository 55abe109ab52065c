// Casting: rays are validated, converted to Embree packets (floats, unit directions, origins
// moved back by a small slack), traced, and answered from the exact nearest hit the callbacks
// recorded in the CastContext.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "scene_error.h"
#include "scene_impl.h"
#include "ubot/core/error.h"
#include "ubot/scene/grid_caster.h"

namespace ubot::scene {

using internal::Best;
using internal::CastContext;
using internal::ExactRay;
using internal::kMaxLanes;
namespace rtc = internal::rtc;

namespace {

// 16-wide packets (rtcIntersect16 on Embree's AVX-512 kernels) measured fastest here, ahead
// of 8- and 4-wide packets, single rays and rtcIntersect1M streams; see bench/scene_bench.cpp.
using PacketRayHit = RTCRayHit16;
static_assert(kMaxLanes == 16);

bool valid_max_distance(double d) { return !std::isnan(d) && d >= 0.0; }

// Runs of rays from one origin shorter than this stay with Embree's packets.
constexpr std::size_t kMinCoherentRun = 4 * kMaxLanes;
// cast() checks and casts this many rays at a time (the last chunk takes up to twice as many).
constexpr std::size_t kChunk = 4096;
static_assert(kChunk % kMaxLanes == 0);

// Embree takes a ray only if its float origin lies within FLT_LARGE (~1.8e18) of zero, and
// asserts otherwise; the origin it gets is `origin` moved back by the float allowance.
constexpr double kMaxEmbreeOrigin = 1e18;

bool embree_can_start_at(const Eigen::Vector3d& origin, double extent) {
  const double far = origin.cwiseAbs().maxCoeff();
  return far + internal::pad_for(extent, far) <= kMaxEmbreeOrigin;
}

const char* const kTooFarOut =
    " too far out: |coordinate| plus the float allowance (4e-6 x (scene extent + |coordinate| + "
    "1 m)) exceeds 1e18 m, Embree's single-precision range";

void check_ray(const Ray& ray, std::size_t index, double extent) {
  if (!ray.origin.allFinite() || !ray.direction.allFinite() ||
      !valid_max_distance(ray.max_distance)) {
    fail("ray " + std::to_string(index) + " has a non-finite origin/direction or a bad " +
         "max_distance");
  }
  const double n2 = ray.direction.squaredNorm();
  if (n2 == 0.0 || !std::isfinite(n2)) {
    fail("ray " + std::to_string(index) + " has a zero or huge direction");
  }
  if (!embree_can_start_at(ray.origin, extent)) {
    fail("ray " + std::to_string(index) + " starts" + kTooFarOut);
  }
}

bool same_point(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return a.x() == b.x() && a.y() == b.y() && a.z() == b.z();
}

// What check_ray() checks of a ray whose origin passed it already; n2: |direction|^2.
bool direction_ok(const Ray& ray, double n2) {
  return n2 > 0.0 && n2 < std::numeric_limits<double>::infinity() &&
         valid_max_distance(ray.max_distance);
}

// A run of rays from one origin: where it ends, and its longest ray's squared length.
struct Run {
  std::size_t end;
  double reach2;
};

// Fills lane `lane` of the packet and the context from `ray`.
void prepare_lane(const Ray& ray, unsigned lane, double extent, CastContext* ctx,
                  PacketRayHit* rh) {
  const Eigen::Vector3d& o = ray.origin;
  const Eigen::Vector3d& d = ray.direction;
  const double length = d.norm();
  const Eigen::Vector3d unit = d / length;
  // Float error allowance (metres) for this ray, both for where Embree's ray starts and for
  // how far it may go beyond an exact hit.
  const double slack = internal::pad_for(extent, o.cwiseAbs().maxCoeff());
  ctx->rays[lane] = {o.x(), o.y(), o.z(), d.x(), d.y(), d.z(), ray.max_distance};
  ctx->length[lane] = length;
  ctx->slack[lane] = slack;
  ctx->best[lane] = Best{};
  rh->ray.org_x[lane] = static_cast<float>(o.x() - slack * unit.x());
  rh->ray.org_y[lane] = static_cast<float>(o.y() - slack * unit.y());
  rh->ray.org_z[lane] = static_cast<float>(o.z() - slack * unit.z());
  rh->ray.dir_x[lane] = static_cast<float>(unit.x());
  rh->ray.dir_y[lane] = static_cast<float>(unit.y());
  rh->ray.dir_z[lane] = static_cast<float>(unit.z());
  rh->ray.tnear[lane] = 0.0f;
  rh->ray.time[lane] = 0.0f;
  const double far = ray.max_distance * length * (1.0 + internal::kRelPad) + 2.0 * slack;
  rh->ray.tfar[lane] = CastContext::float_above(far);
  rh->ray.mask[lane] = ~0u;
  rh->ray.id[lane] = lane;
  rh->ray.flags[lane] = 0;
  rh->hit.geomID[lane] = RTC_INVALID_GEOMETRY_ID;
}

// Fills unused lane `lane` as a copy of lane 0 that Embree must skip. Masking it out is not
// enough: without native 16-wide kernels (AVX2, SSE) rtcIntersect16 hands the packet to
// Embree's ray-stream filter, which ignores the valid mask and traces every lane whose
// tnear <= tfar, and asserts or crashes on garbage. tfar = -inf (below tnear = 0) is the stream
// interface's inactive ray (Embree's RTCRay docs); lane 0's origin and direction keep it finite.
void prepare_unused_lane(const Ray& first, unsigned lane, double extent, CastContext* ctx,
                         PacketRayHit* rh) {
  prepare_lane(first, lane, extent, ctx, rh);
  rh->ray.tfar[lane] = -std::numeric_limits<float>::infinity();
}

}  // namespace

void Scene::Impl::trace_packet(std::span<const Ray> rays, int ignore_user_id, rtc::QueryFlags flags,
                               std::span<RayHit> out) const {
  alignas(64) PacketRayHit rayhit;
  CastContext ctx;
  rtc::init(&ctx.embree);
  ctx.ignore_user_id = ignore_user_id;
  alignas(64) std::array<int, kMaxLanes> valid{};
  const auto count = static_cast<unsigned>(rays.size());
  for (unsigned lane = 0; lane < count; ++lane) {
    prepare_lane(rays[lane], lane, extent, &ctx, &rayhit);
    valid[lane] = -1;
  }
  for (unsigned lane = count; lane < kMaxLanes; ++lane) {
    prepare_unused_lane(rays[0], lane, extent, &ctx, &rayhit);
  }
  rtc::intersect16(valid.data(), scene, &ctx.embree, flags, &rayhit);
  for (unsigned lane = 0; lane < count; ++lane) out[lane] = resolve(ctx.best[lane], ctx.rays[lane]);
}

void Scene::cast(std::span<const Ray> rays, int ignore_user_id, std::span<RayHit> out) const {
  const Impl& m = *impl_;
  if (!m.committed) fail("cast() before the first commit()");
  if (out.size() != rays.size()) fail("cast(): out and rays differ in size");
  // Rays are checked and cast a chunk at a time (so that a chunk's rays stay in cache from the
  // check to their hits): each chunk is checked before any of its rays is cast, and on the way
  // split into the runs of rays from one origin (whose origin is checked once) with their reach.
  // Chunks are whole packets: Embree gets the same packets as over the whole span.
  thread_local std::vector<Run> runs;
  bool embree_ready = false;
  for (std::size_t c0 = 0; c0 < rays.size();) {
    const std::size_t c1 = rays.size() - c0 < 2 * kChunk ? rays.size() : c0 + kChunk;
    runs.clear();
    double reach2 = 0.0;
    for (std::size_t i = c0; i < c1; ++i) {
      const Ray& r = rays[i];
      const double n2 = r.direction.squaredNorm();
      if (i == c0 || !same_point(r.origin, rays[i - 1].origin)) {
        if (i > c0) runs.push_back({i, reach2});
        check_ray(r, i, m.extent);
        reach2 = 0.0;
      } else if (!direction_ok(r, n2)) {
        check_ray(r, i, m.extent);  // throws
      }
      reach2 = std::max(reach2, r.max_distance * r.max_distance * n2);
    }
    runs.push_back({c1, reach2});
    std::size_t run = 0;
    for (std::size_t i = c0; i < c1;) {
      // A run of whole packets from one origin (a camera, a 3D lidar without motion) takes the
      // coherent path where it applies.
      while (runs[run].end <= i) ++run;
      std::size_t end = runs[run].end;
      if (end < c1) end -= (end - i) % kMaxLanes;
      if (end - i >= kMinCoherentRun && m.cast_coherent(rays.subspan(i, end - i), runs[run].reach2,
                                                        ignore_user_id, out.subspan(i, end - i))) {
        i = end;
        continue;
      }
      if (!embree_ready) {
        m.ensure_embree();
        embree_ready = true;
      }
      // Otherwise Embree packets, up to the run's end (at least one packet).
      end = std::max(end, std::min(c1, i + kMaxLanes));
      for (; i < end; i += kMaxLanes) {
        const std::span<const Ray> packet =
            rays.subspan(i, std::min<std::size_t>(kMaxLanes, rays.size() - i));
        // Rays from one origin (scans, camera rows) trace ~30% faster as coherent packets.
        const bool shared_origin = std::all_of(packet.begin(), packet.end(), [&](const Ray& r) {
          return r.origin == packet.front().origin;
        });
        m.trace_packet(packet, ignore_user_id, shared_origin ? rtc::kCoherent : rtc::kIncoherent,
                       out.subspan(i, packet.size()));
      }
    }
    c0 = c1;
  }
  m.throw_if_embree_error("cast");
  if (m.grid) {
    thread_local std::vector<Eigen::Vector3d> origins, directions;
    origins.clear();
    directions.clear();
    for (const Ray& r : rays) {
      origins.push_back(r.origin);
      directions.push_back(r.direction);
    }
    m.apply_grid(origins, directions, rays, ignore_user_id, out);
  }
}

void Scene::Impl::apply_grid(std::span<const Eigen::Vector3d> origins,
                             std::span<const Eigen::Vector3d> directions,
                             std::span<const Ray> limits, int ignore_user_id,
                             std::span<RayHit> out) const {
  if (bodies[grid_body].user_id == ignore_user_id) return;
  // Each ray only needs the grid nearer than what it already hit.
  thread_local std::vector<double> reach;
  thread_local std::vector<GridHit> hits;
  reach.resize(out.size());
  hits.resize(out.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    reach[i] = std::min(limits[i].max_distance, out[i].distance);
  }
  grid->cast_many(origins, directions, reach, hits);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const GridHit& g = hits[i];
    RayHit& hit = out[i];
    if (!g.hit() || (hit.hit() && !(g.distance < hit.distance))) continue;
    hit.distance = g.distance;
    hit.body = grid_body;
    hit.user_id = bodies[grid_body].user_id;
    hit.normal = g.normal;
  }
}

BodyId Scene::set_grid(std::shared_ptr<const GridCaster> grid, int user_id) {
  Impl& m = *impl_;
  if (m.grid) fail("set_grid: the scene already has a grid");
  if (!grid) fail("set_grid: no grid");
  if (user_id == kNoUserId) fail("user_id must not be kNoUserId");
  const auto id = static_cast<BodyId>(m.bodies.size());
  m.bodies.push_back(BodyRecord{ShapeKind::kPolygon, false, user_id});
  m.extent = std::max(
      {m.extent, grid->lower().cwiseAbs().maxCoeff(), grid->upper().cwiseAbs().maxCoeff()});
  m.grid = std::move(grid);
  m.grid_body = id;
  return id;
}

namespace {

void check_yaws(std::span<const double> yaws, std::size_t out_size) {
  if (out_size != yaws.size()) fail("cast_fan(): out and yaws differ in size");
  for (std::size_t i = 0; i < yaws.size(); ++i) {
    if (!std::isfinite(yaws[i])) fail("cast_fan(): yaw " + std::to_string(i) + " is not finite");
  }
}

void check_table(const FanTable& table, double heading, std::size_t out_size) {
  if (out_size != table.size()) fail("cast_fan(): out and the table differ in size");
  if (!std::isfinite(heading)) fail("cast_fan(): the heading is not finite");
}

void check_hit_beams(std::span<const std::uint64_t> hit_beams, std::size_t beams) {
  if (hit_beams.size() != (beams + 63) / 64) {
    fail("cast_fan_hits(): hit_beams needs one word per 64 beams");
  }
}

}  // namespace

void Scene::cast_fan(const Eigen::Vector3d& origin, std::span<const double> yaws,
                     double max_distance, int ignore_user_id, std::span<RayHit> out) const {
  check_yaws(yaws, out.size());
  impl_->cast_fan_rays(origin, internal::fan_of_yaws(yaws), max_distance, ignore_user_id, out);
}

void Scene::cast_fan(const Eigen::Vector3d& origin, double heading, const FanTable& table,
                     double max_distance, int ignore_user_id, std::span<RayHit> out) const {
  check_table(table, heading, out.size());
  impl_->cast_fan_rays(origin, internal::fan_of_table(table, heading), max_distance, ignore_user_id,
                       out);
}

void Scene::cast_fan_hits(const Eigen::Vector3d& origin, double heading, const FanTable& table,
                          double max_distance, int ignore_user_id, std::span<RayHit> out,
                          std::span<std::uint64_t> hit_beams) const {
  check_table(table, heading, out.size());
  check_hit_beams(hit_beams, table.size());
  impl_->cast_fan_rays(origin, internal::fan_of_table(table, heading), max_distance, ignore_user_id,
                       out, hit_beams);
}

void Scene::cast_fan_hits(const Eigen::Vector3d& origin, std::span<const double> yaws,
                          double max_distance, int ignore_user_id, std::span<RayHit> out,
                          std::span<std::uint64_t> hit_beams) const {
  check_yaws(yaws, out.size());
  check_hit_beams(hit_beams, yaws.size());
  impl_->cast_fan_rays(origin, internal::fan_of_yaws(yaws), max_distance, ignore_user_id, out,
                       hit_beams);
}

void Scene::Impl::cast_fan_rays(const Eigen::Vector3d& origin, const internal::FanRays& rays,
                                double max_distance, int ignore_user_id, std::span<RayHit> out,
                                std::span<std::uint64_t> hit_beams) const {
  const Impl& m = *this;
  if (!m.committed) fail("cast_fan() before the first commit()");
  if (!origin.allFinite() || !valid_max_distance(max_distance)) {
    fail("cast_fan(): non-finite origin or bad max_distance");
  }
  if (!embree_can_start_at(origin, m.extent)) fail(std::string("cast_fan(): origin") + kTooFarOut);
  // The grid's hit is compared with every beam's, so with a grid every beam is written.
  const bool sparse = !hit_beams.empty() && !m.grid;
  // The 2D fan path knows the extruded shapes only: with 3D content a fan could meet, Embree.
  if (m.solids->can_meet_fan(origin, max_distance) ||
      !m.cast_fan_2d(origin, rays, max_distance, ignore_user_id, out,
                     sparse ? hit_beams : std::span<std::uint64_t>{})) {
    m.cast_fan_embree(origin, rays, max_distance, ignore_user_id, out);
  } else if (sparse) {
    return;
  }
  if (m.grid) {
    const std::size_t n = rays.index_yaws.size();
    thread_local std::vector<Eigen::Vector3d> origins, directions;
    thread_local std::vector<Ray> limits;
    origins.assign(n, origin);
    directions.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      rays.direction(i, &directions[i].x(), &directions[i].y());
      directions[i].z() = 0.0;
    }
    limits.assign(n, Ray{origin, Eigen::Vector3d::UnitX(), max_distance});
    m.apply_grid(origins, directions, limits, ignore_user_id, out);
  }
  if (!hit_beams.empty()) {  // every beam written: its bits from the hits, normals as promised
    std::fill(hit_beams.begin(), hit_beams.end(), 0);
    for (std::size_t i = 0; i < out.size(); ++i) {
      out[i].normal.setZero();
      if (out[i].hit()) hit_beams[i / 64] |= std::uint64_t{1} << (i % 64);
    }
  }
}

void Scene::Impl::cast_fan_embree(const Eigen::Vector3d& origin, const internal::FanRays& rays,
                                  double max_distance, int ignore_user_id,
                                  std::span<RayHit> out) const {
  const Impl& m = *this;
  m.ensure_embree();
  const std::size_t count = rays.index_yaws.size();
  std::array<Ray, kMaxLanes> batch;
  for (std::size_t i = 0; i < count; i += kMaxLanes) {
    const std::size_t n = std::min<std::size_t>(kMaxLanes, count - i);
    for (std::size_t k = 0; k < n; ++k) {
      Eigen::Vector3d d(0.0, 0.0, 0.0);
      rays.direction(static_cast<std::uint32_t>(i + k), &d.x(), &d.y());
      batch[k] = {origin, d, max_distance};
    }
    m.trace_packet(std::span<const Ray>(batch.data(), n), ignore_user_id, rtc::kCoherent,
                   out.subspan(i, n));
  }
  m.throw_if_embree_error("cast_fan");
}

}  // namespace ubot::scene
