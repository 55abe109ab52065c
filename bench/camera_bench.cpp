// Camera throughput: a 640 x 480 depth image and RGB image (90° fov, 0.5 m up) from the
// warehouse demo's orange robot as it drives down the smoky aisle. Args: {smoke, steps}: smoke 0
// turns the cameras' smoke interference off; after 120 steps the smoke cloud fills a fifth of the
// image ahead, after 140 the robot is inside it (nearly every pixel). One thread; rays (pixels)
// per second are the items_per_second column; medium_pixels counts the pixels the smoke changed.
//
// BM_CameraRays/...: the depth image's 307 200 rays alone (after 120 steps, smoke off), cast
// three ways on one thread: `cast`, ubot's Scene::cast on the simulation's 3D scene (what the
// cameras call: exact, double, normals); `embree1`, `embree16`, `embree_native`: raw Embree on the
// same geometry (raw_embree.h: walls and caps as float quads and triangles, circles as 32-gon
// prisms, the ground a quad, the camera's own body left out; nothing exact), one ray at a time,
// 16-wide coherent packets of 4 x 4 pixels, and packets of the device's native width (4 on
// SSE4.2, 8 on AVX2, 16 on AVX-512). Every variant reads the same precomputed rays, in the
// cameras' 4 x 4 tile order. The counter `hits` is the rays that hit something.
// Figures: docs/benchmarks.md, "Cameras".
#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "raw_embree.h"
#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/sensors/camera/camera.h"
#include "ubot/sim/simulation.h"

