// Scene: body bookkeeping, validation, and building/updating the Embree scene at commit().
// Casting lives in trace.cpp, Embree callbacks in embree_callbacks.cpp.
#include "ubot/scene/scene.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "embree_device.h"
#include "scene_error.h"
#include "scene_impl.h"
#include "ubot/core/error.h"

namespace ubot::scene {

using internal::CircleRecord;
using internal::GroupTables;
using internal::kSlotCount;
using internal::PrimKind;
using internal::PrismRecord;
using internal::slot_of;
using internal::Vec2;
using internal::WallRecord;

namespace {

// Dynamic geometries are rebuilt at every commit with Embree's Morton builder; static ones are
// built once with its SAH builder. Measured in bench/scene_bench.cpp, 1000 robots: Morton
// rebuild ~120 us per commit and the fastest casts (user-geometry leaves of one primitive), with
// no decay however far robots move; refit ~20 us per commit but 1.5x slower casts (the refit
// builder starts from SAH leaves of several circles) that collapse 40x once robots have
// wandered across the world. Both commits are small next to the 1000 fans cast per step.
constexpr RTCBuildQuality kDynamicQuality = RTC_BUILD_QUALITY_LOW;
constexpr RTCBuildQuality kStaticQuality = RTC_BUILD_QUALITY_MEDIUM;

bool finite(const Eigen::Vector2d& v) { return std::isfinite(v.x()) && std::isfinite(v.y()); }

void validate(const BodyGeometry& g) {
  if (!std::isfinite(g.z_min) || !std::isfinite(g.z_max) || !(g.z_min < g.z_max)) {
    fail("body z_min/z_max must be finite with z_min < z_max");
  }
  switch (g.kind) {
    case ShapeKind::kCircle:
      if (!finite(g.center)) fail("circle center must be finite");
      if (!std::isfinite(g.radius) || !(g.radius > 0.0)) fail("circle radius must be > 0");
      return;
    case ShapeKind::kPolygon:
    case ShapeKind::kPolyline: {
      const std::size_t min = g.kind == ShapeKind::kPolygon ? 3 : 2;
      if (g.vertices.size() < min) {
        fail(std::string(g.kind == ShapeKind::kPolygon ? "polygon" : "polyline") + " needs >= " +
             std::to_string(min) + " vertices, got " + std::to_string(g.vertices.size()));
      }
      if (!std::all_of(g.vertices.begin(), g.vertices.end(), finite)) {
        fail("vertices must be finite");
      }
      return;
    }
  }
  fail("unknown shape kind");
}

Vec2 vec(const Eigen::Vector2d& v) { return {v.x(), v.y()}; }

// Writes the body's records into `t` at the places `rec` reserves.
void write_body(GroupTables& t, const BodyRecord& rec, BodyId id, const BodyGeometry& g) {
  if (g.kind == ShapeKind::kCircle) {
    t.circles[rec.prim] = {g.center.x(), g.center.y(), g.radius, g.z_min, g.z_max, id, rec.user_id};
    return;
  }
  const std::size_t n = g.vertices.size();
  for (std::uint32_t i = 0; i < rec.wall_count; ++i) {
    t.walls[rec.first_wall + i] = {
        vec(g.vertices[i]), vec(g.vertices[(i + 1) % n]), g.z_min, g.z_max, id, rec.user_id};
  }
  if (g.kind != ShapeKind::kPolygon) return;
  internal::Box2 box{kInf, kInf, -kInf, -kInf};
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Vector2d& v = g.vertices[i];
    t.vertices[rec.first_vertex + i] = vec(v);
    box = {std::min(box.min_x, v.x()), std::min(box.min_y, v.y()), std::max(box.max_x, v.x()),
           std::max(box.max_y, v.y())};
  }
  t.prisms[rec.prim] = {rec.first_vertex, rec.vertex_count, box, g.z_min, g.z_max, id, rec.user_id};
}

double extent_of(const GroupTables& t) {
  double e = 0.0;
  for (const CircleRecord& c : t.circles) {
    e = std::max({e, std::abs(c.cx) + c.radius, std::abs(c.cy) + c.radius});
  }
  for (const WallRecord& w : t.walls) {
    e = std::max({e, std::abs(w.a.x), std::abs(w.a.y), std::abs(w.b.x), std::abs(w.b.y)});
  }
  return e;
}

std::size_t prim_count(const GroupTables& t, PrimKind kind) {
  switch (kind) {
    case PrimKind::kCircle:
      return t.circles.size();
    case PrimKind::kWall:
      return t.walls.size();
    case PrimKind::kPrism:
      return t.prisms.size();
  }
  return 0;
}

}  // namespace

