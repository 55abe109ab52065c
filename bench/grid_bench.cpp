// Grid-map ray casting (docs/grid-maps.md): a 360-beam lidar2d scan on a 1000 x 1000 Perlin grid
// (50 x 50 m, 0.05 m cells, range 20 m), from 64 free cells, through the two exact candidates:
//   - BM_GridScanScene: the occupied cells merged into rectangles, static polygons of the Scene,
//     cast by its 2D fan path (Scene::cast_fan, what lidar2d calls);
//   - BM_GridScanDda: a 2D DDA over the cells (scene::GridCaster), beam by beam;
//   - BM_GridScanDdaMany: the DDA with four beams' walks interleaved (GridCaster::cast_many);
//   - BM_GridScanSceneGrid: Scene::cast_fan on a scene holding the grid (the lidar2d path).
// Argument: the Perlin fill in percent (38: IR-SIM's default; 10: sparse, long rays).
// BM_GridScanDdaDriving: the DDA's scans from 64 free cells one after another along a row (a
// robot driving: consecutive scans share most cells, so they stay in cache), against the 64
// scattered origins of the others.
// Figures and the machine: docs/grid-maps.md.
#include <benchmark/benchmark.h>

#include <cmath>
#include <limits>
#include <numbers>

#include <fmt/format.h>

#include "ubot/config/load_world.h"
#include "ubot/scene/grid_caster.h"
#include "ubot/scene/scene.h"

