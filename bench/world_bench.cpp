// Whole-step benchmarks (world + scene refit + sensors), the scenarios of the README table:
//   (a) IR-SIM's lidar_world.yaml
//   (b) 10 diff robots, each with a 360-beam lidar, among 50 obstacles
//   (c) 100 rvo robots, no sensors
//   (d) 1000 diff robots, each with a 360-beam lidar, among 500 obstacles, 200 m x 200 m
// the C++ core of ubot.VectorEnv's step without Python: N copies of (a) sharing one WorldModel,
// each stepped on one thread, spread over the cores (docs/python.md, "Performance"),
// and the cost of Simulation::snapshot() and restore(), and of state files' bytes (to_bytes,
// snapshot_from_bytes), on examples/warehouse.yaml (after 50 steps,
// so every sensor has output and history), next to one of its steps (docs/determinism.md),
// and one exact shape-to-shape distance (geometry's distance(): the sweeps' min_clearance).
// Worlds are generated with a fixed seed, so every run measures the same work.
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <chrono>
#include <memory>
#include <random>
#include <string>

#include "bench_worlds.h"
#include "ubot/config/load_world.h"
#include "ubot/sim/simulation.h"
#include "ubot/world/geometry.h"

namespace ubot {
namespace {

using bench::lidar_robots_yaml;

std::string rvo_yaml(int robots) {
  return fmt::format(R"(
world: {{width: 50, height: 50, step_time: 0.1, collision_mode: unobstructed}}
robot:
  - number: {}
    distribution: {{name: circle, radius: 20, center: [25, 25]}}
    kinematics: {{name: diff}}
    shape: {{name: circle, radius: 0.2}}
    behavior: {{name: rvo, vxmax: 1.0, vymax: 1.0, acce: 1.0, factor: 2.0, neighbor_threshold: 5.0, loop: true}}
    vel_min: [-3, -3]
    vel_max: [3, 3]
    goal_threshold: 0.2
)",
                     robots);
}

// Steps a world; the world is rebuilt (untimed) every `restart` steps so the work stays typical.
void step_world(benchmark::State& state, const std::string& yaml, int restart, int threads) {
  auto make = [&] {
    return std::make_unique<Simulation>(load_world_from_string(yaml, "bench.yaml", {.seed = 1}),
                                        SimulationOptions{.threads = threads});
  };
  auto sim = make();
  std::int64_t rays_per_step = 0;
  for (const auto& s : sim->sensors()) {
    rays_per_step += std::get<Lidar2dModel>(s->model().params).number;
  }
  // Wall-clock time of the steps alone: with threads > 1 the CPU time of the main thread (what
  // kIsRate counters divide by) understates a step.
  std::chrono::steady_clock::duration rebuilds{};
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    if (sim->world().step_count() >= restart) {
      state.PauseTiming();
      const auto t0 = std::chrono::steady_clock::now();
      sim = make();
      rebuilds += std::chrono::steady_clock::now() - t0;
      state.ResumeTiming();
    }
    sim->step();
  }
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start - rebuilds;
  state.counters["wall_steps/s"] = static_cast<double>(state.iterations()) / wall.count();
  state.counters["steps/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["rays/s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * rays_per_step), benchmark::Counter::kIsRate);
}

constexpr const char* kLidarWorldYaml = R"(
world: {height: 10, width: 10, step_time: 0.1, collision_mode: stop}
robot:
  - kinematics: {name: diff}
    shape: {name: circle, radius: 0.2}
    state: [1, 1, 0]
    goal: [9, 9, 0]
    behavior: {name: dash}
    sensors:
      - {name: lidar2d, range_min: 0, range_max: 5, angle_range: 3.14, number: 200, offset: [0.1, 0.1, 0.5]}
