#pragma once
// `world.obstacle_map` (+ `world.mdownsample`): the world's occupancy grid (docs/grid-maps.md).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ubot/config/grid_map.h"
#include "ubot/config/world_model.h"
#include "yaml_reader.h"

namespace ubot::config {

// Reads the grid of the `world` section `world` (null when it has no obstacle_map): an image
// path (.png / .pgm, IR-SIM's grey threshold), a ROS map_server YAML path (.yaml / .yml), or a
// generator spec {name: image | perlin, ...}. Relative paths are resolved against the world
// file's directory, then the current directory. Throws ubot::Error naming file:line:column and
// key path (or the map_server file's line) on bad input.
std::shared_ptr<const GridMap> read_obstacle_map(const Field& world, const WorldSettings& settings,
                                                 std::uint64_t world_seed);

// A ROS map_server map (YAML + image), placed by its own origin and resolution.
GridMap read_map_server_yaml(const std::string& path);

}  // namespace ubot::config
