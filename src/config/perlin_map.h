#pragma once
// Perlin-noise occupancy grids (obstacle_map {name: perlin}), following IR-SIM's generator spec
// (GCOPTER's map_gen parameters): 2D gradient noise on a 256-entry permutation table with 8
// gradients, fade 6t^5 - 15t^4 + 10t^3, `fractal` octaves of frequency complexity * 2^k and
// amplitude attenuation / (k + 1), normalised to [0, 1]; the cells above the (1 - fill)
// quantile of the noise are occupied. The permutation is shuffled by a ubot random stream, not
// numpy's, so a map matches IR-SIM's in its statistics, not cell for cell (docs/grid-maps.md).
#include <cstdint>

#include "ubot/config/grid_map.h"

namespace ubot::config {

struct PerlinSpec {
  int nx = 1, ny = 1;  // cells
  double complexity = 0.142857;
  double fill = 0.38;
  int fractal = 1;
  double attenuation = 0.5;
};

// Occupancy 0 or 100 per cell (GridMap layout); `seed` seeds the permutation shuffle.
std::vector<float> perlin_occupancy(const PerlinSpec& spec, std::uint64_t seed);

}  // namespace ubot::config
