// lidar3d throughput: a 32 x 1800 scan (HDL-32E channel layout, -30.67 to +10.67 degrees) on
// a procedural 1M-triangle scene (a 200 m x 200 m height-field terrain and 300 pillars) and on
// examples/warehouse.yaml, next to raw Embree on the same rays and triangles in the same binary
// (single rays, 16-wide packets, one rtcIntersect1M stream). One thread; rays per second are the
// items_per_second column. Figures: README "Benchmarks".
#include <benchmark/benchmark.h>

#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <random>
#include <vector>

#include "../src/scene/embree_api.h"
#include "../src/scene/embree_device.h"
#include "ubot/config/load_world.h"
#include "ubot/scene/scene.h"
#include "ubot/sensors/lidar3d/lidar3d.h"
#include "ubot/sim/simulation.h"

namespace ubot {
namespace {

// Embree 3 or 4 (src/scene/embree_api.h).
namespace rtc = ubot::scene::internal::rtc;

constexpr int kChannels = 32, kColumns = 1800;
constexpr double kRangeMax = 100.0;
constexpr double kDeg = std::numbers::pi / 180.0;

double terrain_height(double x, double y) {
  return 1.5 * std::sin(x / 7.0) * std::cos(y / 9.0) + 0.5 * std::sin(x / 2.3 + y / 3.1);
}

// ~1.0M triangles: a 708 x 708 grid over [-100, 100]^2 and 300 pillars (0.5 x 0.5 x 4 m).
std::shared_ptr<TriangleMesh> terrain_mesh() {
  auto m = std::make_shared<TriangleMesh>();
  constexpr int n = 708;
  const double cell = 200.0 / n;
  for (int j = 0; j <= n; ++j) {
    for (int i = 0; i <= n; ++i) {
      const double x = -100 + i * cell, y = -100 + j * cell;
      m->vertices.emplace_back(x, y, terrain_height(x, y));
    }
  }
  auto at = [](int i, int j) { return static_cast<std::uint32_t>(j * (n + 1) + i); };
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      m->triangles.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
      m->triangles.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
    }
  }
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-60, 60);
  for (int p = 0; p < 300; ++p) {
    const double cx = u(rng), cy = u(rng), z0 = terrain_height(cx, cy) - 0.5;
    const auto base = static_cast<std::uint32_t>(m->vertices.size());
    for (int k = 0; k < 8; ++k) {
      m->vertices.emplace_back(cx + ((k & 1) ? 0.25 : -0.25), cy + ((k & 2) ? 0.25 : -0.25),
                               z0 + ((k & 4) ? 4.5 : 0.0));
    }
    const std::uint32_t f[12][3] = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6},
                                    {0, 1, 4}, {1, 5, 4}, {2, 6, 3}, {3, 6, 7},
                                    {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
    for (const auto& t : f) m->triangles.push_back({base + t[0], base + t[1], base + t[2]});
  }
  return m;
}

Lidar3dModel hdl32_like() {
  Lidar3dModel l;
  for (int k = 0; k < kChannels; ++k) {
    l.vertical_angles.push_back((-30.67 + 41.34 * k / (kChannels - 1)) * kDeg);
  }
  l.number = kColumns;
  l.range_max = kRangeMax;
  return l;
}

SensorModel lidar_sensor(const Lidar3dModel& l, const Eigen::Vector3d& offset) {
  SensorModel s;
  s.common.name = "lidar3d_0";
  s.common.update_rate_hz = 10.0;
  Lidar3dModel p = l;
  p.offset = offset;
  s.params = p;
  return s;
}

