// Scene benchmarks: lidar fans in a room and in a large world of moving robots (through the
// 2D fan path and, for reference, the same rays through cast()), commit cost, and raw Embree
// baselines (single rays and 16-wide packets on native quads, no exactness).
//
// Measured on 2-core AMD EPYC (AVX-512; Embree 3.13.5 picks its AVX-512 kernels, native
// ray16 supported), Release, `taskset -c 1`, CPU time, median of 2 x 3 repetitions, before
// (every fan through Embree packets, BVHs rebuilt at commit) and after the 2D fan path, built
// from the same tree and run alternately in one session (this VM is noisy, and is shared).
//
//                                                        before      after
//   BM_RoomScan/360 (20x20 m room, 50 obstacles)         38.0 us    23.1 us   (15.6 M rays/s)
//   BM_RoomScan/3600                                      316 us     170 us   (21.1 M rays/s)
//   BM_EmptyFan/360 (nothing within range)               14.1 us    0.69 us
//   BM_RobotsFans (1000 robots x 360 beams, 10 m)        27.4 ms     7.9 ms   (45.5 M rays/s)
//   BM_RobotsFansScattered/1 (after robots teleport)     28.4 ms     7.9 ms
//   BM_RobotsFansCast (the same rays through cast())     28.3 ms    27.4 ms
//   BM_RoomScanCast/360 (room rays through cast())       34.4 us    38.4 us   (robust walls)
//   BM_RobotsCommit (1000 robots moved, commit)           116 us    14.8 us
//   BM_RobotsUpdateAndCommit (+ 1000 update_body)         126 us    24.6 us
//   BM_RobotsCommitThenRay (commit, then one cast())      118 us     130 us
//   BM_SmallWorldCommit (IR-SIM lidar_world, 1 robot)    5.24 us    0.07 us
//   raw Embree, rtcIntersect1:  room 9.7, robots 7.1 M rays/s
//   raw Embree, rtcIntersect16: room 16.8 (360) / 33 (3600), robots 15 M rays/s
// So the fan path runs 3x faster than raw 16-wide packets in the robot world (which do no
// exactness work at all), 1.4x (360) / 0.65x (3600) in the dense room where every beam hits.
// cast() runs at 0.6x of raw packets; what it adds is the exactness work (double-precision
// tests in callbacks and the wall filter) and per-ray setup (sincos, validation, normals).
// In BM_RobotsFans (perf): 20% sincos of the beams some shape tests (the same std::cos/sin as
// cast(), so results match bit for bit), 32% exact tests, 33% normals, output, arcs and yaw
// scan, 8% broad phase (point query on the static BVH 4%, grid), 1% sorting candidates.
//
// Decisions measured here (with temporary switches, since removed):
// - Packet width (room 360 / room 3600 / cast 360 / robots, M rays/s): rtcIntersect16
//   8.5 / 10.4 / 6.5 / 11.2; rtcIntersect8 8.2 / 8.6 / 4.4 / 10.0; rtcIntersect4 5.8 / 6.6 /
//   5.9 / 7.8; rtcIntersect1 4.6 / 4.5 / 4.7 / 4.0; rtcIntersect1M (16-ray streams) 5.4 / 9.8 /
//   6.2 / 10.6. -> 16-wide packets. The coherent context flag is worth ~30% (cast() sets it
//   when a packet's rays share an origin).
// - Dynamic BVH (commit us / robots fans / after robots teleport, M rays/s): refit 20 / 7.7 /
//   0.25; Morton rebuild (RTC_BUILD_QUALITY_LOW) 120 / 11.7 / 11.6; SAH rebuild 280 / 7.4 /
//   7.6. -> Morton rebuild at every commit: its one-primitive leaves suit user geometry, and it
//   never decays; refit starts from SAH leaves and collapses once robots have wandered.
// - Scene layout: a single two-level scene with static and dynamic geometries re-merges its top
//   level at each commit (370-520 us here); a top scene of instances (static child, one child
//   per dynamic geometry) brings a commit down to the dynamic geometry's own cost.
// - Embree's "threads=1" device option removes TBB-spin noise but caps TBB for the whole
//   process; the deferred rebuilds of moving bodies run in a 1-thread task_arena instead.
// - 2D fan path, broad phase: an Embree point query over the static BVH costs ~0.3 us per fan
//   here; over the moving bodies it would need their BVHs rebuilt at every commit (5.2 us with
//   one robot: a third of IR-SIM's lidar_world step; 116 us with 1000), so moving bodies get a
//   grid rebuilt at commit (the commit of 1000: 15 us) and their BVHs wait for a cast() that needs
//   them.
// - 2D fan path, narrow phase (BM_RobotsFans ms / BM_RoomScan/360 us, cumulative; the VM was
//   busy for some of these, so +-15%): angular bins and sincos for every beam, 12.4 / 34;
//   directions only for the beams a shape tests, binary search in sorted yaws, 10.8 / 34;
//   shapes nearest first, skipping beams already nearer (room: 2684 -> 381 exact tests per
//   fan), and a polynomial atan2 (1.2e-5 rad, padded) for the arcs instead of std::atan2 and
//   asin, ~9 / 27; normals inlined, and a guided walk instead of the binary search, 7.9 / 23.
// - Robust (watertight) Embree scenes for cast(): without, rays hitting a wall quad's diagonal
//   (at z = 0, the wall's middle) within float rounding were lost; costs ~10% of cast().
#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "raw_embree.h"
#include "ubot/scene/scene.h"

