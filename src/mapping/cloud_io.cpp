// Format dispatch, map metadata, file helpers and queries over plain clouds.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>

#include "binary_io.h"
#include "ubot/core/error.h"
#include "ubot/core/input_files.h"
#include "ubot/core/output_files.h"
#include "ubot/core/words.h"
#include "ubot/mapping/point_cloud_io.h"

namespace ubot::mapping {

namespace detail {

std::vector<char> read_file(const std::string& path) {
  // Only regular files: a FIFO or a device (/dev/zero) would block or never end.
  const std::filesystem::file_status status = input_file_status(path, "file not found");
  if (!std::filesystem::is_regular_file(status)) {
    throw Error(fmt::format("{}: not a regular file", path));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot open the file", path));
  std::error_code ec;
  std::vector<char> data(static_cast<std::size_t>(std::filesystem::file_size(path, ec)));
  if (!data.empty()) in.read(data.data(), static_cast<std::streamsize>(data.size()));
  if (!in) throw Error(fmt::format("{}: cannot read the file", path));
  return data;
}

void write_file(const std::string& path, const std::vector<char>& bytes) {
  const std::filesystem::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  std::ofstream out(partial_path_for_writing(path), std::ios::binary | std::ios::trunc);
  if (out) out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (out) out.close();
  if (!out) {
    discard_output(path);
    throw Error(fmt::format("{}: cannot write the file", path));
  }
  publish_output(path);
}

TextHeader read_text_header(const ByteReader& in, std::string_view end_marker,
                            std::size_t max_bytes) {
  TextHeader h;
  std::size_t pos = 0;
  const std::size_t limit = std::min(in.size(), max_bytes);
  while (pos < limit) {
    const char* begin = in.at(pos);
    const void* nl = std::memchr(begin, '\n', limit - pos);
    if (!nl) break;
    const std::size_t len = static_cast<const char*>(nl) - begin;
    std::string line(begin, len);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    pos += len + 1;
    const bool end = line.rfind(end_marker, 0) == 0;
    h.lines.push_back(std::move(line));
    if (end) {
      h.data_offset = pos;
      return h;
    }
  }
  in.fail(fmt::format("truncated header: no '{}' line in the first {} bytes", end_marker, limit));
}

}  // namespace detail

const char* format_name(CloudFormat format) {
  switch (format) {
    case CloudFormat::kLas:
      return "las";
    case CloudFormat::kPly:
      return "ply";
    case CloudFormat::kPcd:
      return "pcd";
  }
  return "?";
}

CloudFormat format_from_path(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".las") return CloudFormat::kLas;
  if (ext == ".ply") return CloudFormat::kPly;
  if (ext == ".pcd") return CloudFormat::kPcd;
  throw Error(
      fmt::format("{}: unknown point-cloud format '{}' (expected .las, .ply or .pcd)", path, ext));
}

std::string metadata_text(const MapMetadata& m) {
  return fmt::format("ubot_map resolution={} policy={} origin={},{},{}", m.resolution,
                     policy_name(m.policy), m.origin.x(), m.origin.y(), m.origin.z());
}

std::optional<MapMetadata> parse_metadata(const std::string& text) {
  const std::vector<std::string> words = split_words(text);
  if (words.size() != 4 || words[0] != "ubot_map") return std::nullopt;
  auto number = [](std::string_view s, double& out) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size();
  };
  MapMetadata m;
  if (words[1].rfind("resolution=", 0) != 0 || !number(words[1].substr(11), m.resolution)) {
    return std::nullopt;
  }
  if (words[2] == "policy=first") {
    m.policy = DedupPolicy::kFirst;
  } else if (words[2] == "policy=brighter") {
    m.policy = DedupPolicy::kBrighter;
  } else {
    return std::nullopt;
  }
  if (words[3].rfind("origin=", 0) != 0) return std::nullopt;
  std::string_view rest = std::string_view(words[3]).substr(7);
  for (int k = 0; k < 3; ++k) {
    const std::size_t comma = k < 2 ? rest.find(',') : rest.size();
    if (comma == std::string_view::npos || !number(rest.substr(0, comma), m.origin[k])) {
      return std::nullopt;
    }
    rest = rest.substr(std::min(rest.size(), comma + 1));
  }
  return m;
}

LoadedCloud read_cloud(const std::string& path) {
  switch (format_from_path(path)) {
    case CloudFormat::kLas:
      return read_las(path);
    case CloudFormat::kPly:
      return read_ply(path);
    case CloudFormat::kPcd:
      return read_pcd(path);
  }
  throw Error(path + ": unknown format");
}

void write_cloud(const std::string& path, const PointCloud& cloud,
                 const CloudWriteOptions& options) {
  switch (format_from_path(path)) {
    case CloudFormat::kLas:
      return write_las(path, cloud, options);
    case CloudFormat::kPly:
      return write_ply(path, cloud, options);
    case CloudFormat::kPcd:
      return write_pcd(path, cloud, options);
  }
}

Bounds cloud_bounds(const PointCloud& cloud) {
  Bounds b;
  for (const MapPoint& p : cloud.points) b.add(p.position);
  return b;
}

ProbeResult probe_cloud(const PointCloud& cloud, const Eigen::Vector3d& center, double half_extent,
                        std::size_t max_samples) {
  ProbeResult r;
  const Eigen::Vector3d lo = center.array() - half_extent;
  const Eigen::Vector3d hi = center.array() + half_extent;
  for (const MapPoint& p : cloud.points) {
    if ((p.position.array() < lo.array()).any() || (p.position.array() > hi.array()).any()) {
      continue;
    }
    ++r.count;
    if (r.samples.size() < max_samples) r.samples.push_back(p);
  }
  return r;
}

}  // namespace ubot::mapping