// The terrain world: a static robot at the centre carrying the lidar 2 m above the ground.
WorldModel terrain_world() {
  WorldModel w;
  w.file = "terrain";
  w.world.width = w.world.height = 200;
  w.world.offset = {-100, -100};
  ObjectModel robot;
  robot.id = 0;
  robot.name = "robot_0";
  robot.role = Role::kRobot;
  robot.state = {0, 0, 0};
  robot.goals = {{0, 0, 0}};
  robot.vel_min = {-1, -1};
  robot.vel_max = {1, 1};
  robot.acce = {1e9, 1e9};
  robot.velocity = {0, 0};
  robot.is_static = true;
  robot.z = terrain_height(0, 0);
  robot.sensors.push_back(lidar_sensor(hdl32_like(), {0, 0, 2.0}));
  ObjectModel terrain = robot;
  terrain.id = 1;
  terrain.name = "terrain";
  terrain.role = Role::kObstacle;
  terrain.sensors.clear();
  terrain.z = 0;
  SolidModel solid;
  solid.kind = SolidKind::kMesh;
  solid.mesh = terrain_mesh();
  terrain.shape.kind = ShapeKind::kPolygon;
  terrain.shape.vertices = xy_convex_hull(solid.mesh->vertices);
  terrain.shape.solid = solid;
  w.objects = {robot, terrain};
  return w;
}

// The scan's rays, column-major, from `origin` (sensor frame = world frame).
std::vector<scene::Ray> scan_rays(const Eigen::Vector3d& origin) {
  const Lidar3dModel l = hdl32_like();
  std::vector<scene::Ray> rays;
  for (int c = 0; c < kColumns; ++c) {
    const double a = -std::numbers::pi + 2 * std::numbers::pi * c / kColumns;
    for (double e : l.vertical_angles) {
      rays.push_back(
          {origin, {std::cos(e) * std::cos(a), std::cos(e) * std::sin(a), std::sin(e)}, kRangeMax});
    }
  }
  return rays;
}

// Embree alone on the same triangles (float, no filter) and rays.
class RawEmbree {
 public:
  RawEmbree(const TriangleMesh& mesh, bool robust) {
    device_ = scene::internal::new_embree_device();  // honours UBOT_EMBREE_CONFIG
    scene_ = rtcNewScene(device_);
    if (robust) rtcSetSceneFlags(scene_, RTC_SCENE_FLAG_ROBUST);
    RTCGeometry g = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_TRIANGLE);
    auto* v = static_cast<float*>(rtcSetNewGeometryBuffer(
        g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 12, mesh.vertices.size()));
    for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
      for (int k = 0; k < 3; ++k) v[3 * i + k] = static_cast<float>(mesh.vertices[i][k]);
    }
    auto* ib = static_cast<unsigned*>(rtcSetNewGeometryBuffer(
        g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 12, mesh.triangles.size()));
    for (std::size_t i = 0; i < mesh.triangles.size(); ++i) {
      for (int k = 0; k < 3; ++k) ib[3 * i + k] = mesh.triangles[i][k];
    }
    rtcCommitGeometry(g);
    rtcAttachGeometry(scene_, g);
    rtcReleaseGeometry(g);
    rtcCommitScene(scene_);
  }
  ~RawEmbree() {
    rtcReleaseScene(scene_);
    rtcReleaseDevice(device_);
  }

  int single(const std::vector<scene::Ray>& rays) const {
    rtc::QueryContext ctx;
    rtc::init(&ctx);
    const auto flags = rtc::kIncoherent;
    int hits = 0;
    for (const scene::Ray& r : rays) {
      RTCRayHit rh{};
      rh.ray = {float(r.origin.x()),
                float(r.origin.y()),
                float(r.origin.z()),
                0.0f,
                float(r.direction.x()),
                float(r.direction.y()),
                float(r.direction.z()),
                0.0f,
                float(r.max_distance),
                ~0u,
                0,
                0};
      rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
      rtc::intersect1(scene_, &ctx, flags, &rh);
      hits += rh.hit.geomID != RTC_INVALID_GEOMETRY_ID;
    }
    return hits;
  }

  int packets(const std::vector<scene::Ray>& rays) const {
    rtc::QueryContext ctx;
    rtc::init(&ctx);
    const auto flags = rtc::kCoherent;
    int hits = 0;
    for (std::size_t base = 0; base < rays.size(); base += 16) {
      alignas(64) RTCRayHit16 rh;
      alignas(64) int valid[16];
      for (int i = 0; i < 16; ++i) {
        valid[i] = base + i < rays.size() ? -1 : 0;
        const scene::Ray& r = rays[valid[i] ? base + i : base];
        rh.ray.org_x[i] = float(r.origin.x());
        rh.ray.org_y[i] = float(r.origin.y());
        rh.ray.org_z[i] = float(r.origin.z());
        rh.ray.dir_x[i] = float(r.direction.x());
        rh.ray.dir_y[i] = float(r.direction.y());
        rh.ray.dir_z[i] = float(r.direction.z());
        rh.ray.tnear[i] = 0;
        // Unused lanes inactive for every ISA: without 16-wide kernels Embree ignores `valid`.
        rh.ray.tfar[i] = valid[i] ? float(r.max_distance) : -std::numeric_limits<float>::infinity();
        rh.ray.time[i] = 0;
        rh.ray.mask[i] = ~0u;
        rh.ray.id[i] = i;
        rh.ray.flags[i] = 0;
        rh.hit.geomID[i] = RTC_INVALID_GEOMETRY_ID;
      }
      rtc::intersect16(valid, scene_, &ctx, flags, &rh);
      for (int i = 0; i < 16; ++i) hits += valid[i] && rh.hit.geomID[i] != RTC_INVALID_GEOMETRY_ID;
    }
    return hits;
  }

