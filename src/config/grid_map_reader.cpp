// `world.obstacle_map`: images, generators and ROS map_server maps (grid_map_reader.h).
#include "grid_map_reader.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "grid_image.h"
#include "perlin_map.h"
#include "ubot/core/error.h"
#include "ubot/core/random.h"

namespace ubot::config {
namespace {

namespace fs = std::filesystem;

// Cells above this count are refused: 2^28 floats is 1 GiB.
constexpr double kMaxCells = 268435456.0;

std::string resolve_path(const Field& field, const std::string& written) {
  const fs::path p(written);
  if (p.is_absolute()) {
    if (fs::is_regular_file(p)) return p.string();
  } else {
    const fs::path beside = fs::path(*field.file()).parent_path() / p;
    if (fs::is_regular_file(beside)) return beside.string();
    if (fs::is_regular_file(p)) return p.string();
    // IR-SIM finds its bundled maps (`cave.png`, `hm3d_2.png`) in its own package; ubot ships
    // the same images: UBOT_IRSIM_MAPS, else the copy in the source tree's data/irsim_maps.
    const char* env = std::getenv("UBOT_IRSIM_MAPS");
    const fs::path bundled = fs::path(env && *env ? env : UBOT_IRSIM_MAPS_DIR) / p;
    if (fs::is_regular_file(bundled)) return bundled.string();
  }
  field.fail(fmt::format(
      "file {} not found (looked beside the world file, in the current directory and in "
      "IR-SIM's maps)",
      quote_value(written)));
}

bool is_yaml_path(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  return ext == ".yaml" || ext == ".yml";
}

// IR-SIM's image rule: occupancy 100 (1 - grey); column c, row r of the image becomes cell
// (c, height - 1 - r), so the image's top row is the world's top.
GridMap grid_from_image(const GreyImage& image) {
  GridMap g;
  g.nx = image.width;
  g.ny = image.height;
  g.occupancy.resize(static_cast<std::size_t>(g.nx) * g.ny);
  for (int i = 0; i < g.nx; ++i) {
    for (int j = 0; j < g.ny; ++j) {
      g.occupancy[static_cast<std::size_t>(i) * g.ny + j] =
          static_cast<float>(100.0 * (1.0 - image.at(i, g.ny - 1 - j)));
    }
  }
  return g;
}

GridMap read_image_map(const Field& field, const std::string& written) {
  const std::string path = resolve_path(field, written);
  try {
    GridMap g = grid_from_image(read_grey_image(path));
    g.source = written;
    return g;
  } catch (const Error& e) {
    field.fail(e.what());
  }
}

GridMap read_perlin_map(Mapping& spec, const WorldSettings& w, std::uint64_t world_seed) {
  const Field resolution_field = spec.require("resolution");
  const double resolution = resolution_field.as_positive();
  PerlinSpec p;
  const double nx = std::max(1.0, std::round(w.width / resolution));
  const double ny = std::max(1.0, std::round(w.height / resolution));
  if (nx * ny > kMaxCells) {
    resolution_field.fail(fmt::format("gives {} x {} cells; at most {} are allowed", nx, ny,
                                      static_cast<std::int64_t>(kMaxCells)));
  }
  p.nx = static_cast<int>(nx);
  p.ny = static_cast<int>(ny);
  p.complexity = spec.number("complexity", p.complexity);
  if (auto f = spec.get("fill")) p.fill = f->as_unit_interval();
  if (auto f = spec.get("fractal")) {
    const std::int64_t k = f->as_integer();
    if (k < 1 || k > 30) f->fail(fmt::format("must be in 1..30, got {}", k));
    p.fractal = static_cast<int>(k);
  }
  p.attenuation = spec.positive("attenuation", p.attenuation);
  std::optional<std::uint64_t> seed;
  if (auto f = spec.get("seed")) {
    const std::int64_t s = f->as_integer();
    if (s < 0) f->fail("seed must not be negative");
    seed = static_cast<std::uint64_t>(s);
  }
  GridMap g;
  g.nx = p.nx;
  g.ny = p.ny;
  g.occupancy = perlin_occupancy(p, stream_seed(world_seed, "obstacle_map/perlin", seed));
  g.source = "perlin";
  return g;
}

GridMap read_generator_spec(const Field& field, const WorldSettings& w, std::uint64_t seed) {
  Mapping spec(field);
  const std::string name = spec.require("name").as_choice({"image", "perlin"});
  GridMap g;
  if (name == "image") {
    const Field path = spec.require("path");
    g = read_image_map(path, path.as_string());
  } else {
    g = read_perlin_map(spec, w, seed);
  }
  spec.finish();
  return g;
}

// IR-SIM's grid[::m, ::m]: every m-th cell from the first, along both axes.
void downsample(GridMap& g, int m) {
  if (m == 1) return;
  const int nx = (g.nx + m - 1) / m, ny = (g.ny + m - 1) / m;
  std::vector<float> out(static_cast<std::size_t>(nx) * ny);
  for (int i = 0; i < nx; ++i) {
    for (int j = 0; j < ny; ++j) out[static_cast<std::size_t>(i) * ny + j] = g.value(i * m, j * m);
  }
  g.nx = nx;
  g.ny = ny;
  g.occupancy = std::move(out);
}

int read_downsample(Mapping& world) {
  const auto f = world.get("mdownsample");
  if (!f) return 1;
  const std::int64_t m = f->as_integer();
  if (m < 1 || m > 1000000) f->fail(fmt::format("must be a whole number >= 1, got {}", m));
  return static_cast<int>(m);
}

}  // namespace

std::shared_ptr<const GridMap> read_obstacle_map(const Field& world, const WorldSettings& settings,
                                                 std::uint64_t world_seed) {
  if (!world.is_map()) return nullptr;
  Mapping m(world);
  const int step = read_downsample(m);
  const auto field = m.get("obstacle_map");
  if (!field) return nullptr;
  GridMap g;
  bool placed_by_world = true;
  if (field->is_map()) {
    g = read_generator_spec(*field, settings, world_seed);
  } else {
    const std::string written = field->as_string();
    if (is_yaml_path(written)) {
      const std::string path = resolve_path(*field, written);
      g = read_map_server_yaml(path);
      placed_by_world = false;
    } else {
      g = read_image_map(*field, written);
    }
  }
  downsample(g, step);
  if (placed_by_world) {
    // IR-SIM stretches the grid over the world rectangle: cell size = world size / cells.
    g.origin = settings.offset;
    g.cell = {settings.width / g.nx, settings.height / g.ny};
  } else {
    g.cell *= step;
  }
  return std::make_shared<const GridMap>(std::move(g));
}

}  // namespace ubot::config
