#pragma once
// points.bin: the 3D points of a run, next to frames.jsonl (which names the file in its header
// and gives each lidar3d sample's point_count and points_offset). Little-endian:
//   offset 0   8 bytes   magic "UBOTPTS1"
//   offset 8   uint32    format version (1)
//   offset 12  uint32    record size in bytes (24)
//   offset 16  records, sample after sample, each {float32 x, y, z, intensity; uint16 ring;
//              uint16 0; float32 time} (the LidarPoint / PointCloud2 XYZIRT layout).
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

#include "ubot/sensors/lidar3d/lidar3d.h"

namespace ubot {

inline constexpr char kPointsMagic[8] = {'U', 'B', 'O', 'T', 'P', 'T', 'S', '1'};
inline constexpr std::uint32_t kPointsVersion = 1;
inline constexpr std::uint32_t kPointsHeaderSize = 16;

class PointsWriter {
 public:
  // Creates `path` and writes the file header. Throws ubot::Error when it cannot be written.
  explicit PointsWriter(std::string path);
  ~PointsWriter();
  PointsWriter(const PointsWriter&) = delete;
  PointsWriter& operator=(const PointsWriter&) = delete;

  // Appends the records; returns the byte offset of the first one.
  std::uint64_t append(std::span<const LidarPoint> points);
  // Flushes and closes; throws ubot::Error on a write error.
  void close();

 private:
  void write(const void* data, std::size_t bytes);
  std::string path_;
  std::FILE* file_ = nullptr;
  std::uint64_t offset_ = 0;
};

}  // namespace ubot