#if RTC_VERSION_MAJOR < 4  // Embree 4 removed the stream interface (rtcIntersect1M).
  // All rays in one rtcIntersect1M call (Embree's stream interface).
  int stream(const std::vector<scene::Ray>& rays, std::vector<RTCRayHit>& buffer) const {
    RTCIntersectContext ctx;
    rtcInitIntersectContext(&ctx);
    ctx.flags = RTC_INTERSECT_CONTEXT_FLAG_COHERENT;
    buffer.resize(rays.size());
    for (std::size_t i = 0; i < rays.size(); ++i) {
      const scene::Ray& r = rays[i];
      buffer[i].ray = {float(r.origin.x()),      float(r.origin.y()),
                       float(r.origin.z()),      0.0f,
                       float(r.direction.x()),   float(r.direction.y()),
                       float(r.direction.z()),   0.0f,
                       float(r.max_distance),    ~0u,
                       static_cast<unsigned>(i), 0};
      buffer[i].hit.geomID = RTC_INVALID_GEOMETRY_ID;
    }
    rtcIntersect1M(scene_, &ctx, buffer.data(), static_cast<unsigned>(buffer.size()),
                   sizeof(RTCRayHit));
    int hits = 0;
    for (const RTCRayHit& h : buffer) hits += h.hit.geomID != RTC_INVALID_GEOMETRY_ID;
    return hits;
  }
#endif

 private:
  RTCDevice device_;
  RTCScene scene_;
};

struct Terrain {
  std::shared_ptr<TriangleMesh> mesh = terrain_mesh();
  std::vector<scene::Ray> rays = scan_rays({0, 0, terrain_height(0, 0) + 2.0});
};

const Terrain& terrain() {
  static const Terrain t;
  return t;
}

void report(benchmark::State& state, int hits) {
  state.SetItemsProcessed(state.iterations() * kChannels * kColumns);
  state.counters["hits"] = hits;
}

void BM_Terrain_RawEmbreeSingle(benchmark::State& state) {
  const RawEmbree raw(*terrain().mesh, state.range(0) != 0);
  int hits = 0;
  for (auto _ : state) benchmark::DoNotOptimize(hits = raw.single(terrain().rays));
  report(state, hits);
}
BENCHMARK(BM_Terrain_RawEmbreeSingle)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_Terrain_RawEmbreePacket16(benchmark::State& state) {
  const RawEmbree raw(*terrain().mesh, state.range(0) != 0);
  int hits = 0;
  for (auto _ : state) benchmark::DoNotOptimize(hits = raw.packets(terrain().rays));
  report(state, hits);
}
BENCHMARK(BM_Terrain_RawEmbreePacket16)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