Scene::Impl::Impl() {
  // Default threading: BVH builds may use Embree's TBB workers; results do not depend on the
  // BVH's shape (exact nearest hit with a deterministic tie-break), so they stay deterministic.
  // UBOT_EMBREE_CONFIG may choose the kernels (embree_device.h); the answers do not depend on
  // them either.
  const internal::SharedDevice shared = internal::shared_embree_device();
  device = shared.device;
  errors = shared.errors;
  scene = rtcNewScene(device);
  rtcSetSceneFlags(scene, RTC_SCENE_FLAG_DYNAMIC);
  rtcSetSceneBuildQuality(scene, RTC_BUILD_QUALITY_LOW);
  const float identity[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  for (std::size_t c = 0; c < children.size(); ++c) {
    children[c] = rtcNewScene(device);
    // Robust (watertight) wall tests: a wall quad's diagonal crosses z = 0 at the wall's middle,
    // and the default tests lose rays that hit it within float rounding.
    const RTCSceneFlags robust = RTC_SCENE_FLAG_ROBUST;
    if (c > 0) {  // dynamic: a per-geometry BVH rebuilt after each commit, when first needed
      rtcSetSceneFlags(children[c], robust | RTC_SCENE_FLAG_DYNAMIC);
      rtcSetSceneBuildQuality(children[c], RTC_BUILD_QUALITY_LOW);
    } else {
      rtcSetSceneFlags(children[c], robust);
    }
    rtcCommitScene(children[c]);
    instances[c] = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_INSTANCE);
    rtcSetGeometryInstancedScene(instances[c], children[c]);
    rtcSetGeometryTransform(instances[c], 0, RTC_FORMAT_FLOAT3X4_COLUMN_MAJOR, identity);
    rtcCommitGeometry(instances[c]);
    rtcAttachGeometry(scene, instances[c]);
  }
  solids = std::make_unique<internal::SolidLayer>(device, scene);
  for (int s = 0; s < kSlotCount; ++s) {
    const bool dynamic = s >= internal::kKindCount;
    slots[s].desc.tables = &live[dynamic];
    slots[s].desc.kind = static_cast<PrimKind>(s % internal::kKindCount);
    slots[s].desc.slot = static_cast<std::uint8_t>(s);
  }
  throw_if_embree_error("construction");
}

RTCScene Scene::Impl::child_of(int slot) const {
  return slot < internal::kKindCount ? children[0] : children[1 + slot % internal::kKindCount];
}

Scene::Impl::~Impl() {
  solids.reset();
  for (GeometrySlot& slot : slots) {
    if (slot.geometry != nullptr) rtcReleaseGeometry(slot.geometry);
  }
  for (RTCGeometry g : instances) {
    if (g != nullptr) rtcReleaseGeometry(g);
  }
  if (scene != nullptr) rtcReleaseScene(scene);
  for (RTCScene c : children) {
    if (c != nullptr) rtcReleaseScene(c);
  }
  if (device != nullptr) rtcReleaseDevice(device);
}

void Scene::Impl::throw_if_embree_error(const char* where) const {
  if (!errors->any.load(std::memory_order_relaxed)) return;
  std::string message;
  {
    std::lock_guard lock(errors->mutex);
    message = std::move(errors->first);
    errors->any.store(false);
  }
  fail(message + " (in " + where + ")");
}

void Scene::Impl::write_wall_quads(int slot) {
  GeometrySlot& s = slots[slot];
  const std::vector<WallRecord>& walls = s.desc.tables->walls;
  auto* v = static_cast<float*>(rtcGetGeometryBufferData(s.geometry, RTC_BUFFER_TYPE_VERTEX, 0));
  const double extent = s.desc.extent;
  for (std::size_t i = 0; i < walls.size(); ++i) {
    const WallRecord& w = walls[i];
    // Lengthen the wall along itself and in z so float rounding never loses a true hit.
    const double ex = w.b.x - w.a.x;
    const double ey = w.b.y - w.a.y;
    const double len = std::hypot(ex, ey);
    const double pad = internal::pad_for(
        extent, std::max({std::abs(w.a.x), std::abs(w.a.y), std::abs(w.b.x), std::abs(w.b.y)}));
    const double ux = len > 0.0 ? ex / len * pad : pad;
    const double uy = len > 0.0 ? ey / len * pad : 0.0;
    const double lo = w.z_min - internal::pad_for(extent, w.z_min);
    const double hi = w.z_max + internal::pad_for(extent, w.z_max);
    const double corners[4][3] = {{w.a.x - ux, w.a.y - uy, lo},
                                  {w.b.x + ux, w.b.y + uy, lo},
                                  {w.b.x + ux, w.b.y + uy, hi},
                                  {w.a.x - ux, w.a.y - uy, hi}};
    for (int c = 0; c < 4; ++c) {
      for (int k = 0; k < 3; ++k) v[12 * i + 3 * c + k] = static_cast<float>(corners[c][k]);
    }
  }
}

