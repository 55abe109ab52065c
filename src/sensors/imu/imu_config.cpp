// The `imu` sensor type's YAML reader (compiled into the config library).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

#include "object_reader.h"
#include "sensor_fields.h"
#include "ubot/core/angles.h"

namespace ubot::config {
namespace {

// The IMU seed's property names (uBot IMU Sensor: "Noise Enabled", "Clamp Output", ...) in
// snake_case, accepted as aliases of ubot's keys so a uBot configuration ports unchanged. The
// seed's names that are already ubot's (update_rate_hz, auto_start, accelerometer_bias,
// gyroscope_bias, low_pass_cutoff_hz, max_linear_acceleration, max_angular_velocity) need none;
// the bias random walks, which also have Kalibr's names, are read in read_imu.
constexpr Alias kImuSeedNames[] = {
    {"enabled", "sensor_enabled"},
    {"noise", "noise_enabled"},
    {"seed", "random_seed"},
    {"accelerometer_noise_std", "accelerometer_noise_std_dev"},
    {"gyroscope_noise_std", "gyroscope_noise_std_dev"},
    {"low_pass", "low_pass_filter_enabled"},
    {"clamp", "clamp_output"},
    {"teleport_distance", "teleport_distance_meters"},
    {"teleport_angle_deg", "teleport_angle_degrees"},
    {"max_sample_dt", "max_sample_delta_seconds"},
};

// White noise per sample (σ, under ubot's or the seed's name) or as a Kalibr density; one of
// them.
void read_white_noise(const SensorKeys& k, Mapping& m, std::string_view std_key,
                      std::string_view density_key, double& std, std::optional<double>& density) {
  const auto s = k.get(std_key);
  const auto d = m.get(density_key);
  if (s && d) d->fail(fmt::format("give either {} or {}, not both", key_of(*s), density_key));
  if (s) std = s->as_non_negative();
  if (d) density = d->as_non_negative();
}

ImuModel read_imu(Mapping& m) {
  const SensorKeys k(m, kImuSeedNames);
  ImuModel p;
  p.offset = read_vector3(m, "offset");
  p.rpy = read_vector3(m, "rpy");
  read_white_noise(k, m, "accelerometer_noise_std", "accelerometer_noise_density",
                   p.accelerometer_noise_std, p.accelerometer_noise_density);
  read_white_noise(k, m, "gyroscope_noise_std", "gyroscope_noise_density", p.gyroscope_noise_std,
                   p.gyroscope_noise_density);
  p.accelerometer_bias = read_vector3(m, "accelerometer_bias");
  p.gyroscope_bias = read_vector3(m, "gyroscope_bias");
  // The seed document's "bias random walk std" (per √s) and Kalibr's "random_walk" are the same
  // quantity in the same unit.
  if (auto f = one_of(m, {"accelerometer_bias_random_walk_std",
                          "accelerometer_bias_random_walk_std_dev", "accelerometer_random_walk"})) {
    p.accelerometer_bias_random_walk_std = f->as_non_negative();
  }
  if (auto f = one_of(m, {"gyroscope_bias_random_walk_std", "gyroscope_bias_random_walk_std_dev",
                          "gyroscope_random_walk"})) {
    p.gyroscope_bias_random_walk_std = f->as_non_negative();
  }
  p.low_pass = k.boolean("low_pass", false);
  if (auto f = m.get("low_pass_cutoff_hz")) {
    p.low_pass_cutoff_hz = f->as_at_most(kMaxRateHz, "Hz");
    if (p.low_pass_cutoff_hz < 0.1) f->fail("must be at least 0.1 Hz");
  }
  p.clamp = k.boolean("clamp", false);
  p.max_linear_acceleration = m.positive("max_linear_acceleration", p.max_linear_acceleration);
  p.max_angular_velocity = m.positive("max_angular_velocity", p.max_angular_velocity);
  p.teleport_distance = k.positive("teleport_distance", p.teleport_distance);
  p.teleport_angle_deg = k.positive("teleport_angle_deg", p.teleport_angle_deg);
  p.max_sample_dt = k.positive("max_sample_dt", p.max_sample_dt);
  return p;
}

}  // namespace

void read_sensor(Mapping& m, std::string_view, SensorCommon& common, ImuModel& params) {
  read_common(SensorKeys(m, kImuSeedNames), common);
  common.update_rate_hz = common.update_rate_hz.value_or(kImuDefaultRateHz);
  common.seed = common.seed.value_or(kImuDefaultSeed);
  params = read_imu(m);
}

}  // namespace ubot::config
