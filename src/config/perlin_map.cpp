// Perlin-noise occupancy grids (perlin_map.h).
#include "perlin_map.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "ubot/core/random.h"

namespace ubot::config {
namespace {

constexpr int kTable = 256;

struct Gradient {
  double x, y;
};

// 4 axis directions and 4 diagonals, as IR-SIM's _GRADIENTS, picked by hash % 8.
const std::array<Gradient, 8>& gradients() {
  static const double d = 1.0 / std::sqrt(2.0);
  static const std::array<Gradient, 8> g{
      {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {d, d}, {-d, d}, {d, -d}, {-d, -d}}};
  return g;
}

double fade(double t) { return t * t * t * (t * (t * 6 - 15) + 10); }
double lerp(double a, double b, double t) { return a + t * (b - a); }

// 0..255 shuffled (Fisher-Yates with unbiased draws), then repeated once.
std::array<int, 2 * kTable> permutation(std::uint64_t seed) {
  RandomStream rng(seed);
  std::array<int, 2 * kTable> perm{};
  for (int i = 0; i < kTable; ++i) perm[i] = i;
  for (int i = kTable - 1; i > 0; --i) {
    const auto bound = static_cast<std::uint64_t>(i + 1);
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % bound);
    std::uint64_t draw = rng.next_u64();
    while (draw >= limit) draw = rng.next_u64();
    std::swap(perm[i], perm[static_cast<int>(draw % bound)]);
  }
  for (int i = 0; i < kTable; ++i) perm[kTable + i] = perm[i];
  return perm;
}

double noise_at(double x, double y, const std::array<int, 2 * kTable>& perm) {
  const int xi = static_cast<int>(x) & (kTable - 1);
  const int yi = static_cast<int>(y) & (kTable - 1);
  const double xf = x - std::floor(x), yf = y - std::floor(y);
  const auto& g = gradients();
  auto dot = [&](int hash, double dx, double dy) {
    const Gradient& v = g[static_cast<std::size_t>(hash % 8)];
    return v.x * dx + v.y * dy;
  };
  const double aa = dot(perm[perm[xi] + yi], xf, yf);
  const double ab = dot(perm[perm[xi] + yi + 1], xf, yf - 1);
  const double ba = dot(perm[perm[xi + 1] + yi], xf - 1, yf);
  const double bb = dot(perm[perm[xi + 1] + yi + 1], xf - 1, yf - 1);
  const double u = fade(xf), v = fade(yf);
  return lerp(lerp(aa, ba, u), lerp(ab, bb, u), v);
}

}  // namespace

std::vector<float> perlin_occupancy(const PerlinSpec& spec, std::uint64_t seed) {
  const auto perm = permutation(seed);
  const std::size_t n = static_cast<std::size_t>(spec.nx) * spec.ny;
  std::vector<double> noise(n, 0.0);
  double max_amplitude = 0.0;
  for (int k = 0; k < spec.fractal; ++k) {
    const double amplitude = spec.attenuation / (k + 1);
    const double frequency = spec.complexity * std::pow(2.0, k);
    for (int i = 0; i < spec.nx; ++i) {
      for (int j = 0; j < spec.ny; ++j) {
        noise[static_cast<std::size_t>(i) * spec.ny + j] +=
            amplitude * noise_at(i * frequency, j * frequency, perm);
      }
    }
    max_amplitude += amplitude;
  }
  for (double& v : noise) v = std::clamp((v / max_amplitude + 1.0) / 2.0, 0.0, 1.0);
  // Occupied: above the value at rank (1 - fill) n of the sorted noise.
  std::vector<double> sorted = noise;
  const auto rank =
      std::min(static_cast<std::size_t>((1.0 - spec.fill) * static_cast<double>(n)), n - 1);
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(rank),
                   sorted.end());
  const double threshold = sorted[rank];
  std::vector<float> occupancy(n);
  for (std::size_t c = 0; c < n; ++c) occupancy[c] = noise[c] > threshold ? 100.0f : 0.0f;
  return occupancy;
}

}  // namespace ubot::config
