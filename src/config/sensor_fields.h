#pragma once
// Reading helpers every sensor type's reader uses (src/sensors/<type>/<type>_config.cpp, compiled
// into the config library): one quantity under several names, the common properties, the
// perception-media properties.
#include <initializer_list>
#include <numbers>
#include <optional>
#include <span>
#include <string_view>

#include "ubot/config/world_model.h"
#include "yaml_reader.h"

namespace ubot::config {

inline constexpr double kTwoPi = 2.0 * std::numbers::pi;
inline constexpr double kDeg = std::numbers::pi / 180.0;

// The value of whichever of `keys` is given (names of one quantity); two given is an error
// naming both.
std::optional<Field> one_of(Mapping& m, std::initializer_list<std::string_view> keys);
std::optional<Field> one_of(Mapping& m, std::string_view key, std::string_view alternative);

// Another accepted name of a key (the IMU's seed-document names).
struct Alias {
  std::string_view key;
  std::string_view seed_name;
};

// Reads ubot's `key` or its alias.
class SensorKeys {
 public:
  explicit SensorKeys(Mapping& m, std::span<const Alias> aliases = {}) : m_(m), aliases_(aliases) {}
  std::optional<Field> get(std::string_view key) const;
  bool boolean(std::string_view key, bool fallback) const {
    const auto f = get(key);
    return f ? f->as_bool() : fallback;
  }
  double positive(std::string_view key, double fallback) const {
    const auto f = get(key);
    return f ? f->as_positive() : fallback;
  }

 private:
  Mapping& m_;
  std::span<const Alias> aliases_;
};

// The properties every sensor has (SPEC §0).
void read_common(const SensorKeys& k, SensorCommon& c);
// Perception-media properties (SPEC §8), the same on every lidar and camera.
void read_smoke(Mapping& m, media::SmokeSettings& smoke);
// The last key of a field's path ("robot[0].sensors[0].clamp" -> "clamp").
std::string_view key_of(const Field& f);

}  // namespace ubot::config
