#pragma once
// Seeded random streams. Every consumer (a sensor's noise, kinematic noise, wander goals, random
// placement) owns one stream seeded by the one rule of stream_seed (docs/determinism.md), so
// adding a sensor never changes another's numbers, `--seed` changes all of them, and same seed +
// same world gives the same numbers on every machine.
#include <cstdint>
#include <optional>
#include <string_view>

namespace ubot {

class StateIo;

// Mixes a world seed and a stable id (e.g. "robot_0/sensor_1") into an independent 64-bit seed.
std::uint64_t derive_seed(std::uint64_t world_seed, std::string_view stable_id);

// The seeding rule of every random stream: derive_seed(world_seed, stream_id), and when the
// stream has an explicit seed (a sensor's `seed:`), that seed mixed in on top as
// derive_seed(derive_seed(world_seed, stream_id), "seed/<explicit_seed>"). The explicit seed
// never replaces the world seed: `--seed` still changes the stream, and two streams with the
// same explicit seed but different ids differ. Stream ids: "<object>/<sensor>" (a sensor's
// noise), "<object>/wander", "<object>/kinematics", "distribution/<role>/<group>",
// "<object>/shape" (a random shape).
std::uint64_t stream_seed(std::uint64_t world_seed, std::string_view stream_id,
                          std::optional<std::uint64_t> explicit_seed = std::nullopt);

// xoshiro256++ (Blackman and Vigna, 2019): a small, fast generator with a 2^256 - 1 period and
// good statistical quality, seeded through SplitMix64 as its authors recommend.
class Xoshiro256pp {
 public:
  using result_type = std::uint64_t;
  explicit Xoshiro256pp(std::uint64_t seed);
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }
  result_type operator()() {
    const std::uint64_t result = rotl(s_[0] + s_[3], 23) + s_[0];
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

 private:
  friend void io(StateIo& s, Xoshiro256pp& x);  // state files: its four words
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

class RandomStream {
 public:
  explicit RandomStream(std::uint64_t seed);
  RandomStream(std::uint64_t world_seed, std::string_view stable_id);

  std::uint64_t next_u64() { return engine_(); }
  // Uniform in [0, 1) with 53 random bits.
  double uniform();
  double uniform(double low, double high) { return low + (high - low) * uniform(); }
  // Normal with mean 0 and standard deviation `stddev`: Marsaglia and Tsang's ziggurat (2000)
  // with 256 layers, one 64-bit draw per value in ~99% of cases (8 bits pick the layer, 53 bits
  // the position), Marsaglia's exponential method for the tail beyond r = 3.654.
  double gaussian(double stddev) { return standard_normal() * stddev; }
  double standard_normal();

 private:
  friend void io(StateIo& s, RandomStream& r);
  Xoshiro256pp engine_;
};

}  // namespace ubot
