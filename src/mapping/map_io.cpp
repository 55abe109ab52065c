#include "ubot/mapping/map_io.h"

#include <cmath>

namespace ubot::mapping {
namespace {

constexpr double kLasScale = 0.001;

// LAS units per voxel when the resolution is a whole number (>= 2) of them, else 0.
std::int64_t units_per_voxel(double resolution) {
  const double r = resolution / kLasScale;
  const double n = std::round(r);
  return n >= 2.0 && std::abs(r - n) < 1e-9 * n ? static_cast<std::int64_t>(n) : 0;
}

}  // namespace

PointCloud map_cloud(const PointMap& map) {
  PointCloud cloud;
  cloud.has_color = map.has_color();
  cloud.points = map.points();
  return cloud;
}

MapMetadata map_metadata(const PointMap& map) {
  return {.resolution = map.resolution(), .policy = map.policy(), .origin = map.origin()};
}

void save_map(const PointMap& map, const std::string& path, int las_point_format) {
  PointCloud cloud = map_cloud(map);
  CloudWriteOptions options;
  options.las_point_format = las_point_format;
  options.las_scale = kLasScale;
  options.map = map_metadata(map);
  const std::int64_t per_voxel = units_per_voxel(map.resolution());
  if (format_from_path(path) == CloudFormat::kLas && per_voxel > 0 && !cloud.points.empty()) {
    // The LAS offset sits on a voxel boundary near the data, so voxel boundaries are whole LAS
    // units; each point is rounded to the nearest unit but never up onto the next voxel's
    // boundary (load_map puts points lying on a lower boundary back into their voxel).
    const Eigen::Vector3d first_voxel =
        ((map.bounds().min - map.origin()) / map.resolution()).array().floor();
    const Eigen::Vector3d offset = map.origin() + first_voxel * map.resolution();
    options.las_offset = offset;
    for (MapPoint& p : cloud.points) {
      for (int k = 0; k < 3; ++k) {
        const double v = std::floor((p.position[k] - map.origin()[k]) / map.resolution());
        const std::int64_t lo = static_cast<std::int64_t>(v - first_voxel[k]) * per_voxel;
        const std::int64_t u = std::clamp<std::int64_t>(
            std::llround((p.position[k] - offset[k]) / kLasScale), lo, lo + per_voxel - 1);
        p.position[k] = offset[k] + static_cast<double>(u) * kLasScale;
      }
    }
  }
  write_cloud(path, cloud, options);
}

PointMap load_map(const std::string& path, const MapLoadOptions& options) {
  LoadedCloud loaded = read_cloud(path);
  const std::optional<MapMetadata>& meta = loaded.info.map;
  PointMapOptions map_options;
  map_options.resolution = options.resolution.value_or(meta ? meta->resolution : 0.05);
  map_options.policy = options.policy.value_or(meta ? meta->policy : DedupPolicy::kFirst);
  map_options.color = loaded.cloud.has_color;
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  if (options.origin) {
    origin = *options.origin;
  } else if (meta) {
    origin = meta->origin;
  } else if (loaded.info.format == CloudFormat::kLas) {
    origin = loaded.info.las_offset;
  } else if (!loaded.cloud.points.empty()) {
    origin = cloud_bounds(loaded.cloud).min.array().floor();
  }
  PointMap map(origin, map_options);
  if (meta && !options.origin && !options.resolution) {
    // A ubot map (saved as LAS, or converted from one): points on a voxel's lower boundary
    // (exact in LAS units) belong to that voxel; nudge them 1e-7 voxel up so rounding in the
    // division cannot drop them into the voxel below (a saved point lies at least one LAS unit
    // below the next boundary, and points saved in double precision 7.6e-6 voxel inside).
    for (MapPoint& p : loaded.cloud.points) {
      for (int k = 0; k < 3; ++k) {
        const double t = (p.position[k] - origin[k]) / map_options.resolution;
        const double n = std::round(t);
        if (std::abs(t - n) < 1e-7) p.position[k] = origin[k] + (n + 1e-7) * map_options.resolution;
      }
    }
  }
  map.insert(loaded.cloud.points);
  return map;
}

}  // namespace ubot::mapping
