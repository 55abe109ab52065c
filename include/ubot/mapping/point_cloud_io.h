#pragma once
// Point-cloud files: LAS (write 1.4 point formats 6 / 7; read 1.0-1.4 formats 0-3, 6, 7),
// PLY (binary little-endian) and PCD (binary). Coordinates are world coordinates: a file read
// keeps the positions it holds (no re-centring). Bad files (truncated, wrong signature, wrong
// record size, a point count the file cannot hold) are ubot::Error naming the file and the
// field or byte offset.
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "ubot/mapping/point_map.h"

namespace ubot::mapping {

enum class CloudFormat { kLas, kPly, kPcd };
const char* format_name(CloudFormat format);
// From the file extension (.las, .ply, .pcd; case-insensitive); ubot::Error otherwise.
CloudFormat format_from_path(const std::string& path);

// How a map was made, carried in the files ubot writes (LAS: a "ubot" VLR; PLY / PCD: a
// comment) so that a loaded map can be extended with the same voxels.
struct MapMetadata {
  double resolution = 0.05;
  DedupPolicy policy = DedupPolicy::kFirst;
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
};
std::string metadata_text(const MapMetadata& m);
// Parses metadata_text's format; nullopt when `text` is not ubot map metadata.
std::optional<MapMetadata> parse_metadata(const std::string& text);

struct PointCloud {
  std::vector<MapPoint> points;
  bool has_color = false;
};

// What a file's header said, beyond its points.
struct CloudFileInfo {
  CloudFormat format = CloudFormat::kLas;
  std::string version;  // "1.4", "1.0" (PLY), "0.7" (PCD)
  int las_point_format = -1;
  Eigen::Vector3d las_scale = Eigen::Vector3d::Zero();
  Eigen::Vector3d las_offset = Eigen::Vector3d::Zero();
  Bounds header_bounds;  // LAS only
  std::optional<MapMetadata> map;
  std::uint64_t file_bytes = 0;
};

struct LoadedCloud {
  PointCloud cloud;
  CloudFileInfo info;
};

struct CloudWriteOptions {
  int las_point_format = 0;                   // 6 or 7; 0: 7 when the cloud has colour, else 6
  double las_scale = 0.001;                   // metres per LAS integer unit
  std::optional<Eigen::Vector3d> las_offset;  // default: the bounds' minimum floored to 1 m
  std::optional<MapMetadata> map;
};

LoadedCloud read_cloud(const std::string& path);
void write_cloud(const std::string& path, const PointCloud& cloud,
                 const CloudWriteOptions& options = {});

// Format-specific entry points (read_cloud / write_cloud dispatch on the extension).
LoadedCloud read_las(const std::string& path);
LoadedCloud read_ply(const std::string& path);
LoadedCloud read_pcd(const std::string& path);
// The same over the bytes of a file already in memory (`path` names it in messages). Every size,
// count and offset in the bytes is checked against their length: malformed input gives a
// ubot::Error, never a read outside `data` (the fuzz targets in tests/fuzz call these).
LoadedCloud read_las_bytes(const std::vector<char>& data, const std::string& path);
LoadedCloud read_ply_bytes(const std::vector<char>& data, const std::string& path);
LoadedCloud read_pcd_bytes(const std::vector<char>& data, const std::string& path);
void write_las(const std::string& path, const PointCloud& cloud, const CloudWriteOptions& options);
void write_ply(const std::string& path, const PointCloud& cloud, const CloudWriteOptions& options);
void write_pcd(const std::string& path, const PointCloud& cloud, const CloudWriteOptions& options);

// Bounds and box queries over a plain cloud (used for files).
Bounds cloud_bounds(const PointCloud& cloud);
ProbeResult probe_cloud(const PointCloud& cloud, const Eigen::Vector3d& center, double half_extent,
                        std::size_t max_samples);

}  // namespace ubot::mapping