void Scene::Impl::create_geometry(int slot, std::size_t count) {
  GeometrySlot& s = slots[slot];
  const bool dynamic = slot >= internal::kKindCount;
  const auto n = static_cast<unsigned>(count);
  RTCGeometry g;
  if (s.desc.kind == PrimKind::kWall) {
    g = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_QUAD);
    rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 3 * sizeof(float),
                            4 * count);
    auto* index = static_cast<unsigned*>(rtcSetNewGeometryBuffer(
        g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT4, 4 * sizeof(unsigned), count));
    if (index == nullptr) {
      rtcReleaseGeometry(g);
      throw_if_embree_error("creating wall buffers");
      fail("cannot allocate wall buffers");
    }
    for (unsigned i = 0; i < 4 * n; ++i) index[i] = i;
    rtcSetGeometryIntersectFilterFunction(g, internal::wall_filter);
  } else {
    const bool circle = s.desc.kind == PrimKind::kCircle;
    g = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_USER);
    rtcSetGeometryUserPrimitiveCount(g, n);
    rtcSetGeometryBoundsFunction(g, circle ? internal::circle_bounds : internal::prism_bounds,
                                 nullptr);
    rtcSetGeometryIntersectFunction(
        g, circle ? internal::circle_intersect : internal::prism_intersect);
  }
  rtcSetGeometryUserData(g, &s.desc);
  if (!dynamic) rtcSetGeometryPointQueryFunction(g, fan_query_function(slot));
  rtcSetGeometryBuildQuality(g, dynamic ? kDynamicQuality : kStaticQuality);
  s.geometry = g;
  if (s.desc.kind == PrimKind::kWall) write_wall_quads(slot);
  rtcCommitGeometry(g);
  s.id = rtcAttachGeometry(child_of(slot), g);
}

void Scene::Impl::build_static() {
  bool changed = false;
  for (int s = 0; s < internal::kKindCount; ++s) changed |= sync_slot(s);
  if (!changed) return;
  rtcCommitScene(children[0]);
  static_instance_stale = true;
  embree_ready.store(false, std::memory_order_relaxed);
}

void Scene::Impl::ensure_embree() const {
  if (embree_ready.load(std::memory_order_acquire)) return;
  std::lock_guard lock(embree_mutex);
  if (embree_ready.load(std::memory_order_relaxed)) return;
  auto& self = const_cast<Impl&>(*this);
  self.serial_arena.execute([&self] { self.build_deferred(); });
  embree_ready.store(true, std::memory_order_release);
}

void Scene::Impl::build_deferred() {
  for (int k = 0; k < internal::kKindCount; ++k) {
    if (!sync_slot(internal::kKindCount + k)) continue;
    rtcCommitScene(children[1 + k]);
    rtcCommitGeometry(instances[1 + k]);  // picks up the child's new bounds
  }
  if (static_instance_stale) {
    rtcCommitGeometry(instances[0]);
    static_instance_stale = false;
  }
  solids->sync(extent);
  rtcCommitScene(scene);
}

bool Scene::Impl::sync_slot(int slot) {
  GeometrySlot& s = slots[slot];
  const std::size_t count = prim_count(*s.desc.tables, s.desc.kind);
  // Pads use twice the current extent so that bodies may wander outwards for a while before a
  // static geometry needs new pads (and so a rebuild).
  const bool pads_too_small = extent > s.desc.extent;
  if (!s.stale && !pads_too_small) return false;
  if (pads_too_small) s.desc.extent = 2.0 * extent;
  if (s.geometry != nullptr && count == s.prim_count) {  // same primitives, new positions
    if (s.desc.kind == PrimKind::kWall) {
      write_wall_quads(slot);
      rtcUpdateGeometryBuffer(s.geometry, RTC_BUFFER_TYPE_VERTEX, 0);
    }
    rtcCommitGeometry(s.geometry);
  } else {
    if (s.geometry != nullptr) {
      rtcDetachGeometry(child_of(slot), s.id);
      rtcReleaseGeometry(s.geometry);
      s.geometry = nullptr;
    }
    if (count > 0) create_geometry(slot, count);
  }
  s.prim_count = count;
  s.stale = false;
  return true;
}

Scene::Scene() : impl_(std::make_unique<Impl>()) {}
Scene::~Scene() = default;