namespace {

constexpr int kBeams = 360;
constexpr double kRange = 20.0;

struct GridWorld {
  std::shared_ptr<const ubot::GridMap> grid;
  std::vector<Eigen::Vector3d> origins;  // free cell centres
  std::vector<double> yaws;
};

GridWorld make_world(int fill_percent) {
  const std::string yaml = fmt::format(
      "world: {{width: 50, height: 50, obstacle_map: {{name: perlin, resolution: 0.05, "
      "complexity: 0.02, fill: {}, seed: 7}}}}\n",
      fill_percent / 100.0);
  GridWorld w;
  w.grid = ubot::load_world_from_string(yaml, "grid_bench.yaml").grid;
  const ubot::GridMap& g = *w.grid;
  for (int k = 0; w.origins.size() < 64; ++k) {
    const int i = (k * 7919) % g.nx, j = (k * 104729 + 13) % g.ny;
    if (g.occupied(i, j)) continue;
    w.origins.emplace_back(g.origin.x() + (i + 0.5) * g.cell.x(),
                           g.origin.y() + (j + 0.5) * g.cell.y(), 0.0);
  }
  for (int b = 0; b < kBeams; ++b) w.yaws.push_back(2.0 * std::numbers::pi * b / kBeams);
  return w;
}

void add_rectangles(ubot::scene::Scene& scene, const ubot::GridMap& g) {
  for (const ubot::CellRect& r : g.merged_rectangles()) {
    const Eigen::Vector2d lo = g.corner_min(r), hi = g.corner_max(r);
    ubot::scene::BodyGeometry body;
    body.kind = ubot::scene::ShapeKind::kPolygon;
    body.vertices = {lo, {hi.x(), lo.y()}, hi, {lo.x(), hi.y()}};
    scene.add_body(body, false, -1);
  }
  scene.commit();
}

void BM_GridScanScene(benchmark::State& state) {
  const GridWorld w = make_world(static_cast<int>(state.range(0)));
  ubot::scene::Scene scene;
  add_rectangles(scene, *w.grid);
  std::vector<ubot::scene::RayHit> hits(kBeams);
  std::size_t k = 0;
  for (auto _ : state) {
    scene.cast_fan(w.origins[k++ % w.origins.size()], w.yaws, kRange, ubot::scene::kNoUserId, hits);
    benchmark::DoNotOptimize(hits.data());
  }
  state.counters["rays/s"] = benchmark::Counter(static_cast<double>(state.iterations()) * kBeams,
                                                benchmark::Counter::kIsRate);
  state.counters["bodies"] = static_cast<double>(scene.body_count());
}

void BM_GridScanDda(benchmark::State& state) {
  const GridWorld w = make_world(static_cast<int>(state.range(0)));
  const ubot::GridMap& g = *w.grid;
  const auto inf = std::numeric_limits<double>::infinity();
  const ubot::scene::GridCaster caster(g.nx, g.ny, g.origin, g.cell, g.occupied_rows(), -inf, inf,
                                       static_cast<int>(state.range(1)));
  std::vector<double> ranges(kBeams);
  std::size_t k = 0;
  for (auto _ : state) {
    const Eigen::Vector3d& o = w.origins[k++ % w.origins.size()];
    for (int b = 0; b < kBeams; ++b) ranges[b] = caster.cast_yaw(o, w.yaws[b], kRange).distance;
    benchmark::DoNotOptimize(ranges.data());
  }
  state.counters["rays/s"] = benchmark::Counter(static_cast<double>(state.iterations()) * kBeams,
                                                benchmark::Counter::kIsRate);
}

// What lidar2d calls: Scene::cast_fan on a scene holding the grid (Scene::set_grid), which
// casts every beam through cast_many.
void BM_GridScanSceneGrid(benchmark::State& state) {
  const GridWorld w = make_world(static_cast<int>(state.range(0)));
  const ubot::GridMap& g = *w.grid;
  ubot::scene::Scene scene;
  scene.set_grid(std::make_shared<const ubot::scene::GridCaster>(g.nx, g.ny, g.origin, g.cell,
                                                                 g.occupied_rows()),
                 -1);
  scene.commit();
  std::vector<ubot::scene::RayHit> hits(kBeams);
  std::size_t k = 0;
  for (auto _ : state) {
    scene.cast_fan(w.origins[k++ % w.origins.size()], w.yaws, kRange, ubot::scene::kNoUserId, hits);
    benchmark::DoNotOptimize(hits.data());
  }
  state.counters["rays/s"] = benchmark::Counter(static_cast<double>(state.iterations()) * kBeams,
                                                benchmark::Counter::kIsRate);
}

// The same scans through GridCaster::cast_many (four walks interleaved), as Scene::cast_fan
// calls it.
void BM_GridScanDdaMany(benchmark::State& state) {
  const GridWorld w = make_world(static_cast<int>(state.range(0)));
  const ubot::GridMap& g = *w.grid;
  const ubot::scene::GridCaster caster(g.nx, g.ny, g.origin, g.cell, g.occupied_rows());
  std::vector<Eigen::Vector3d> origins(kBeams), directions(kBeams);
  const std::vector<double> ranges(kBeams, kRange);
  std::vector<ubot::scene::GridHit> hits(kBeams);
  std::size_t k = 0;
  for (auto _ : state) {
    const Eigen::Vector3d& o = w.origins[k++ % w.origins.size()];
    for (int b = 0; b < kBeams; ++b) {
      origins[b] = o;
      directions[b] = {std::cos(w.yaws[b]), std::sin(w.yaws[b]), 0.0};
    }
    caster.cast_many(origins, directions, ranges, hits);
    benchmark::DoNotOptimize(hits.data());
  }
  state.counters["rays/s"] = benchmark::Counter(static_cast<double>(state.iterations()) * kBeams,
                                                benchmark::Counter::kIsRate);
}

// Consecutive free cells 0.1 m apart along the row through the grid's middle.
std::vector<Eigen::Vector3d> driving_origins(const ubot::GridMap& g) {
  std::vector<Eigen::Vector3d> out;
  const int j = g.ny / 2;
  for (int i = 0; i < g.nx && out.size() < 64; i += 2) {
    if (!g.occupied(i, j)) {
      out.emplace_back(g.origin.x() + (i + 0.5) * g.cell.x(), g.origin.y() + (j + 0.5) * g.cell.y(),
                       0.0);
    }
  }
  return out;
}

void BM_GridScanDdaDriving(benchmark::State& state) {
  const GridWorld w = make_world(static_cast<int>(state.range(0)));
  const ubot::GridMap& g = *w.grid;
  const ubot::scene::GridCaster caster(g.nx, g.ny, g.origin, g.cell, g.occupied_rows());
  const std::vector<Eigen::Vector3d> origins = driving_origins(g);
  std::vector<double> ranges(kBeams);
  std::size_t k = 0;
  for (auto _ : state) {
    const Eigen::Vector3d& o = origins[k++ % origins.size()];
    for (int b = 0; b < kBeams; ++b) ranges[b] = caster.cast_yaw(o, w.yaws[b], kRange).distance;
    benchmark::DoNotOptimize(ranges.data());
  }
  state.counters["rays/s"] = benchmark::Counter(static_cast<double>(state.iterations()) * kBeams,
                                                benchmark::Counter::kIsRate);
}

BENCHMARK(BM_GridScanScene)->Arg(38)->Arg(10)->Unit(benchmark::kMicrosecond);
// Second argument: the longest jump through free space in cells (1: a plain DDA).
BENCHMARK(BM_GridScanDda)
    ->Args({38, 255})
    ->Args({38, 1})
    ->Args({10, 255})
    ->Args({10, 1})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GridScanSceneGrid)->Arg(38)->Arg(10)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GridScanDdaMany)->Arg(38)->Arg(10)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GridScanDdaDriving)->Arg(38)->Arg(10)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
