// The `sensors:` list of an object. IR-SIM names a sensor's type with `name` (or `type`); each
// registered type reads its own keys (src/sensors/<type>/<type>_config.cpp).
#include <fmt/format.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "object_reader.h"
#include "sensor_fields.h"

namespace ubot::config {

std::optional<Field> one_of(Mapping& m, std::initializer_list<std::string_view> keys) {
  std::optional<Field> found;
  std::string_view found_key;
  for (std::string_view key : keys) {
    auto f = m.get(key);
    if (!f) continue;
    if (found) f->fail(fmt::format("give either {} or {}, not both", found_key, key));
    found = f;
    found_key = key;
  }
  return found;
}

std::optional<Field> one_of(Mapping& m, std::string_view key, std::string_view alternative) {
  return one_of(m, {key, alternative});
}

std::optional<Field> SensorKeys::get(std::string_view key) const {
  for (const Alias& a : aliases_) {
    if (a.key == key) return one_of(m_, {key, a.seed_name});
  }
  return m_.get(key);
}

void read_common(const SensorKeys& k, SensorCommon& c) {
  c.enabled = k.boolean("enabled", true);
  c.auto_start = k.boolean("auto_start", true);
  if (auto f = k.get("update_rate_hz")) c.update_rate_hz = f->as_at_most(kMaxRateHz, "Hz");
  c.noise = k.boolean("noise", false);
  if (auto f = k.get("seed")) {
    const std::int64_t s = f->as_integer();
    if (s < 0) f->fail("seed must not be negative");
    c.seed = static_cast<std::uint64_t>(s);
  }
}

// Perception-media properties (SPEC §8), the same on every lidar and camera.
void read_smoke(Mapping& m, media::SmokeSettings& smoke) {
  smoke.enable_smoke_interference = m.boolean("enable_smoke_interference", true);
  smoke.smoke_density_threshold =
      m.non_negative("smoke_density_threshold", smoke.smoke_density_threshold);
  smoke.smoke_cell_radius_scale =
      m.non_negative("smoke_cell_radius_scale", smoke.smoke_cell_radius_scale);
  // "", null or None (the uBot spelling) switch the legacy tag path off.
  if (m.has("smoke_volume_tag")) {
    const auto f = m.get("smoke_volume_tag");
    smoke.smoke_volume_tag = f ? f->as_string() : "";
    if (smoke.smoke_volume_tag == "None") smoke.smoke_volume_tag.clear();
  }
}

std::string_view key_of(const Field& f) {
  const std::string_view path = f.path();
  return path.substr(path.rfind('.') + 1);
}

namespace {

// A `type:` name and the reader of its parameters.
struct SensorType {
  std::string_view name;
  void (*read)(Mapping& m, std::string_view type, SensorModel& s);
};

template <class Params>
void read_params(Mapping& m, std::string_view type, SensorModel& s) {
  Params params;
  read_sensor(m, type, s.common, params);
  s.params = std::move(params);
}

// Every registered type's names (sensor_types.h), in the list's order.
const std::vector<SensorType>& sensor_types() {
  static const std::vector<SensorType> types = [] {
    std::vector<SensorType> t;
#define UBOT_SENSOR_TYPE_NAMES(T) \
  for (std::string_view name : T##Model::kTypeNames) t.push_back({name, &read_params<T##Model>});
    UBOT_SENSOR_TYPES(UBOT_SENSOR_TYPE_NAMES)
#undef UBOT_SENSOR_TYPE_NAMES
    return t;
  }();
  return types;
}

const SensorType& sensor_type(const std::optional<Field>& type_field) {
  const std::vector<SensorType>& types = sensor_types();
  if (!type_field) return types.front();  // IR-SIM's default, lidar2d
  std::vector<std::string_view> names;
  for (const SensorType& t : types) names.push_back(t.name);
  const std::string name = type_field->as_choice(std::span<const std::string_view>(names));
  return *std::ranges::find(types, name, &SensorType::name);
}

}  // namespace

std::vector<SensorModel> read_sensors(const Field& list, std::vector<std::string>& warnings) {
  if (!list.is_sequence()) list.fail("expected a list of sensors");
  std::vector<SensorModel> sensors;
  std::map<std::string, int, std::less<>> count_by_type;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Field entry = list.item(i);
    if (!entry.is_map()) entry.fail("expected a mapping describing a sensor");
    Mapping m(entry);
    std::optional<Field> type_field = m.get("name");
    if (auto t = m.get("type")) type_field = type_field ? type_field : t;
    if (!type_field) {
      // IR-SIM's SensorFactory defaults to lidar2d too; refusing would break its worlds.
      warnings.push_back(
          fmt::format("{}: {}: no name or type: read as a lidar2d (IR-SIM's default)",
                      entry.location(), entry.path()));
    }
    const SensorType& type = sensor_type(type_field);
    SensorModel s;
    s.common.name = fmt::format("{}_{}", type.name, count_by_type[std::string(type.name)]++);
    type.read(m, type.name, s);
    m.finish();
    sensors.push_back(std::move(s));
  }
  return sensors;
}

}  // namespace ubot::config
