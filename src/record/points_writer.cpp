#include "points_writer.h"

#include <fmt/format.h>

#include <bit>
#include <cerrno>
#include <cstring>

#include "ubot/core/error.h"

namespace ubot {

// Records are written as they are in memory: the layout is little-endian and packed as declared.
static_assert(std::endian::native == std::endian::little);
static_assert(offsetof(LidarPoint, intensity) == 12 && offsetof(LidarPoint, ring) == 16 &&
              offsetof(LidarPoint, time) == 20);

PointsWriter::PointsWriter(std::string path) : path_(std::move(path)) {
  file_ = std::fopen(path_.c_str(), "wb");
  if (!file_) throw Error(fmt::format("{}: cannot be written: {}", path_, std::strerror(errno)));
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
  if (bytes > 0 && std::fwrite(data, 1, bytes, file_) != bytes) {
    throw Error(fmt::format("{}: write failed: {}", path_, std::strerror(errno)));
  }
  offset_ += bytes;
}

void PointsWriter::close() {
  if (!file_) return;
  const bool failed = std::fflush(file_) != 0 || std::ferror(file_);
  const int error = errno;
  std::fclose(file_);
  file_ = nullptr;
  if (failed) throw Error(fmt::format("{}: write failed: {}", path_, std::strerror(error)));
}

}  // namespace ubot
