#pragma once
// The top-level `mapping:` section (SPEC §11), as the WorldModel holds it (WorldModel::maps).
// Depends on Eigen only.
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace ubot {

// One scanner a map takes points from, resolved from a selector of the world file.
struct MapScannerModel {
  int object_id = 0;
  int sensor_index = 0;                   // in the object's sensor list
  std::string selector;                   // as written: "robot_0/lidar2d_0", "robot_0" or "all"
  std::vector<std::string> also_matched;  // other lidars an object selector matched (not taken)
};

struct MappingModel {
  std::string name = "map";
  double resolution = 0.05;    // voxel edge (dedup distance), metres
  bool keep_brighter = false;  // policy: first point wins (false) or keep brighter (true)
  std::vector<MapScannerModel> scanners;
  std::string output;                     // file path (extension optional), relative to the run's
                                          // output directory; "" = the name
  std::vector<std::string> formats;       // las | ply | pcd; never empty after loading
  std::optional<Eigen::Vector3d> origin;  // map origin; unset = [world.offset, 0]
  int las_point_format = 6;               // 6 | 7
};

}  // namespace ubot
