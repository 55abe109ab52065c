#pragma once
// Saving and loading whole maps. A saved map carries its resolution, policy and origin (LAS: a
// "ubot" VLR; PLY / PCD: a comment), and its LAS coordinates are snapped to the LAS grid inside
// each point's own voxel, so loading it gives back exactly the saved voxels, each point within
// one LAS unit (1 mm) of where it was inserted, at its original world position.
#include <optional>
#include <string>

#include "ubot/mapping/point_cloud_io.h"
#include "ubot/mapping/point_map.h"

namespace ubot::mapping {

// The map as a plain cloud, in storage order.
PointCloud map_cloud(const PointMap& map);
MapMetadata map_metadata(const PointMap& map);

// Writes the map in the format of `path`'s extension (las_point_format: 6, 7 or 0 = auto).
void save_map(const PointMap& map, const std::string& path, int las_point_format = 0);

struct MapLoadOptions {
  std::optional<double> resolution;       // default: the file's metadata, else 0.05
  std::optional<DedupPolicy> policy;      // default: the file's metadata, else first
  std::optional<Eigen::Vector3d> origin;  // default: metadata, else LAS offset, else floor(min)
};
// Reads a file into a map (ready to be extended); points keep their world positions.
PointMap load_map(const std::string& path, const MapLoadOptions& options = {});

}  // namespace ubot::mapping
