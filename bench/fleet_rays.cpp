// The machine's limit for a fleet's scans (issue 45; bench/scale_bench.py, docs/benchmarks.md,
// "How cost grows with size"): loads a world file, steps it once, and casts one scan of every
// 2D lidar, on one thread, three ways:
//   BM_FleetRays/cast_fan: ubot's `Scene::cast_fan` on the simulation's own scene (the scans'
//     path: exact, double);
//   BM_FleetRays/embree16, /embree1: raw Embree on the same geometry (raw_embree.h: circles as
//     32-gon prisms, polygons as quads, float, nothing exact), 16-wide coherent packets
//     (`rtcIntersect16`, the fastest raw mode for fans) and single rays (`rtcIntersect1`).
// Every lidar's origin, beam yaws and range_max are taken as Lidar2d::measure takes them (no
// angle noise); raw Embree leaves the sensor's own body out by starting each ray just beyond its
// farthest point. One iteration = one scan of every lidar; items/s = rays/s (CPU time); the
// counters give the rays of one pass and how many hit.
//
// usage: bench_fleet_rays [--world WORLD] [Google Benchmark flags]
//        (default world: bench/worlds/fleet_10000.yaml; `make bench` runs it so)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <benchmark/benchmark.h>

#include "raw_embree.h"
#include "ubot/config/load_world.h"
#include "ubot/core/angles.h"
#include "ubot/core/error.h"
#include "ubot/sensors/lidar2d/lidar2d.h"
#include "ubot/sim/simulation.h"

namespace ubot {
namespace {

// One lidar's scan: what cast_fan gets, and raw Embree's start distance.
struct Fan {
  Eigen::Vector3d origin;
  std::vector<double> yaws;
  double range_max = 0.0;
  int owner = 0;
  float tnear = 0.0f;  // beyond the owner's shape, for raw Embree
};

// The farthest point of `shape` (all its parts) from `p`.
double farthest_from(const WorldShape& shape, const Eigen::Vector2d& p) {
  if (!shape.parts.empty()) {
    double d = 0.0;
    for (const WorldShape& part : shape.parts) d = std::max(d, farthest_from(part, p));
    return d;
  }
  if (shape.circle) return (shape.center - p).norm() + shape.radius;
  double d = 0.0;
  for (const Eigen::Vector2d& v : shape.vertices) d = std::max(d, (v - p).norm());
  return d;
}

// What the scene holds of the world, as raw Embree's input (Simulation::fill_scene's 2D bodies).
std::vector<scene::BodyGeometry> world_bodies(const World& world) {
  std::vector<scene::BodyGeometry> bodies;
  for (int id = 0; id < static_cast<int>(world.size()); ++id) {
    const ObjectModel& m = world.object_model(id);
    if (m.unobstructed) continue;
    if (m.shape.solid &&
        (m.shape.solid->kind == SolidKind::kSphere || m.shape.solid->kind == SolidKind::kMesh)) {
      throw Error("bench_fleet_rays: spheres and meshes are not drawn for raw Embree");
    }
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
      bodies.push_back(std::move(g));
    }
  }
  if (world.model().grid) throw Error("bench_fleet_rays: grid maps are not drawn for raw Embree");
  return bodies;
}

// Every 2D lidar's scan at the simulation's current state.
std::vector<Fan> lidar_fans(const Simulation& sim) {
  const World& world = sim.world();
  std::vector<Fan> fans;
  for (const auto& sensor : sim.sensors()) {
    const Lidar2d* lidar = sensor_if<Lidar2d>(*sensor);
    if (lidar == nullptr) continue;
    const Lidar2dModel& p = lidar->params();
    const int id = lidar->object_id();
    const ObjectState& owner = world.object(id);
    const double x = owner.state[0], y = owner.state[1], yaw = owner.state[2];
    const double c = std::cos(yaw), s = std::sin(yaw);
    Fan fan;
    fan.origin = {c * p.offset.x() - s * p.offset.y() + x, s * p.offset.x() + c * p.offset.y() + y,
                  world.base_z(id) + p.z};
    const double sensor_yaw = wrap_to_pi(p.offset.z() + yaw);
    for (double a : lidar->angles()) fan.yaws.push_back(sensor_yaw + a);
    fan.range_max = p.range_max;
    fan.owner = id;
    fan.tnear =
        static_cast<float>(farthest_from(world.shape(id), fan.origin.head<2>()) * 1.001 + 1e-6);
    fans.push_back(std::move(fan));
  }
  return fans;
}

// What the benchmarks cast: the world's scans and raw Embree's copy of its geometry.
struct Fleet {
  Simulation sim;
  std::vector<Fan> fans;
  long rays = 0;
  std::size_t widest = 0;
  std::vector<scene::BodyGeometry> bodies;
  std::unique_ptr<scene::RawEmbree> raw;

