#pragma once
#include <functional>
#include <optional>

#include "ubot/config/world_model.h"
#include "yaml_reader.h"

namespace ubot::config {

// The object's value of a key, if given.
using FieldLookup = std::function<std::optional<Field>(const char* key)>;

// The keys of PhysicsModel (`mass`, `friction`, `restitution`, `damping`, `angular_damping`,
// `drive_force`); a mass needs a closed shape.
PhysicsModel read_physics(const FieldLookup& value, const ShapeModel& shape);

inline constexpr const char* kPhysicsKeys[] = {"mass",    "friction",        "restitution",
                                               "damping", "angular_damping", "drive_force"};

}  // namespace ubot::config
