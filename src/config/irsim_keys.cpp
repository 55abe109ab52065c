#include "irsim_keys.h"

#include <fmt/format.h>

#include <algorithm>

namespace ubot::config {

constexpr std::string_view kNoGroundFrictionModel =
    "ubot's contact mode slows free bodies on the floor by their damping (1/s), not by "
    "friction x mass x gravity";
constexpr std::string_view kNoDriveLag =
    "ubot's contact mode drives a body without lag, up to its drive_force";

const std::vector<IgnoredIrsimKey>& ignored_irsim_keys() {
  constexpr std::string_view kRvoOnly =
      "read by IR-SIM's rvo behaviour only; dash does not use it (nor does IR-SIM's dash)";
  static const std::vector<IgnoredIrsimKey> keys = {
      {KeyPlace::kObject, "angle_range",
       "IR-SIM keeps it in the object's info for outside planners; no behaviour reads it"},
      {KeyPlace::kObject, "vel_dim", "the velocity has the dimension of the kinematics"},
      {KeyPlace::kKinematics, "mode", "IR-SIM reads it for acker kinematics only"},
      // IR-SIM 2.12.0's contact physics that ubot's contact mode (Box2D, docs/contact.md) has no
      // counterpart for.
      {KeyPlace::kWorld, "gravity", kNoGroundFrictionModel},
      {KeyPlace::kWorld, "drive_tau", kNoDriveLag},
      {KeyPlace::kAnyKinematics, "tau", kNoDriveLag},
      {KeyPlace::kObject, "inertia",
       "ubot's contact mode (Box2D) derives a body's moment of inertia from its mass and shape"},
      {KeyPlace::kDashBehavior, "vxmax", kRvoOnly},
      {KeyPlace::kDashBehavior, "vymax", kRvoOnly},
      {KeyPlace::kDashBehavior, "acce", kRvoOnly},
      {KeyPlace::kDashBehavior, "factor", kRvoOnly},
      {KeyPlace::kDashBehavior, "mode", kRvoOnly},
      {KeyPlace::kDashBehavior, "neighbor_threshold", kRvoOnly},
      {KeyPlace::kRvoBehavior, "angle_tolerance",
       "read by IR-SIM's dash behaviour only; rvo does not use it"},
      {KeyPlace::kDistribution, "non_overlapping",
       "IR-SIM reads it only as an argument of env.random_obstacle_position(); in a "
       "distribution it has no effect there either (min_distance still keeps points apart)"},
      {KeyPlace::kShape, "radius_range", "applies only with random_shape: true"},
      {KeyPlace::kShape, "center_range", "applies only with random_shape: true"},
      {KeyPlace::kShape, "avg_radius_range", "applies only with random_shape: true"},
      {KeyPlace::kShape, "irregularity_range", "applies only with random_shape: true"},
      {KeyPlace::kShape, "spikeyness_range", "applies only with random_shape: true"},
      {KeyPlace::kShape, "num_vertices_range", "applies only with random_shape: true"},
      {KeyPlace::kShape, "is_convex", "applies only with random_shape: true"},
  };
  return keys;
}

void warn_once(std::vector<std::string>& warnings, std::string warning) {
  if (std::find(warnings.begin(), warnings.end(), warning) == warnings.end()) {
    warnings.push_back(std::move(warning));
  }
}

std::span<const LaterIrsimKey> later_irsim_keys() {
  // IR-SIM's development branch had no key beyond 2.12.0's when this was last compared (the
  // keys of every place, read from both sources' code).
  return {};
}

std::string unknown_irsim_key_note(std::string_view key, std::span<const LaterIrsimKey> later) {
  const auto it = std::find_if(later.begin(), later.end(),
                               [&](const LaterIrsimKey& k) { return k.key == key; });
  if (it != later.end()) {
    return fmt::format("IR-SIM {} added it, after {}, which ubot reads (docs/irsim-keys.md)",
                       it->release, kIrsimRelease);
  }
  return fmt::format("IR-SIM {} has none either (docs/irsim-keys.md)", kIrsimRelease);
}

void accept_ignored_irsim_keys(Mapping& m, KeyPlace place, std::vector<std::string>& warnings) {
  m.note_unknown_keys(
      [](std::string_view key) { return unknown_irsim_key_note(key, later_irsim_keys()); });
  for (const IgnoredIrsimKey& k : ignored_irsim_keys()) {
    if (k.place != place || !m.has(k.key)) continue;
    const std::optional<Field> f = m.get(k.key);
    const std::string path = f ? f->path() : fmt::format("{}.{}", m.field().path(), k.key);
    warn_once(warnings, fmt::format("{}: {}: IR-SIM's key is accepted and ignored: {}",
                                    (f ? *f : m.field()).location(), path, k.reason));
  }
}

}  // namespace ubot::config
