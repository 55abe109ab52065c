#pragma once
// Checks on the robots' `ros2:` sections that need the whole object list.
#include <optional>
#include <vector>

#include "ubot/config/world_model.h"
#include "yaml_reader.h"

namespace ubot::config {

// Reads an object's `ros2` section (defaults when absent).
LayerConfig<Ros2Model> read_ros2(const std::optional<Field>& field);

// Records `field` as where the receiver of `r` is declared (Ros2Model::declared_at and the rest).
void set_declared(Ros2Model& r, const Field& field);

// Two bridged robots whose cmd_vel receivers would drive the same object (each robot drives
// itself unless ros2.target names another): ubot::Error naming both, each with its
// file:line:col and key path (Ros2Model::declared_at). Unknown target names are left to the
// bridge.
void check_command_targets(const std::vector<ObjectModel>& objects);

}  // namespace ubot::config