namespace ubot::scene {
namespace {

struct WorldBody {
  BodyGeometry geometry;
  bool dynamic = false;
};

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  double uniform(double lo, double hi) { return std::uniform_real_distribution(lo, hi)(engine_); }

 private:
  std::mt19937_64 engine_;
};

BodyGeometry circle(double x, double y, double r) {
  BodyGeometry g;
  g.center = {x, y};
  g.radius = r;
  return g;
}

BodyGeometry box(double x, double y, double hx, double hy, double yaw) {
  BodyGeometry g;
  g.kind = ShapeKind::kPolygon;
  const double c = std::cos(yaw), s = std::sin(yaw);
  for (auto [u, v] : {std::pair{-hx, -hy}, {hx, -hy}, {hx, hy}, {-hx, hy}}) {
    g.vertices.emplace_back(x + c * u - s * v, y + s * u + c * v);
  }
  return g;
}

BodyGeometry polyline_of(std::vector<Eigen::Vector2d> vertices) {
  BodyGeometry g;
  g.kind = ShapeKind::kPolyline;
  g.vertices = std::move(vertices);
  return g;
}

BodyGeometry square_walls(double size) {
  BodyGeometry g;
  g.kind = ShapeKind::kPolyline;
  g.vertices = {{0, 0}, {size, 0}, {size, size}, {0, size}, {0, 0}};
  return g;
}

// Circles and rectangles, alternating, uniformly in [margin, size - margin]^2.
void add_obstacles(std::vector<WorldBody>& world, int count, double size, Rng& rng,
                   const Eigen::Vector2d& keep_clear) {
  for (int i = 0; i < count;) {
    const double x = rng.uniform(1, size - 1), y = rng.uniform(1, size - 1);
    if ((Eigen::Vector2d(x, y) - keep_clear).norm() < 2.0) continue;
    world.push_back({i % 2 == 0 ? circle(x, y, rng.uniform(0.2, 0.8))
                                : box(x, y, rng.uniform(0.2, 1.0), rng.uniform(0.2, 1.0),
                                      rng.uniform(-3.14, 3.14)),
                     false});
    ++i;
  }
}

// 20 m x 20 m walled room with 50 obstacles; the scanner stands at its centre.
std::vector<WorldBody> room_world() {
  Rng rng(1);
  std::vector<WorldBody> world{{square_walls(20.0), false}};
  add_obstacles(world, 50, 20.0, rng, {10, 10});
  return world;
}

constexpr int kRobots = 1000;
constexpr double kRobotRadius = 0.3;

// 200 m x 200 m walled world: 500 static obstacles, then 1000 robots (dynamic circles).
std::vector<WorldBody> robot_world() {
  Rng rng(2);
  std::vector<WorldBody> world{{square_walls(200.0), false}};
  add_obstacles(world, 500, 200.0, rng, {-100, -100});
  for (int i = 0; i < kRobots; ++i) {
    world.push_back({circle(rng.uniform(1, 199), rng.uniform(1, 199), kRobotRadius), true});
  }
  return world;
}

void build(Scene& scene, const std::vector<WorldBody>& world) {
  for (std::size_t i = 0; i < world.size(); ++i) {
    scene.add_body(world[i].geometry, world[i].dynamic, static_cast<int>(i));
  }
  scene.commit();
}

std::vector<double> fan_yaws(int beams) {
  std::vector<double> yaws(beams);
  for (int i = 0; i < beams; ++i) yaws[i] = -std::numbers::pi + 2 * std::numbers::pi * i / beams;
  return yaws;
}

void BM_RoomScan(benchmark::State& state) {
  Scene scene;
  build(scene, room_world());
  const std::vector<double> yaws = fan_yaws(static_cast<int>(state.range(0)));
  std::vector<RayHit> out(yaws.size());
  for (auto _ : state) {
    scene.cast_fan({10, 10, 0}, yaws, 30.0, kNoUserId, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(yaws.size()));
}
BENCHMARK(BM_RoomScan)->Arg(360)->Arg(3600);

// The same scan as lidar2d casts it without angle noise: a FanTable turned by the heading
// (one sincos a scan) and only the hits written (cast_fan_hits).
void BM_RoomScanTable(benchmark::State& state) {
  Scene scene;
  build(scene, room_world());
  const FanTable table(fan_yaws(static_cast<int>(state.range(0))));
  std::vector<RayHit> out(table.size());
  std::vector<std::uint64_t> bits((table.size() + 63) / 64);
  double heading = 0.0;
  for (auto _ : state) {
    scene.cast_fan_hits({10, 10, 0}, heading, table, 30.0, kNoUserId, out, bits);
    heading = heading == 0.0 ? 1e-3 : 0.0;  // a heading that changes, as a robot's does
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(table.size()));
}
BENCHMARK(BM_RoomScanTable)->Arg(360)->Arg(3600);

// A fan that meets nothing: the fixed cost per fan and per beam.
void BM_EmptyFan(benchmark::State& state) {
  Scene scene;
  scene.add_body(circle(100, 100, 1), false, 0);
  scene.commit();
  const std::vector<double> yaws = fan_yaws(static_cast<int>(state.range(0)));
  std::vector<RayHit> out(yaws.size());
  for (auto _ : state) {
    scene.cast_fan({0, 0, 0}, yaws, 10.0, kNoUserId, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(yaws.size()));
}
BENCHMARK(BM_EmptyFan)->Arg(360);

void BM_EmptyFanTable(benchmark::State& state) {
  Scene scene;
  scene.add_body(circle(100, 100, 1), false, 0);
  scene.commit();
  const FanTable table(fan_yaws(static_cast<int>(state.range(0))));
  std::vector<RayHit> out(table.size());
  std::vector<std::uint64_t> bits((table.size() + 63) / 64);
  for (auto _ : state) {
    scene.cast_fan_hits({0, 0, 0}, 0.5, table, 10.0, kNoUserId, out, bits);
    benchmark::DoNotOptimize(bits.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(table.size()));
}
BENCHMARK(BM_EmptyFanTable)->Arg(360);

// Same scan through cast() (incoherent flag, rays built by the caller).
void BM_RoomScanCast(benchmark::State& state) {
  Scene scene;
  build(scene, room_world());
  std::vector<Ray> rays;
  for (double yaw : fan_yaws(static_cast<int>(state.range(0)))) {
    rays.push_back({{10, 10, 0}, {std::cos(yaw), std::sin(yaw), 0}, 30.0});
  }
  std::vector<RayHit> out(rays.size());
  for (auto _ : state) {
    scene.cast(rays, kNoUserId, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(rays.size()));
}
BENCHMARK(BM_RoomScanCast)->Arg(360);

// Robot world fixture state: robots' body ids follow the static bodies.
struct RobotWorld {
  std::vector<WorldBody> world = robot_world();
  Scene scene;
  BodyId first_robot = 0;
  RobotWorld() {
    build(scene, world);
    first_robot = static_cast<BodyId>(world.size() - kRobots);
  }
  Eigen::Vector2d robot(int i) const { return world[first_robot + i].geometry.center; }
  void move(int i, const Eigen::Vector2d& p) {
    world[first_robot + i].geometry.center = p;
    scene.update_body(first_robot + i, world[first_robot + i].geometry);
  }
  // Teleports every robot to a fresh random place: the worst case for a refit BVH.
  void scatter(std::uint64_t seed) {
    Rng rng(seed);
    for (int i = 0; i < kRobots; ++i) move(i, {rng.uniform(1, 199), rng.uniform(1, 199)});
    scene.commit();
  }
};

void BM_RobotsCommit(benchmark::State& state) {
  RobotWorld w;
  Rng rng(3);
  double sign = 1.0;
  for (auto _ : state) {
    state.PauseTiming();
    for (int i = 0; i < kRobots; ++i) {
      w.move(i, w.robot(i) + sign * Eigen::Vector2d(0.01, 0.005));
    }
    sign = -sign;
    state.ResumeTiming();
    w.scene.commit();
  }
}
BENCHMARK(BM_RobotsCommit)->Unit(benchmark::kMicrosecond);

// IR-SIM's lidar_world: one moving robot, two static bodies; a commit per step.
void BM_SmallWorldCommit(benchmark::State& state) {
  Scene scene;
  scene.add_body(box(6, 5, 0.75, 0.6, 1.0), false, 1);
  scene.add_body(polyline_of({{10, 5}, {4, 0}}), false, 2);
  const BodyId robot = scene.add_body(circle(1, 1, 0.2), true, 0);
  scene.commit();
  double x = 1.0;
  for (auto _ : state) {
    x = x > 9.0 ? 1.0 : x + 0.01;
    scene.update_body(robot, circle(x, x, 0.2));
    scene.commit();
  }
}
BENCHMARK(BM_SmallWorldCommit)->Unit(benchmark::kMicrosecond);

void BM_RobotsUpdateAndCommit(benchmark::State& state) {
  RobotWorld w;
  double sign = 1.0;
  for (auto _ : state) {
    for (int i = 0; i < kRobots; ++i) {
      w.move(i, w.robot(i) + sign * Eigen::Vector2d(0.01, 0.005));
    }
    sign = -sign;
    w.scene.commit();
  }
}
BENCHMARK(BM_RobotsUpdateAndCommit)->Unit(benchmark::kMicrosecond);

// A commit followed by one ray through cast(), which brings Embree's BVHs up to date (deferred
// from commit() since the fan path does not need them).
void BM_RobotsCommitThenRay(benchmark::State& state) {
  RobotWorld w;
  double sign = 1.0;
  const Ray ray{{100, 100, 0}, {1, 0, 0}, 10.0};
  RayHit hit;
  for (auto _ : state) {
    state.PauseTiming();
    for (int i = 0; i < kRobots; ++i) {
      w.move(i, w.robot(i) + sign * Eigen::Vector2d(0.01, 0.005));
    }
    sign = -sign;
    state.ResumeTiming();
    w.scene.commit();
    w.scene.cast({&ray, 1}, kNoUserId, {&hit, 1});
  }
}
BENCHMARK(BM_RobotsCommitThenRay)->Unit(benchmark::kMicrosecond);

void robots_fans(benchmark::State& state, RobotWorld& w) {
  const std::vector<double> yaws = fan_yaws(360);
  std::vector<RayHit> out(yaws.size());
  for (auto _ : state) {
    for (int i = 0; i < kRobots; ++i) {
      const Eigen::Vector2d p = w.robot(i);
      w.scene.cast_fan({p.x(), p.y(), 0}, yaws, 10.0, static_cast<int>(w.first_robot + i), out);
      benchmark::DoNotOptimize(out.data());
    }
  }
  state.SetItemsProcessed(state.iterations() * kRobots * static_cast<std::int64_t>(yaws.size()));
}

void BM_RobotsFans(benchmark::State& state) {
  RobotWorld w;
  robots_fans(state, w);
}
BENCHMARK(BM_RobotsFans)->Unit(benchmark::kMillisecond);

// The same with one sphere in the world, beyond every fan's reach: fans still take the 2D path.
void BM_RobotsFansFarSphere(benchmark::State& state) {
  RobotWorld w;
  w.scene.add_sphere({500, 500, 0}, 1.0, false, -1);
  w.scene.commit();
  robots_fans(state, w);
}
BENCHMARK(BM_RobotsFansFarSphere)->Unit(benchmark::kMillisecond);

// The same fans as rays through cast(): Embree's packets (the fan path's reference).
void BM_RobotsFansCast(benchmark::State& state) {
  RobotWorld w;
  const std::vector<double> yaws = fan_yaws(360);
  std::vector<Ray> rays(yaws.size());
  std::vector<RayHit> out(yaws.size());
  for (auto _ : state) {
    for (int i = 0; i < kRobots; ++i) {
      const Eigen::Vector2d p = w.robot(i);
      for (std::size_t k = 0; k < yaws.size(); ++k) {
        rays[k] = {{p.x(), p.y(), 0}, {std::cos(yaws[k]), std::sin(yaws[k]), 0}, 10.0};
      }
      w.scene.cast(rays, static_cast<int>(w.first_robot + i), out);
      benchmark::DoNotOptimize(out.data());
    }
  }
  state.SetItemsProcessed(state.iterations() * kRobots * static_cast<std::int64_t>(yaws.size()));
}
BENCHMARK(BM_RobotsFansCast)->Unit(benchmark::kMillisecond);

// After every robot moved far from where the BVH was built (refit only).
void BM_RobotsFansScattered(benchmark::State& state) {
  RobotWorld w;
  for (int round = 0; round < static_cast<int>(state.range(0)); ++round) w.scatter(10 + round);
  robots_fans(state, w);
}
BENCHMARK(BM_RobotsFansScattered)->Arg(1)->Unit(benchmark::kMillisecond);

// Raw Embree on the same geometry (raw_embree.h): self-exclusion by starting rays just outside
// the robot.
std::vector<BodyGeometry> geometries(const std::vector<WorldBody>& world) {
  std::vector<BodyGeometry> out;
  for (const WorldBody& body : world) out.push_back(body.geometry);
  return out;
}

template <bool kPacket>
void BM_RawEmbreeRoomScan(benchmark::State& state) {
  RawEmbree raw(geometries(room_world()));
  const std::vector<double> yaws = fan_yaws(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    benchmark::DoNotOptimize(kPacket ? raw.fan16({10, 10}, yaws, 0, 30)
                                     : raw.fan1({10, 10}, yaws, 0, 30));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(yaws.size()));
}
BENCHMARK(BM_RawEmbreeRoomScan<false>)->Arg(360)->Arg(3600);
BENCHMARK(BM_RawEmbreeRoomScan<true>)->Arg(360)->Arg(3600);

template <bool kPacket>
void BM_RawEmbreeRobotsFans(benchmark::State& state) {
  const std::vector<WorldBody> world = robot_world();
  RawEmbree raw(geometries(world));
  const std::vector<double> yaws = fan_yaws(360);
  const std::size_t first = world.size() - kRobots;
  const float tnear = kRobotRadius * 1.001;
  for (auto _ : state) {
    for (std::size_t i = first; i < world.size(); ++i) {
      const Eigen::Vector2d p = world[i].geometry.center;
      benchmark::DoNotOptimize(kPacket ? raw.fan16(p, yaws, tnear, 10)
                                       : raw.fan1(p, yaws, tnear, 10));
    }
  }
  state.SetItemsProcessed(state.iterations() * kRobots * static_cast<std::int64_t>(yaws.size()));
}
BENCHMARK(BM_RawEmbreeRobotsFans<false>)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RawEmbreeRobotsFans<true>)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ubot::scene

BENCHMARK_MAIN();