namespace ubot {
namespace {

SensorModel camera_sensor(bool depth, bool smoke) {
  SensorModel s;
  s.common.name = depth ? "bench_depth" : "bench_rgb";
  s.common.smoke.enable_smoke_interference = smoke;
  CameraModel c;
  c.depth = depth;
  c.width = 640;
  c.height = 480;
  c.fx = c.fy = 320.0;  // 90°
  c.cx = 319.5;
  c.cy = 239.5;
  c.min_depth = depth ? 0.1 : 0.0;
  c.max_depth = depth ? 20.0 : 100.0;
  c.preview_distance = c.max_depth;
  c.offset = {0.35, 0, 0.5};
  s.params = c;
  return s;
}

// The warehouse after `steps` steps: robot_1 is in the upper aisle, heading west into the smoke.
std::unique_ptr<Simulation> warehouse(bool depth, bool smoke, int steps) {
  WorldModel m = load_world(std::string(UBOT_SOURCE_DIR) + "/examples/warehouse.yaml");
  m.objects[1].sensors.push_back(camera_sensor(depth, smoke));
  auto sim = std::make_unique<Simulation>(std::move(m), SimulationOptions{.threads = 1});
  for (int k = 0; k < steps; ++k) sim->step();
  return sim;
}

void run(benchmark::State& state, bool depth) {
  const auto owned = warehouse(depth, state.range(0) != 0, static_cast<int>(state.range(1)));
  Simulation& sim = *owned;
  std::size_t camera = 0;
  for (std::size_t k = 0; k < sim.sensors().size(); ++k) {
    if (sim.sensors()[k]->model().common.name.starts_with("bench_")) camera = k;
  }
  for (auto _ : state) benchmark::DoNotOptimize(sim.sample_now(camera));
  const auto& cam = static_cast<const Camera&>(*sim.sensors()[camera]);
  state.SetItemsProcessed(state.iterations() * 640 * 480);
  state.counters["medium_pixels"] = cam.image().medium_pixels;
}

void BM_Warehouse_DepthImage640x480(benchmark::State& state) { run(state, true); }
BENCHMARK(BM_Warehouse_DepthImage640x480)
    ->Args({0, 120})
    ->Args({1, 120})
    ->Args({1, 140})
    ->Unit(benchmark::kMillisecond);

void BM_Warehouse_RgbImage640x480(benchmark::State& state) { run(state, false); }
BENCHMARK(BM_Warehouse_RgbImage640x480)
    ->Args({0, 120})
    ->Args({1, 120})
    ->Args({1, 140})
    ->Unit(benchmark::kMillisecond);

// The camera's rays as Camera::measure casts them: 4 x 4 pixel tiles, optical z component 1.
std::vector<scene::Ray> camera_rays(const Simulation& sim, const Camera& cam) {
  const CameraModel& p = cam.params();
  const Pose3d pose = compose(sim.world().pose3d(cam.object_id()), cam.mount());
  const Eigen::Matrix3d r = pose.orientation.toRotationMatrix();
  std::vector<scene::Ray> rays;
  for (int ty = 0; ty < p.height; ty += 4) {
    for (int tx = 0; tx < p.width; tx += 4) {
      for (int v = ty; v < std::min(p.height, ty + 4); ++v) {
        for (int u = tx; u < std::min(p.width, tx + 4); ++u) {
          const Eigen::Vector3d d(1.0, -(u - p.cx) / p.fx, -(v - p.cy) / p.fy);
          rays.push_back({pose.position, r * d, p.max_depth});
        }
      }
    }
  }
  return rays;
}

// What the 3D scene holds of the world but the camera's own body (Simulation::fill_scene with
// heightless objects 1 m tall), for raw Embree.
std::vector<scene::BodyGeometry> bodies_3d(const World& world, int owner) {
  std::vector<scene::BodyGeometry> bodies;
  for (int id = 0; id < static_cast<int>(world.size()); ++id) {
    const ObjectModel& m = world.object_model(id);
    if (m.unobstructed || id == owner) continue;
    if (m.shape.solid) throw Error("BM_CameraRays: 3D solids are not drawn for raw Embree");
    const WorldShape& shape = world.shape(id);
    std::vector<const WorldShape*> parts;
    if (shape.parts.empty()) parts.push_back(&shape);
    for (const WorldShape& part : shape.parts) parts.push_back(&part);
    for (const WorldShape* part : parts) {
      scene::BodyGeometry g;
      if (part->circle) {
        g.center = part->center;
        g.radius = part->radius;
      } else {
        g.kind = part->closed ? scene::ShapeKind::kPolygon : scene::ShapeKind::kPolyline;
        g.vertices = part->vertices;
      }
      g.z_min = world.base_z(id);
      g.z_max = g.z_min + m.height.value_or(1.0);
      bodies.push_back(std::move(g));
    }
  }
  return bodies;
}

// Rays per Scene::cast call in BM_CameraRays/cast_blocks: the camera's (camera.cpp).
constexpr std::size_t kBlock = 4096;

enum class RayMethod { kCast, kCastBlocks, kEmbree1, kEmbree16, kEmbreeNative };

void BM_CameraRays(benchmark::State& state, RayMethod method) {
  const auto owned = warehouse(true, false, 120);
  const Simulation& sim = *owned;
  const Camera* cam = nullptr;
  for (const auto& s : sim.sensors()) {
    if (s->model().common.name == "bench_depth") cam = sensor_if<Camera>(*s);
  }
  const std::vector<scene::Ray> rays = camera_rays(sim, *cam);
  const scene::RawEmbree raw(bodies_3d(sim.world(), cam->object_id()),
                             scene::Raw3d{sim.world().model().ground});
  std::vector<scene::RayHit> out(rays.size());
  int hits = 0;
  for (auto _ : state) {
    switch (method) {
      case RayMethod::kCast:
        sim.scene3d().cast(rays, cam->object_id(), out);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
        break;
      case RayMethod::kCastBlocks:  // as the camera calls it: 4096 rays a call, hits kept in cache
        hits = 0;
        for (std::size_t k = 0; k < rays.size(); k += kBlock) {
          const std::size_t n = std::min(kBlock, rays.size() - k);
          sim.scene3d().cast(std::span(rays).subspan(k, n), cam->object_id(),
                             std::span(out).first(n));
          for (std::size_t i = 0; i < n; ++i) hits += out[i].hit();
        }
        break;
      case RayMethod::kEmbree1:
        hits = raw.rays1(rays);
        break;
      case RayMethod::kEmbree16:
        hits = raw.packets(rays, 16);
        break;
      case RayMethod::kEmbreeNative:
        hits = raw.packets(rays, 0);
        break;
    }
    benchmark::DoNotOptimize(hits);
  }
  if (method == RayMethod::kCast) {
    for (const scene::RayHit& h : out) hits += h.hit();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(rays.size()));
  state.counters["hits"] = hits;
}
BENCHMARK_CAPTURE(BM_CameraRays, cast, RayMethod::kCast)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CameraRays, cast_blocks, RayMethod::kCastBlocks)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CameraRays, embree1, RayMethod::kEmbree1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CameraRays, embree16, RayMethod::kEmbree16)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CameraRays, embree_native, RayMethod::kEmbreeNative)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ubot

BENCHMARK_MAIN();