BodyId Scene::add_body(const BodyGeometry& geometry, bool dynamic, int user_id) {
  validate(geometry);
  if (user_id == kNoUserId) fail("user_id must not be kNoUserId");
  Impl& m = *impl_;
  const auto id = static_cast<BodyId>(m.bodies.size());
  GroupTables& t = m.staged[dynamic];
  BodyRecord rec{geometry.kind, dynamic, user_id};
  const auto n = static_cast<std::uint32_t>(geometry.vertices.size());
  if (geometry.kind == ShapeKind::kCircle) {
    rec.prim = static_cast<std::uint32_t>(t.circles.size());
    t.circles.emplace_back();
    m.slots[slot_of(dynamic, PrimKind::kCircle)].dirty = true;
  } else {
    rec.first_wall = static_cast<std::uint32_t>(t.walls.size());
    rec.wall_count = geometry.kind == ShapeKind::kPolygon ? n : n - 1;
    t.walls.resize(t.walls.size() + rec.wall_count);
    m.slots[slot_of(dynamic, PrimKind::kWall)].dirty = true;
  }
  if (geometry.kind == ShapeKind::kPolygon) {
    rec.prim = static_cast<std::uint32_t>(t.prisms.size());
    rec.first_vertex = static_cast<std::uint32_t>(t.vertices.size());
    rec.vertex_count = n;
    t.prisms.emplace_back();
    t.vertices.resize(t.vertices.size() + n);
    m.slots[slot_of(dynamic, PrimKind::kPrism)].dirty = true;
  }
  write_body(t, rec, id, geometry);
  m.bodies.push_back(rec);
  return id;
}

void Scene::update_body(BodyId body, const BodyGeometry& geometry) {
  Impl& m = *impl_;
  if (body < 0 || static_cast<std::size_t>(body) >= m.bodies.size()) {
    fail("update_body: no body " + std::to_string(body));
  }
  const BodyRecord& rec = m.bodies[body];
  if (rec.solid != internal::SolidKind::kNone) {
    fail("update_body: body " + std::to_string(body) + " is 3D content (update_sphere/mesh_body)");
  }
  if (!rec.dynamic) fail("update_body: body " + std::to_string(body) + " is static");
  if (geometry.kind != rec.kind)
    fail("update_body: body " + std::to_string(body) + " kind changed");
  const std::size_t expected = rec.kind == ShapeKind::kCircle    ? 0
                               : rec.kind == ShapeKind::kPolygon ? rec.vertex_count
                                                                 : rec.wall_count + 1;
  if (rec.kind != ShapeKind::kCircle && geometry.vertices.size() != expected) {
    fail("update_body: body " + std::to_string(body) + " vertex count changed from " +
         std::to_string(expected) + " to " + std::to_string(geometry.vertices.size()));
  }
  validate(geometry);
  write_body(m.staged[true], rec, body, geometry);
  if (rec.kind == ShapeKind::kCircle) {
    m.slots[slot_of(true, PrimKind::kCircle)].dirty = true;
    return;
  }
  m.slots[slot_of(true, PrimKind::kWall)].dirty = true;
  if (rec.kind == ShapeKind::kPolygon) m.slots[slot_of(true, PrimKind::kPrism)].dirty = true;
}

void Scene::commit() {
  Impl& m = *impl_;
  for (int dynamic = 0; dynamic < 2; ++dynamic) {
    GeometrySlot* group = &m.slots[dynamic * internal::kKindCount];
    if (std::none_of(group, group + internal::kKindCount, [](auto& s) { return s.dirty; })) {
      continue;
    }
    m.live[dynamic] = m.staged[dynamic];  // reuses capacity: no allocation in steady state
    m.extent = std::max(m.extent, extent_of(m.live[dynamic]));
    for (int k = 0; k < internal::kKindCount; ++k) {
      group[k].stale |= group[k].dirty;
      group[k].dirty = false;
    }
    (dynamic ? m.dynamic_grid : m.static_grid).build(m.live[dynamic]);
    m.embree_ready.store(false, std::memory_order_relaxed);
  }
  // 3D content (solids.h): staged first, so that its extent pads the static shapes too; new
  // static content (mesh BVHs, static spheres) is built now, with every thread, the rest with
  // the deferred build.
  bool heavy = false, changed = false;
  m.extent = std::max(m.extent, m.solids->stage_for_commit(&heavy, &changed));
  if (changed) m.embree_ready.store(false, std::memory_order_relaxed);
  m.build_static();
  if (heavy) m.solids->sync(m.extent);
  m.throw_if_embree_error("commit");
  m.committed = true;
}

int Scene::user_id(BodyId body) const {
  if (body < 0 || static_cast<std::size_t>(body) >= impl_->bodies.size()) {
    fail("user_id: no body " + std::to_string(body));
  }
  return impl_->bodies[body].user_id;
}

std::size_t Scene::body_count() const { return impl_->bodies.size(); }

}  // namespace ubot::scene
