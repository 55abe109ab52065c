#pragma once
// Seeded random streams. Every consumer (a sensor's noise, kinematic noise, random placement)
// owns one stream derived from the world seed and a stable id, so adding a sensor never changes
// another's numbers, and same seed + same world gives the same numbers on every machine.
#include <cstdint>
#include <random>
#include <string_view>

namespace ubot {

// Mixes a world seed and a stable id (e.g. "robot_0/sensor_1") into an independent 64-bit seed.
std::uint64_t derive_seed(std::uint64_t world_seed, std::string_view stable_id);

class RandomStream {
 public:
  explicit RandomStream(std::uint64_t seed);
  RandomStream(std::uint64_t world_seed, std::string_view stable_id);

  std::uint64_t next_u64() { return engine_(); }
  // Uniform in [0, 1) with 53 random bits.
  double uniform();
  double uniform(double low, double high) { return low + (high - low) * uniform(); }
  // Normal with mean 0 and standard deviation `stddev` (Marsaglia's polar method, which
  // produces values in pairs; the spare is kept for the next call).
  double gaussian(double stddev);

 private:
  std::mt19937_64 engine_;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

}  // namespace ubot
