#pragma once
// Collisions with the grid map (docs/grid-maps.md).
#include "ubot/config/grid_map.h"
#include "ubot/world/geometry.h"

namespace ubot::detail {

// True when the placed shape shares a point with an occupied cell (a closed square), like
// IR-SIM's ObstacleMap.is_collision (the shape meets the occupied cells' outline, or lies
// within half a cell of an occupied cell's centre) for square cells.
bool touches_grid(const GridMap& grid, const WorldShape& shape);

// True when an occupied cell meets the field-of-view sector (geometry.h's intersects_sector).
bool sector_touches_grid(const GridMap& grid, const Eigen::Vector2d& apex, double heading,
                         double fov, double radius);

}  // namespace ubot::detail