obstacle:
  - {shape: {name: circle, radius: 1.0, center: [1, 1]}, state: [5, 5, 0], unobstructed: true}
  - {shape: {name: rectangle, length: 1.5, width: 1.2}, state: [6, 5, 1]}
  - {shape: {name: linestring, vertices: [[10, 5], [4, 0]]}, state: [0, 0, 0]}
  - {shape: {name: linestring, vertices: [[4, 0], [6, 7]]}, state: [0, 0, 0], unobstructed: true}
)";

void BM_LidarWorld(benchmark::State& state) { step_world(state, kLidarWorldYaml, 50, 1); }
BENCHMARK(BM_LidarWorld)->Unit(benchmark::kMicrosecond);

// range(0) copies of (a), each a one-thread Simulation, stepped by a parallel_for over range(1)
// threads, each env with its own random constant (v, w) and reset after 200 steps. The CPU
// column is the whole process's CPU time, so it holds on a machine shared with other jobs:
// env-steps/s (kIsRate) is env-steps per CPU-second, the cores' capacity divided by their count.
void BM_VectorOfLidarWorlds(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto model = std::make_shared<const WorldModel>(
      load_world_from_string(kLidarWorldYaml, "bench.yaml", {.seed = 1}));
  std::vector<std::unique_ptr<Simulation>> envs;
  std::vector<std::vector<Command>> commands;
  std::mt19937_64 rng(0);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int i = 0; i < n; ++i) {
    envs.push_back(std::make_unique<Simulation>(model, SimulationOptions{.threads = 1}));
    envs.back()->reset(static_cast<std::uint64_t>(i));
    commands.emplace_back(model->objects.size());
    commands.back()[0] = Eigen::Vector2d(uniform(rng), uniform(rng));
  }
  tbb::task_arena arena(static_cast<int>(state.range(1)));
  for (auto _ : state) {
    arena.execute([&] {
      tbb::parallel_for(tbb::blocked_range<int>(0, n), [&](const tbb::blocked_range<int>& r) {
        for (int i = r.begin(); i != r.end(); ++i) {
          Simulation& sim = *envs[static_cast<std::size_t>(i)];
          sim.step(commands[static_cast<std::size_t>(i)]);
          if (sim.world().step_count() >= 200) sim.reset(sim.world().seed() + 1);
        }
      });
    });
  }
  state.counters["env_steps/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * n), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_VectorOfLidarWorlds)
    ->Args({16, 1})
    ->Args({256, 1})
    ->Args({256, 2})
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMicrosecond);

void BM_TenLidarRobots(benchmark::State& state) {
  step_world(state, lidar_robots_yaml(10, 50, 20.0, "stop"), 200, static_cast<int>(state.range(0)));
}
BENCHMARK(BM_TenLidarRobots)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

void BM_HundredRvoRobots(benchmark::State& state) { step_world(state, rvo_yaml(100), 400, 1); }
BENCHMARK(BM_HundredRvoRobots)->Unit(benchmark::kMicrosecond);

void BM_ThousandLidarRobots(benchmark::State& state) {
  step_world(state, lidar_robots_yaml(1000, 500, 200.0, "unobstructed"), 300,
             static_cast<int>(state.range(0)));
}
BENCHMARK(BM_ThousandLidarRobots)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->MinTime(3.0);

std::unique_ptr<Simulation> warehouse_at_step_50() {
  auto sim = std::make_unique<Simulation>(
      load_world(std::string(UBOT_SOURCE_DIR) + "/examples/warehouse.yaml"));
  for (int k = 0; k < 50; ++k) sim->step();
  return sim;
}

void BM_WarehouseStep(benchmark::State& state) {
  const auto sim = warehouse_at_step_50();
  const SimulationSnapshot start = sim->snapshot();
  int steps = 0;
  for (auto _ : state) {
    if (++steps % 200 == 0) {  // stay in the first 250 steps: the same kind of work
      state.PauseTiming();
      sim->restore(start);
      state.ResumeTiming();
    }
    sim->step();
  }
}
BENCHMARK(BM_WarehouseStep)->Unit(benchmark::kMicrosecond);

