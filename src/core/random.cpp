#include "ubot/core/random.h"

#include <cmath>

namespace ubot {
namespace {

// SplitMix64 finaliser: a bijective avalanche mix (Steele, Lea, Flood 2014).
std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// FNV-1a over the bytes of the id: stable across platforms and runs.
std::uint64_t hash_id(std::string_view id) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : id) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace

std::uint64_t derive_seed(std::uint64_t world_seed, std::string_view stable_id) {
  return mix64(mix64(world_seed) ^ hash_id(stable_id));
}

RandomStream::RandomStream(std::uint64_t seed) : engine_(seed) {}

RandomStream::RandomStream(std::uint64_t world_seed, std::string_view stable_id)
    : engine_(derive_seed(world_seed, stable_id)) {}

double RandomStream::uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

double RandomStream::gaussian(double stddev) {
  if (has_spare_) {
    has_spare_ = false;
    return spare_ * stddev;
  }
  double u, v, s;
  do {
    u = 2.0 * uniform() - 1.0;
    v = 2.0 * uniform() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  const double scale = std::sqrt(-2.0 * std::log(s) / s);
  spare_ = v * scale;
  has_spare_ = true;
  return u * scale * stddev;
}

}  // namespace ubot
