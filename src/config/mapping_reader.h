#pragma once
// The top-level `mapping:` section (SPEC §11): one map, or a list of maps. Read after the
// objects, so scanner selectors are resolved (and checked) against the world's lidars.
#include <optional>
#include <string>
#include <vector>

#include "ubot/config/world_model.h"
#include "ubot/mapping/mapping_config.h"
#include "yaml_reader.h"

namespace ubot::config {

// `all` (or no field): every lidar of the world; else a selector or a list of selectors.
std::vector<MapScannerModel> read_scanners(const std::optional<Field>& field,
                                           const WorldModel& world,
                                           std::vector<std::string>& warnings);

std::vector<MappingModel> read_mapping(const Field& field, const WorldModel& world,
                                       std::vector<std::string>& warnings);

}  // namespace ubot::config
