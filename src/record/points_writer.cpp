#include "points_writer.h"

#include <bit>
#include <cstddef>

#include "output_file.h"

namespace ubot {

// Records are written as they are in memory: the layout is little-endian and packed as declared.
static_assert(std::endian::native == std::endian::little);
static_assert(offsetof(LidarPoint, intensity) == 12 && offsetof(LidarPoint, ring) == 16 &&
              offsetof(LidarPoint, time) == 20);

PointsWriter::PointsWriter(std::string path) : path_(std::move(path)), file_(open_output(path_)) {
  const std::uint32_t header[2] = {kPointsVersion, sizeof(LidarPoint)};
  write(kPointsMagic, sizeof(kPointsMagic));
  write(header, sizeof(header));
}

PointsWriter::~PointsWriter() {
  if (file_) std::fclose(file_);
}

std::uint64_t PointsWriter::append(std::span<const LidarPoint> points) {
  const std::uint64_t at = offset_;
  write(points.data(), points.size_bytes());
  return at;
}

void PointsWriter::write(const void* data, std::size_t bytes) {
  write_output(file_, data, bytes, path_);
  offset_ += bytes;
}

void PointsWriter::close() { close_output(file_, path_); }

}  // namespace ubot
