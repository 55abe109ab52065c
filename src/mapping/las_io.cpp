// LAS (ASPRS LAS 1.4 R15). Writes LAS 1.4 with point data record format 6 (30 bytes) or 7
// (36 bytes, + RGB); reads LAS 1.0-1.4 with formats 0-3 (20/28/26/34 bytes) and 6/7.
//
// Header layout (byte offsets): 0 "LASF", 6 global encoding, 24/25 version, 94 header size,
// 96 offset to point data, 100 number of VLRs, 104 point format, 105 record length, 107 legacy
// point count, 131 scale[3], 155 offset[3], 179 max x, min x, max y, min y, max z, min z,
// (1.3+) 227 waveform start, (1.4) 235 first EVLR, 243 EVLR count, 247 point count (uint64),
// 255 points by return (uint64[15]); 1.4 header size 375, 1.0-1.2 header size 227.
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "binary_io.h"
#include "ubot/mapping/point_cloud_io.h"

namespace ubot::mapping {
namespace {

using detail::ByteReader;
using detail::ByteWriter;

constexpr std::size_t kHeader14 = 375;
constexpr std::size_t kHeader12 = 227;
constexpr std::size_t kVlrHeader = 54;
constexpr std::uint16_t kWktBit = 1u << 4;  // global encoding: CRS is WKT (required for 6-10)
// A local engineering frame: ubot worlds are not georeferenced.
constexpr std::string_view kWkt =
    "LOCAL_CS[\"ubot world\",LOCAL_DATUM[\"ubot\",0],UNIT[\"metre\",1],AXIS[\"X\",EAST],"
    "AXIS[\"Y\",NORTH]]";

int min_record_length(int format) {
  switch (format) {
    case 0:
      return 20;
    case 1:
      return 28;
    case 2:
      return 26;
    case 3:
      return 34;
    case 6:
      return 30;
    case 7:
      return 36;
    default:
      return -1;
  }
}

// Byte offset of R, G, B within a record, -1 for formats without colour.
int rgb_offset(int format) { return format == 2 ? 20 : format == 3 ? 28 : format == 7 ? 30 : -1; }

void put_vlr(ByteWriter& w, std::string_view user, std::uint16_t record, std::string_view payload,
             std::string_view description) {
  w.put<std::uint16_t>(0);
  w.put_fixed(user, 16);
  w.put<std::uint16_t>(record);
  w.put<std::uint16_t>(static_cast<std::uint16_t>(payload.size()));
  w.put_fixed(description, 32);
  w.put_text(payload);
}

std::int32_t to_units(double value, double offset, double scale, const std::string& path,
                      char axis) {
  const double u = std::round((value - offset) / scale);
  if (!(u >= std::numeric_limits<std::int32_t>::min() &&
        u <= std::numeric_limits<std::int32_t>::max())) {
    throw Error(fmt::format(
        "{}: {} = {} does not fit LAS's 32-bit integer coordinates with offset {} and scale {}",
        path, axis, value, offset, scale));
  }
  return static_cast<std::int32_t>(u);
}

}  // namespace

void write_las(const std::string& path, const PointCloud& cloud, const CloudWriteOptions& options) {
  const int format = options.las_point_format != 0 ? options.las_point_format
                     : cloud.has_color             ? 7
                                                   : 6;
  if (format != 6 && format != 7) {
    throw Error(fmt::format("{}: LAS point format {} cannot be written (6 or 7)", path, format));
  }
  const double scale = options.las_scale;
  if (!(scale > 0.0) || !std::isfinite(scale)) {
    throw Error(fmt::format("{}: LAS scale must be positive, got {}", path, scale));
  }
  const Bounds b = cloud_bounds(cloud);
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();
  if (options.las_offset) {
    offset = *options.las_offset;
  } else if (!b.empty()) {
    offset = b.min.array().floor();  // near the data, a round number
  }
  const std::uint16_t record_length = static_cast<std::uint16_t>(min_record_length(format));

  std::string meta;
  if (options.map) meta = metadata_text(*options.map);
  const std::uint32_t vlr_count = options.map ? 2 : 1;
  const std::size_t point_offset =
      kHeader14 + kVlrHeader + kWkt.size() + 1 + (options.map ? kVlrHeader + meta.size() : 0);

  // Points first, to know the bounds of the coordinates as stored.
  ByteWriter pts;
  pts.reserve(cloud.points.size() * record_length);
  Bounds stored;
  for (const MapPoint& p : cloud.points) {
    std::array<std::int32_t, 3> units{};
    for (int k = 0; k < 3; ++k) {
      units[k] = to_units(p.position[k], offset[k], scale, path, "XYZ"[k]);
    }
    stored.add(Eigen::Vector3d(units[0] * scale + offset[0], units[1] * scale + offset[1],
                               units[2] * scale + offset[2]));
    for (std::int32_t u : units) pts.put<std::int32_t>(u);
    pts.put<std::uint16_t>(p.intensity);
    pts.put<std::uint8_t>(0x11);  // return 1 of 1
    pts.put<std::uint8_t>(0);     // classification flags, channel, scan direction, edge
    pts.put<std::uint8_t>(0);     // classification: created, never classified
    pts.put<std::uint8_t>(0);     // user data
    pts.put<std::int16_t>(0);     // scan angle
    pts.put<std::uint16_t>(0);    // point source id
    pts.put<double>(0.0);         // GPS time
    if (format == 7) {
      for (std::uint16_t c : p.rgb) pts.put<std::uint16_t>(c);
    }
  }
  if (stored.empty()) stored.min = stored.max = offset;

  ByteWriter w;
  w.reserve(point_offset + pts.size());
  w.put_text("LASF");
  w.put<std::uint16_t>(0);  // file source id
  w.put<std::uint16_t>(kWktBit);
  w.zeros(16);  // project GUID
  w.put<std::uint8_t>(1);
  w.put<std::uint8_t>(4);
  w.put_fixed("ubot", 32);
  w.put_fixed(fmt::format("ubot {}", UBOT_VERSION), 32);
  w.put<std::uint16_t>(0);  // creation day: 0 = unknown (keeps the output reproducible)
  w.put<std::uint16_t>(0);  // creation year
  w.put<std::uint16_t>(static_cast<std::uint16_t>(kHeader14));
  w.put<std::uint32_t>(static_cast<std::uint32_t>(point_offset));
  w.put<std::uint32_t>(vlr_count);
  w.put<std::uint8_t>(static_cast<std::uint8_t>(format));
  w.put<std::uint16_t>(record_length);
  w.put<std::uint32_t>(0);  // legacy point count: 0 for formats 6-10
  w.zeros(20);              // legacy points by return
  for (int k = 0; k < 3; ++k) w.put<double>(scale);
  for (int k = 0; k < 3; ++k) w.put<double>(offset[k]);
  for (int k = 0; k < 3; ++k) {
    w.put<double>(stored.max[k]);
    w.put<double>(stored.min[k]);
  }
  w.put<std::uint64_t>(0);  // waveform data
  w.put<std::uint64_t>(0);  // first EVLR
  w.put<std::uint32_t>(0);  // EVLR count
  w.put<std::uint64_t>(cloud.points.size());
  w.put<std::uint64_t>(cloud.points.size());  // all are first returns
  w.zeros(14 * 8);
  put_vlr(w, "LASF_Projection", 2112, std::string(kWkt) + '\0', "OGC WKT");
  if (options.map) put_vlr(w, "ubot", 1, meta, "ubot map metadata");
  w.put_text(std::string_view(pts.bytes().data(), pts.bytes().size()));
  detail::write_file(path, w.bytes());
}

LoadedCloud read_las(const std::string& path) {
  return read_las_bytes(detail::read_file(path), path);
}

LoadedCloud read_las_bytes(const std::vector<char>& data, const std::string& path) {
  const ByteReader in(data, path);
  LoadedCloud out;
  CloudFileInfo& info = out.info;
  info.format = CloudFormat::kLas;
  info.file_bytes = data.size();
  in.need(0, 4, "the file signature");
  if (std::string_view(in.at(0), 4) != "LASF") {
    in.fail(fmt::format("not a LAS file: the signature at offset 0 is '{}', expected 'LASF'",
                        std::string(in.at(0), 4)));
  }
  const int major = in.get<std::uint8_t>(24, "version major");
  const int minor = in.get<std::uint8_t>(25, "version minor");
  if (major != 1 || minor > 4) {
    in.fail(fmt::format("unsupported LAS version {}.{} (offset 24; 1.0 to 1.4 are read)", major,
                        minor));
  }
  info.version = fmt::format("{}.{}", major, minor);
  const std::size_t min_header = minor == 4 ? kHeader14 : kHeader12;
  in.need(0, min_header, fmt::format("the LAS {}.{} header", major, minor));
  const std::size_t header_size = in.get<std::uint16_t>(94, "header size");
  if (header_size < min_header) {
    in.fail(fmt::format("header size {} at offset 94 is smaller than LAS {}.{}'s {} bytes",
                        header_size, major, minor, min_header));
  }
  const std::size_t point_offset = in.get<std::uint32_t>(96, "offset to point data");
  if (point_offset < header_size) {
    in.fail(fmt::format("offset to point data {} at offset 96 lies inside the {}-byte header",
                        point_offset, header_size));
  }
  const std::uint32_t vlrs = in.get<std::uint32_t>(100, "number of VLRs");
  const std::uint8_t raw_format = in.get<std::uint8_t>(104, "point data format");
  if (raw_format & 0xC0) in.fail("compressed points (LAZ) are not supported (offset 104)");
  const int format = raw_format & 0x3F;
  const int min_length = min_record_length(format);
  if (min_length < 0 || (format >= 6 && minor < 4)) {
    in.fail(fmt::format(
        "point data format {} (offset 104) is not supported in LAS {}.{} (formats 0-3, and 6-7 "
        "in LAS 1.4)",
        format, major, minor));
  }
  info.las_point_format = format;
  const std::size_t record_length = in.get<std::uint16_t>(105, "point data record length");
  if (record_length < static_cast<std::size_t>(min_length)) {
    in.fail(fmt::format(
        "point data record length {} (offset 105) is too small for point format {} ({} bytes)",
        record_length, format, min_length));
  }
  const std::uint64_t legacy_count = in.get<std::uint32_t>(107, "legacy point count");
  std::uint64_t count = legacy_count;
  std::size_t count_offset = 107;
  if (minor == 4) {
    count = in.get<std::uint64_t>(247, "number of point records");
    count_offset = 247;
    if (legacy_count != 0 && legacy_count != count) {
      in.fail(fmt::format(
          "the legacy point count {} (offset 107) disagrees with the point count {} (offset 247)",
          legacy_count, count));
    }
  }
  for (int k = 0; k < 3; ++k) {
    info.las_scale[k] = in.get<double>(131 + 8 * k, "scale factor");
    info.las_offset[k] = in.get<double>(155 + 8 * k, "offset");
    if (!(info.las_scale[k] != 0.0) || !std::isfinite(info.las_scale[k])) {
      in.fail(fmt::format("{} scale factor {} (offset {}) must be finite and non-zero", "XYZ"[k],
                          info.las_scale[k], 131 + 8 * k));
    }
    if (!std::isfinite(info.las_offset[k])) {
      in.fail(fmt::format("{} offset (offset {}) is not finite", "XYZ"[k], 155 + 8 * k));
    }
    info.header_bounds.max[k] = in.get<double>(179 + 16 * k, "max");
    info.header_bounds.min[k] = in.get<double>(187 + 16 * k, "min");
  }
  // VLRs: the map metadata, if any.
  std::size_t pos = header_size;
  for (std::uint32_t i = 0; i < vlrs; ++i) {
    if (pos + kVlrHeader > point_offset) {
      in.fail(fmt::format("VLR {} at offset {} runs past the point data at offset {}", i, pos,
                          point_offset));
    }
    in.need(pos, kVlrHeader, fmt::format("VLR {} header", i));
    const std::string user(in.at(pos + 2), strnlen(in.at(pos + 2), 16));
    const std::size_t length = in.get<std::uint16_t>(pos + 20, "VLR record length");
    if (pos + kVlrHeader + length > point_offset) {
      in.fail(fmt::format("VLR {} at offset {} ({} bytes) runs past the point data at offset {}", i,
                          pos, length, point_offset));
    }
    // The point data offset itself may lie past the end of the file: check the payload too.
    in.need(pos + kVlrHeader, length, fmt::format("VLR {} ({} bytes)", i, length));
    if (user == "ubot") {
      info.map = parse_metadata(std::string(in.at(pos + kVlrHeader), length));
    }
    pos += kVlrHeader + length;
  }
  // The points must fill the file exactly up to the EVLRs (or its end).
  std::uint64_t end = data.size();
  if (minor == 4) {
    const std::uint64_t evlr = in.get<std::uint64_t>(235, "start of first EVLR");
    const std::uint32_t evlrs = in.get<std::uint32_t>(243, "number of EVLRs");
    if (evlrs > 0 && evlr != 0) {
      if (evlr > data.size() || evlr < point_offset) {
        in.fail(fmt::format("start of first EVLR {} (offset 235) lies outside the file", evlr));
      }
      end = evlr;
    }
  }
  if (point_offset > end) {
    in.fail(
        fmt::format("truncated: the point data should start at offset {} (offset 96), but "
                    "the file has {} bytes",
                    point_offset, data.size()));
  }
  const std::uint64_t available = end - point_offset;
  if (count > available / record_length || count * record_length != available) {
    in.fail(fmt::format(
        "the header's point count {} (offset {}) x {} bytes does not match the {} bytes of point "
        "data from offset {} ({} whole records{})",
        count, count_offset, record_length, available, point_offset, available / record_length,
        count * record_length > available ? "; truncated file or wrong count" : "; wrong count"));
  }
  const int rgb = rgb_offset(format);
  out.cloud.has_color = rgb >= 0;
  out.cloud.points.resize(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    const char* r = in.at(point_offset + i * record_length);
    MapPoint& p = out.cloud.points[i];
    for (int k = 0; k < 3; ++k) {
      std::int32_t u;
      std::memcpy(&u, r + 4 * k, 4);
      p.position[k] = u * info.las_scale[k] + info.las_offset[k];
    }
    std::memcpy(&p.intensity, r + 12, 2);
    if (rgb >= 0) std::memcpy(p.rgb.data(), r + rgb, 6);
  }
  return out;
}

}  // namespace ubot::mapping