#if RTC_VERSION_MAJOR < 4
void BM_Terrain_RawEmbreeStream(benchmark::State& state) {
  const RawEmbree raw(*terrain().mesh, state.range(0) != 0);
  std::vector<RTCRayHit> buffer;
  int hits = 0;
  for (auto _ : state) benchmark::DoNotOptimize(hits = raw.stream(terrain().rays, buffer));
  report(state, hits);
}
BENCHMARK(BM_Terrain_RawEmbreeStream)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
#endif

// ubot's Scene::cast: the same rays through the mesh instance, refined in double.
void BM_Terrain_SceneCast(benchmark::State& state) {
  scene::Scene s;
  s.add_mesh_body(s.add_mesh(terrain().mesh), Eigen::Isometry3d::Identity(), false, 1);
  s.commit();
  std::vector<scene::RayHit> hits(terrain().rays.size());
  for (auto _ : state) {
    s.cast(terrain().rays, scene::kNoUserId, hits);
    benchmark::DoNotOptimize(hits.data());
  }
  int n = 0;
  for (const scene::RayHit& h : hits) n += h.hit();
  report(state, n);
}
BENCHMARK(BM_Terrain_SceneCast)->Unit(benchmark::kMillisecond);

// A whole lidar3d sample: rays, cast, media, points in both frames.
void BM_Terrain_Lidar3dSample(benchmark::State& state) {
  Simulation sim(terrain_world(), {.threads = 1});
  sim.step();
  for (auto _ : state) benchmark::DoNotOptimize(sim.sample_now(0));
  report(state,
         static_cast<int>(static_cast<const Lidar3d&>(*sim.sensors()[0]).sweep().points.size()));
}
BENCHMARK(BM_Terrain_Lidar3dSample)->Unit(benchmark::kMillisecond);

// The warehouse demo (shelves without heights: 1 m tall for the 3D lidar; a smoke cloud) with
// the 32 x 1800 lidar 0.8 m above robot_0.
std::unique_ptr<Simulation> warehouse() {
  WorldModel m = load_world(std::string(UBOT_SOURCE_DIR) + "/examples/warehouse.yaml");
  m.objects[0].sensors.push_back(lidar_sensor(hdl32_like(), {0, 0, 0.8}));
  auto sim = std::make_unique<Simulation>(std::move(m), SimulationOptions{.threads = 1});
  for (int k = 0; k < 30; ++k) sim->step();  // into the aisles, the smoke drifting in
  return sim;
}

std::size_t lidar3d_index(const Simulation& sim) {
  for (std::size_t i = 0; i < sim.sensors().size(); ++i) {
    if (sensor_if<Lidar3d>(*sim.sensors()[i]) != nullptr) return i;
  }
  return 0;
}

void BM_Warehouse_SceneCast(benchmark::State& state) {
  const auto owned = warehouse();
  Simulation& sim = *owned;
  const auto& lidar = static_cast<const Lidar3d&>(*sim.sensors()[lidar3d_index(sim)]);
  const std::vector<scene::Ray> rays = scan_rays(lidar.sweep().pose.position);
  std::vector<scene::RayHit> hits(rays.size());
  for (auto _ : state) {
    sim.scene3d().cast(rays, 0, hits);
    benchmark::DoNotOptimize(hits.data());
  }
  int n = 0;
  for (const scene::RayHit& h : hits) n += h.hit();
  report(state, n);
}
BENCHMARK(BM_Warehouse_SceneCast)->Unit(benchmark::kMillisecond);

void BM_Warehouse_Lidar3dSample(benchmark::State& state) {
  const auto owned = warehouse();
  Simulation& sim = *owned;
  const std::size_t i = lidar3d_index(sim);
  for (auto _ : state) benchmark::DoNotOptimize(sim.sample_now(i));
  report(state,
         static_cast<int>(static_cast<const Lidar3d&>(*sim.sensors()[i]).sweep().points.size()));
}
BENCHMARK(BM_Warehouse_Lidar3dSample)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ubot

BENCHMARK_MAIN();