void BM_WarehouseSnapshot(benchmark::State& state) {
  const auto sim = warehouse_at_step_50();
  for (auto _ : state) benchmark::DoNotOptimize(sim->snapshot());
}
BENCHMARK(BM_WarehouseSnapshot)->Unit(benchmark::kMicrosecond);

void BM_WarehouseRestore(benchmark::State& state) {
  const auto sim = warehouse_at_step_50();
  const SimulationSnapshot at50 = sim->snapshot();
  sim->step();
  for (auto _ : state) sim->restore(at50);
}
BENCHMARK(BM_WarehouseRestore)->Unit(benchmark::kMicrosecond);

// State files (issue 47): the snapshot as bytes (to_bytes: snapshot, serialise, CRC) and back
// (snapshot_from_bytes: checks, CRC, read; then restore), in memory: the file system's cost is
// the caller's.
void BM_WarehouseSaveState(benchmark::State& state) {
  const auto sim = warehouse_at_step_50();
  std::size_t bytes = 0;
  for (auto _ : state) {
    const std::vector<std::uint8_t> b = sim->snapshot().to_bytes();
    bytes = b.size();
    benchmark::DoNotOptimize(b.data());
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_WarehouseSaveState)->Unit(benchmark::kMicrosecond);

void BM_WarehouseLoadState(benchmark::State& state) {
  const auto sim = warehouse_at_step_50();
  const std::vector<std::uint8_t> at50 = sim->snapshot().to_bytes();
  sim->step();
  for (auto _ : state) sim->restore(sim->snapshot_from_bytes(at50));
}
BENCHMARK(BM_WarehouseLoadState)->Unit(benchmark::kMicrosecond);

// 256 shapes in a 20 m x 20 m square, a quarter each circles, rectangles, irregular hexagons
// (vertices at 0..5 rad) and 3-vertex linestrings, at random poses (fixed seed).
std::vector<WorldShape> shape_field() {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> xy(-10.0, 10.0), yaw(-3.14, 3.14), size(0.2, 1.0);
  std::vector<WorldShape> out;
  for (int i = 0; i < 256; ++i) {
    ShapeModel m;
    const double s = size(rng);
    switch (i % 4) {
      case 0:
        m.radius = s;
        break;
      case 1:
        m.kind = ShapeKind::kRectangle;
        m.vertices = {{-s, -s / 2}, {s, -s / 2}, {s, s / 2}, {-s, s / 2}};
        break;
      case 2:
        m.kind = ShapeKind::kPolygon;
        for (int k = 0; k < 6; ++k)
          m.vertices.push_back(s * Eigen::Vector2d(std::cos(k), std::sin(k)));
        break;
      default:
        m.kind = ShapeKind::kLinestring;
        m.vertices = {{-s, 0}, {0, s}, {s, 0}};
    }
    const double x = xy(rng), y = xy(rng);
    out.push_back(place_shape(m, x, y, yaw(rng)));
  }
  return out;
}

// distance() from a robot (range(0): 0 a 0.2 m circle, 1 a 0.5 m x 0.3 m rectangle) to each
// shape of the field in turn, the robot at a few places (touching some, clear of most).
void BM_ShapeDistance(benchmark::State& state) {
  const std::vector<WorldShape> field = shape_field();
  ShapeModel robot;
  if (state.range(0) == 1) {
    robot.kind = ShapeKind::kRectangle;
    robot.vertices = {{-0.25, -0.15}, {0.25, -0.15}, {0.25, 0.15}, {-0.25, 0.15}};
  }
  const std::vector<WorldShape> robots = {place_shape(robot, 0, 0, 0.3),
                                          place_shape(robot, 4.5, -2, 1.2),
                                          place_shape(robot, -7, 6, 2.5)};
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(distance(robots[i % 3], field[i % field.size()]));
    ++i;
  }
  state.counters["pairs/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ShapeDistance)->Arg(0)->Arg(1);

}  // namespace
}  // namespace ubot

BENCHMARK_MAIN();
