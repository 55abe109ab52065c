// Embree callbacks: bounds of the user primitives (circles, prisms), their exact intersection,
// and the filter that turns Embree's float wall hits into exact ones.
//
// Every callback works on the lane's exact ray stored in the CastContext (found through the
// ray id, which cast() sets to the lane), never on Embree's float ray. A candidate that is a
// real hit nearer than the lane's best becomes the best, and Embree's tfar is set just beyond
// it (CastContext::embree_tfar) so that Embree keeps proposing anything that could still be
// nearer in exact arithmetic.
#include "scene_tables.h"

namespace ubot::scene::internal {
namespace {

const GeomDesc& desc_of(void* user_ptr) { return *static_cast<const GeomDesc*>(user_ptr); }

}  // namespace

void set_bounds(RTCBounds* out, double min_x, double min_y, double min_z, double max_x,
                double max_y, double max_z, double extent) {
  out->lower_x = static_cast<float>(min_x - pad_for(extent, min_x));
  out->lower_y = static_cast<float>(min_y - pad_for(extent, min_y));
  out->lower_z = static_cast<float>(min_z - pad_for(extent, min_z));
  out->upper_x = static_cast<float>(max_x + pad_for(extent, max_x));
  out->upper_y = static_cast<float>(max_y + pad_for(extent, max_y));
  out->upper_z = static_cast<float>(max_z + pad_for(extent, max_z));
}

// Offers `hit` for lane i of an intersect call and, if it is the new best, tells Embree.
void accept(const RTCIntersectFunctionNArguments* args, CastContext* ctx, unsigned i,
            const ExactHit& hit, BodyId body, std::uint8_t slot) {
  RTCRayN* ray = RTCRayHitN_RayN(args->rayhit, args->N);
  const unsigned lane = RTCRayN_id(ray, args->N, i);
  if (!ctx->offer(lane, hit, body, slot, args->primID)) return;
  RTCRayN_tfar(ray, args->N, i) = ctx->embree_tfar(lane);
  RTCHitN* out = RTCRayHitN_HitN(args->rayhit, args->N);
  RTCHitN_geomID(out, args->N, i) = args->geomID;
  RTCHitN_primID(out, args->N, i) = args->primID;
}

void circle_bounds(const RTCBoundsFunctionArguments* args) {
  const GeomDesc& desc = desc_of(args->geometryUserPtr);
  const CircleRecord& c = desc.tables->circles[args->primID];
  set_bounds(args->bounds_o, c.cx - c.radius, c.cy - c.radius, c.z_min, c.cx + c.radius,
             c.cy + c.radius, c.z_max, desc.extent);
}

void prism_bounds(const RTCBoundsFunctionArguments* args) {
  const GeomDesc& desc = desc_of(args->geometryUserPtr);
  const PrismRecord& p = desc.tables->prisms[args->primID];
  set_bounds(args->bounds_o, p.box.min_x, p.box.min_y, p.z_min, p.box.max_x, p.box.max_y, p.z_max,
             desc.extent);
}

void circle_intersect(const RTCIntersectFunctionNArguments* args) {
  const GeomDesc& desc = desc_of(args->geometryUserPtr);
  const CircleRecord& c = desc.tables->circles[args->primID];
  CastContext* ctx = cast_context(args->context);
  if (c.user_id == ctx->ignore_user_id) return;
  RTCRayN* ray = RTCRayHitN_RayN(args->rayhit, args->N);
  for (unsigned i = 0; i < args->N; ++i) {
    if (args->valid[i] == 0) continue;
    const ExactRay& r = ctx->rays[RTCRayN_id(ray, args->N, i)];
    ExactHit hit;
    if (intersect_cylinder(r, c.cx, c.cy, c.radius, c.z_min, c.z_max, &hit)) {
      accept(args, ctx, i, hit, c.body, desc.slot);
    }
  }
}

void prism_intersect(const RTCIntersectFunctionNArguments* args) {
  const GeomDesc& desc = desc_of(args->geometryUserPtr);
  const PrismRecord& p = desc.tables->prisms[args->primID];
  CastContext* ctx = cast_context(args->context);
  if (p.user_id == ctx->ignore_user_id) return;
  const Vec2* vertices = desc.tables->vertices.data() + p.first_vertex;
  RTCRayN* ray = RTCRayHitN_RayN(args->rayhit, args->N);
  for (unsigned i = 0; i < args->N; ++i) {
    if (args->valid[i] == 0) continue;
    const ExactRay& r = ctx->rays[RTCRayN_id(ray, args->N, i)];
    ExactHit hit;
    if (intersect_prism_interior(r, vertices, p.vertex_count, p.box, p.z_min, p.z_max, &hit)) {
      accept(args, ctx, i, hit, p.body, desc.slot);
    }
  }
}

void wall_filter(const RTCFilterFunctionNArguments* args) {
  const GeomDesc& desc = desc_of(args->geometryUserPtr);
  CastContext* ctx = cast_context(args->context);
  for (unsigned i = 0; i < args->N; ++i) {
    if (args->valid[i] == 0) continue;
    const std::uint32_t prim = RTCHitN_primID(args->hit, args->N, i);
    const WallRecord& w = desc.tables->walls[prim];
    const unsigned lane = RTCRayN_id(args->ray, args->N, i);
    ExactHit hit;
    if (w.user_id != ctx->ignore_user_id &&
        intersect_wall(ctx->rays[lane], w.a, w.b, w.z_min, w.z_max, &hit.t) &&
        ctx->offer(lane, hit, w.body, desc.slot, prim)) {
      RTCRayN_tfar(args->ray, args->N, i) = ctx->embree_tfar(lane);
    } else {
      args->valid[i] = 0;
    }
  }
}

}  // namespace ubot::scene::internal
