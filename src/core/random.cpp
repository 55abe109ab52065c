#include "ubot/core/random.h"

#include <array>
#include <cmath>
#include <string>

#include "ubot/core/state_io.h"

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

Xoshiro256pp::Xoshiro256pp(std::uint64_t seed) {
  // SplitMix64 as a sequence: state += golden ratio, then the finaliser.
  for (std::uint64_t& word : s_) {
    seed += 0x9e3779b97f4a7c15ULL;
    word = mix64(seed - 0x9e3779b97f4a7c15ULL);
  }
}

std::uint64_t derive_seed(std::uint64_t world_seed, std::string_view stable_id) {
  return mix64(mix64(world_seed) ^ hash_id(stable_id));
}

std::uint64_t stream_seed(std::uint64_t world_seed, std::string_view stream_id,
                          std::optional<std::uint64_t> explicit_seed) {
  const std::uint64_t base = derive_seed(world_seed, stream_id);
  if (!explicit_seed) return base;
  return derive_seed(base, "seed/" + std::to_string(*explicit_seed));
}

RandomStream::RandomStream(std::uint64_t seed) : engine_(seed) {}

RandomStream::RandomStream(std::uint64_t world_seed, std::string_view stable_id)
    : engine_(derive_seed(world_seed, stable_id)) {}

double RandomStream::uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

namespace {

// Ziggurat tables for the unnormalised density f(x) = exp(-x^2 / 2) with 256 layers of equal
// area v: x[0] = v / f(r) (the base layer's pseudo-width, tail included), x[1] = r, ...,
// x[256] = 0, with f(x[i + 1]) = f(x[i]) + v / x[i].
struct Ziggurat {
  static constexpr double kR = 3.6541528853610088;
  static constexpr double kV = 0.00492867323399;
  std::array<double, 257> x{};
  std::array<double, 257> f{};
  Ziggurat() {
    const auto pdf = [](double t) { return std::exp(-0.5 * t * t); };
    x[0] = kV / pdf(kR);
    x[1] = kR;
    for (int i = 1; i < 255; ++i) x[i + 1] = std::sqrt(-2.0 * std::log(kV / x[i] + pdf(x[i])));
    x[256] = 0.0;
    for (int i = 0; i < 257; ++i) f[i] = pdf(x[i]);
  }
};

const Ziggurat& ziggurat() {
  static const Ziggurat z;
  return z;
}

}  // namespace

double RandomStream::standard_normal() {
  const Ziggurat& z = ziggurat();
  for (;;) {
    const std::uint64_t bits = engine_();
    const int i = static_cast<int>(bits & 0xff);
    // 53 bits as a uniform in (-1, 1): symmetric around 0.
    const double u =
        static_cast<double>(static_cast<std::int64_t>(bits >> 11) - (std::int64_t{1} << 52)) *
        0x1.0p-52;
    const double x = u * z.x[i];
    if (std::abs(x) < z.x[i + 1]) return x;  // inside the layer's rectangle: accept
    if (i == 0) {
      // The tail beyond r, by Marsaglia's method.
      double tx, ty;
      do {
        tx = std::log(1.0 - uniform()) / Ziggurat::kR;
        ty = std::log(1.0 - uniform());
      } while (-2.0 * ty < tx * tx);
      return u < 0.0 ? tx - Ziggurat::kR : Ziggurat::kR - tx;
    }
    // In the wedge between the rectangle and the curve: accept under the density.
    if (z.f[i + 1] + (z.f[i] - z.f[i + 1]) * uniform() < std::exp(-0.5 * x * x)) return x;
  }
}

void io(StateIo& s, Xoshiro256pp& x) {
  for (std::uint64_t& w : x.s_) s.value(w);
}

void io(StateIo& s, RandomStream& r) { io(s, r.engine_); }

}  // namespace ubot