  explicit Fleet(const std::string& path) : sim(load_world(path), SimulationOptions{.threads = 1}) {
    sim.step();
    fans = lidar_fans(sim);
    for (const Fan& fan : fans) {
      rays += static_cast<long>(fan.yaws.size());
      widest = std::max(widest, fan.yaws.size());
    }
    bodies = world_bodies(sim.world());
    raw = std::make_unique<scene::RawEmbree>(bodies);
  }

  long cast_fan(std::vector<scene::RayHit>& out) const {
    long hits = 0;
    for (const Fan& fan : fans) {
      const std::span<scene::RayHit> o(out.data(), fan.yaws.size());
      sim.scene().cast_fan(fan.origin, fan.yaws, fan.range_max, fan.owner, o);
      for (const scene::RayHit& h : o) hits += h.hit();
    }
    return hits;
  }

  long raw_embree(bool packets) const {
    long hits = 0;
    for (const Fan& fan : fans) {
      const Eigen::Vector2d o = fan.origin.head<2>();
      const float tfar = static_cast<float>(fan.range_max);
      hits += packets ? raw->fan16(o, fan.yaws, fan.tnear, tfar)
                      : raw->fan1(o, fan.yaws, fan.tnear, tfar);
    }
    return hits;
  }
};

enum class Method { kCastFan, kEmbree16, kEmbree1 };

void BM_FleetRays(benchmark::State& state, const Fleet* fleet, Method method) {
  std::vector<scene::RayHit> out(fleet->widest);
  long hits = 0;
  for (auto _ : state) {
    hits = method == Method::kCastFan ? fleet->cast_fan(out)
                                      : fleet->raw_embree(method == Method::kEmbree16);
    benchmark::DoNotOptimize(hits);
  }
  state.SetItemsProcessed(state.iterations() * fleet->rays);
  state.counters["rays"] = static_cast<double>(fleet->rays);
  state.counters["hits"] = static_cast<double>(hits);
  state.counters["lidars"] = static_cast<double>(fleet->fans.size());
}

int run(int argc, char** argv) {
  std::string path = std::string(UBOT_SOURCE_DIR) + "/bench/worlds/fleet_10000.yaml";
  std::vector<char*> args = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--world" && i + 1 < argc) {
      path = argv[++i];
    } else if (arg.starts_with("--world=")) {
      path = arg.substr(8);
    } else {
      args.push_back(argv[i]);
    }
  }
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 2;

  const Fleet fleet(path);
  std::fprintf(stderr,
               "%s after one step: %zu 2D lidars, %ld rays a scan of each; %zu bodies (%zu quads "
               "for raw Embree)\n",
               path.c_str(), fleet.fans.size(), fleet.rays, fleet.bodies.size(),
               fleet.raw->quads());
  for (const auto& [name, method] : {std::pair{"cast_fan", Method::kCastFan},
                                     {"embree16", Method::kEmbree16},
                                     {"embree1", Method::kEmbree1}}) {
    benchmark::RegisterBenchmark((std::string("BM_FleetRays/") + name).c_str(), BM_FleetRays,
                                 &fleet, method)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace
}  // namespace ubot

int main(int argc, char** argv) {
  try {
    return ubot::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_fleet_rays: %s\n", e.what());
    return 1;
  }
}
