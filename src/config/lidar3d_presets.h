#pragma once
// lidar3d presets: the channel layout and the usual settings of common spinning lidars, by their
// published vertical angles (sources in lidar3d_presets.cpp).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ubot/config/world_model.h"

namespace ubot::config {

// The preset names, as written in world files (`preset: VLP-16`).
const std::vector<std::string>& lidar3d_preset_names();
// The model a preset describes (vertical angles ascending, in rad), or nullopt for an unknown
// name.
std::optional<Lidar3dModel> lidar3d_preset(std::string_view name);

}  // namespace ubot::config
