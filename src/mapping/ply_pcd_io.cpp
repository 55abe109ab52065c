// PLY (binary little-endian) and PCD (binary, v0.7). Both are written with double-precision
// x y z so that world positions far from the origin survive; readers accept float or double
// coordinates and any numeric intensity / colour fields.
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <map>

#include "binary_io.h"
#include "ubot/core/error.h"
#include "ubot/core/ply_header.h"
#include "ubot/core/words.h"
#include "ubot/mapping/point_cloud_io.h"

namespace ubot::mapping {
namespace {

using detail::ByteReader;
using detail::ByteWriter;

// The largest PCD record accepted (COUNT x SIZE summed over the fields): far above any real
// cloud (a 308-bin FPFH descriptor is 1.2 kB), small enough that the sum cannot overflow.
constexpr std::uint64_t kMaxRecordBytes = 1 << 20;

// A numeric field of a binary record.
struct Field {
  char kind = 'F';  // F float, I signed, U unsigned
  int size = 4;
  std::size_t offset = 0;
};

double read_number(const char* p, const Field& f) {
  switch (f.kind) {
    case 'F': {
      if (f.size == 8) {
        double v;
        std::memcpy(&v, p, 8);
        return v;
      }
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case 'I': {
      std::uint64_t v = 0;
      std::memcpy(&v, p, f.size);
      const int shift = 64 - 8 * f.size;  // sign-extend (shifting the unsigned bits: no overflow)
      return static_cast<double>(static_cast<std::int64_t>(v << shift) >> shift);
    }
    default: {
      std::uint64_t v = 0;
      std::memcpy(&v, p, f.size);
      return static_cast<double>(v);
    }
  }
}

std::uint16_t to_u16(double v) {
  if (std::isnan(v)) return 0;  // a NaN intensity or colour (found by fuzz_pcd): no value
  return static_cast<std::uint16_t>(std::clamp(std::round(v), 0.0, 65535.0));
}

std::uint64_t parse_count(const ByteReader& in, const std::string& word, std::string_view what) {
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), n);
  if (ec != std::errc() || end != word.data() + word.size()) {
    in.fail(fmt::format("{}: expected a count, got '{}'", what, word));
  }
  return n;
}

// Reads `count` records of `record_size` bytes from `offset` into points, using the named
// fields (x, y, z required; intensity, red/green/blue optional). The records must fill the
// bytes from `offset` to `end` (the end of the file, or of the PLY vertex block) exactly.
void read_records(const ByteReader& in, std::size_t offset, std::size_t end, std::uint64_t count,
                  std::size_t record_size, const std::map<std::string, Field>& fields,
                  std::string_view count_field, LoadedCloud& out) {
  for (const char* axis : {"x", "y", "z"}) {
    if (!fields.count(axis)) in.fail(fmt::format("no '{}' field", axis));
  }
  const std::uint64_t available = end - std::min(end, offset);
  if (record_size == 0 || count > available / record_size || count * record_size != available) {
    in.fail(fmt::format(
        "{} says {} points of {} bytes, but {} bytes of data follow the header at offset {}{}",
        count_field, count, record_size, available, offset,
        record_size != 0 && count > available / record_size ? " (truncated file or wrong count)"
                                                            : " (wrong count or record size)"));
  }
  // Every field lies inside the record: both headers give sizes only, the readers lay the
  // fields out one after another (each at least one byte: read_pcd refuses COUNT 0).
  const Field x = fields.at("x"), y = fields.at("y"), z = fields.at("z");
  const Field* intensity = nullptr;
  for (const char* name : {"intensity", "scalar_intensity"}) {
    if (fields.count(name)) intensity = &fields.at(name);
  }
  const bool rgb = fields.count("red") && fields.count("green") && fields.count("blue");
  const bool packed_rgb = !rgb && fields.count("rgb");
  if (packed_rgb && fields.at("rgb").size != 4) {
    in.fail("field 'rgb' must be 4 bytes (packed 0x00RRGGBB)");
  }
  out.cloud.has_color = rgb || packed_rgb;
  out.cloud.points.resize(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    const char* r = in.at(offset + i * record_size);
    MapPoint& p = out.cloud.points[i];
    p.position = {read_number(r + x.offset, x), read_number(r + y.offset, y),
                  read_number(r + z.offset, z)};
    if (intensity) p.intensity = to_u16(read_number(r + intensity->offset, *intensity));
    if (rgb) {
      int k = 0;
      for (const char* c : {"red", "green", "blue"}) {
        const Field& f = fields.at(c);
        const double v = read_number(r + f.offset, f);
        // A byte channel scales to 16 bits; a signed one (char, int8) may be negative, which
        // to_u16 clamps to 0 (converting it straight to uint16 is undefined: found by fuzz_ply).
        p.rgb[k++] = to_u16(f.size == 1 ? v * 257 : v);
      }
    } else if (packed_rgb) {
      std::uint32_t v;
      std::memcpy(&v, r + fields.at("rgb").offset, 4);
      p.rgb = {static_cast<std::uint16_t>(((v >> 16) & 0xFF) * 257),
               static_cast<std::uint16_t>(((v >> 8) & 0xFF) * 257),
               static_cast<std::uint16_t>((v & 0xFF) * 257)};
    }
  }
}

std::string comment_metadata(const std::vector<std::string>& lines, std::string_view prefix) {
  for (const std::string& line : lines) {
    if (line.rfind(prefix, 0) == 0) {
      const std::string rest = line.substr(prefix.size());
      if (parse_metadata(rest)) return rest;
    }
  }
  return {};
}

}  // namespace

void write_ply(const std::string& path, const PointCloud& cloud, const CloudWriteOptions& options) {
  ByteWriter w;
  w.put_text("ply\nformat binary_little_endian 1.0\ncomment written by ubot\n");
  if (options.map) w.put_text(fmt::format("comment {}\n", metadata_text(*options.map)));
  w.put_text(fmt::format("element vertex {}\n", cloud.points.size()));
  w.put_text(
      "property double x\nproperty double y\nproperty double z\nproperty ushort intensity\n");
  if (cloud.has_color) {
    w.put_text("property ushort red\nproperty ushort green\nproperty ushort blue\n");
  }
  w.put_text("end_header\n");
  for (const MapPoint& p : cloud.points) {
    for (int k = 0; k < 3; ++k) w.put<double>(p.position[k]);
    w.put<std::uint16_t>(p.intensity);
    if (cloud.has_color) {
      for (std::uint16_t c : p.rgb) w.put<std::uint16_t>(c);
    }
  }
  detail::write_file(path, w.bytes());
}

LoadedCloud read_ply(const std::string& path) {
  return read_ply_bytes(detail::read_file(path), path);
}

// The element whose records read_ply_bytes reads: the first 'vertex', after nothing but empty
// elements (the body of another would lie before it).
const PlyElement& vertex_element(const PlyHeader& header, const ByteReader& in) {
  for (const PlyElement& e : header.elements) {
    if (e.name == "vertex") return e;
    if (e.count != 0) {
      throw Error(header.error_at(
          e.line, fmt::format("element '{}' comes before 'vertex' (not supported)", e.name)));
    }
  }
  in.fail("no 'element vertex' in the header");
}

LoadedCloud read_ply_bytes(const std::vector<char>& data, const std::string& path) {
  const ByteReader in(data, path);
  LoadedCloud out;
  out.info.format = CloudFormat::kPly;
  out.info.file_bytes = data.size();
  const PlyHeader header =
      read_ply_header(std::string_view(data.data(), data.size()), path, PlyHeaderBytes::kAny);
  if (header.format != PlyFormat::kBinaryLittleEndian) {
    throw Error(header.error_at(
        header.format_line, fmt::format("format '{}' is not supported (binary_little_endian only)",
                                        ply_format_name(header.format))));
  }
  out.info.version = header.version;
  const PlyElement& vertex = vertex_element(header, in);
  require_scalar_properties(header, vertex);
  std::map<std::string, Field> fields;
  std::size_t record = 0;
  for (const PlyProperty& p : vertex.properties) {
    fields[p.name] = Field{p.type.kind, p.type.size, record};
    record += static_cast<std::size_t>(p.type.size);
  }
  if (const std::string m = comment_metadata(header.lines, "comment "); !m.empty()) {
    out.info.map = parse_metadata(m);
  }
  // Other elements after the vertices are allowed, and skipped: the vertices are read from the
  // bytes their records take (when those fit in the file; else read_records reports the
  // mismatch), and check_ply_body_size checks that the later elements fit in the rest.
  const std::size_t after_header = data.size() - header.body_offset;
  std::size_t end = data.size();
  if (&vertex != &header.elements.back() && record != 0 && vertex.count <= after_header / record) {
    end = header.body_offset + static_cast<std::size_t>(vertex.count) * record;
  }
  read_records(in, header.body_offset, end, vertex.count, record, fields, "'element vertex'", out);
  check_ply_body_size(header, after_header);
  return out;
}

void write_pcd(const std::string& path, const PointCloud& cloud, const CloudWriteOptions& options) {
  ByteWriter w;
  w.put_text("# .PCD v0.7 - Point Cloud Data file format (written by ubot)\n");
  if (options.map) w.put_text(fmt::format("# {}\n", metadata_text(*options.map)));
  const std::size_t n = cloud.points.size();
  if (cloud.has_color) {
    w.put_text(
        "VERSION 0.7\nFIELDS x y z intensity rgb\nSIZE 8 8 8 4 4\nTYPE F F F F U\n"
        "COUNT 1 1 1 1 1\n");
  } else {
    w.put_text("VERSION 0.7\nFIELDS x y z intensity\nSIZE 8 8 8 4\nTYPE F F F F\nCOUNT 1 1 1 1\n");
  }
  w.put_text(
      fmt::format("WIDTH {}\nHEIGHT 1\nVIEWPOINT 0 0 0 1 0 0 0\nPOINTS {}\nDATA binary\n", n, n));
  for (const MapPoint& p : cloud.points) {
    for (int k = 0; k < 3; ++k) w.put<double>(p.position[k]);
    w.put<float>(static_cast<float>(p.intensity));
    if (cloud.has_color) {
      w.put<std::uint32_t>(static_cast<std::uint32_t>(p.rgb[0] >> 8) << 16 |
                           static_cast<std::uint32_t>(p.rgb[1] >> 8) << 8 | (p.rgb[2] >> 8));
    }
  }
  detail::write_file(path, w.bytes());
}

LoadedCloud read_pcd(const std::string& path) {
  return read_pcd_bytes(detail::read_file(path), path);
}

LoadedCloud read_pcd_bytes(const std::vector<char>& data, const std::string& path) {
  const ByteReader in(data, path);
  LoadedCloud out;
  out.info.format = CloudFormat::kPcd;
  out.info.file_bytes = data.size();
  const detail::TextHeader header = detail::read_text_header(in, "DATA");
  std::vector<std::string> names, sizes, types, counts;
  std::uint64_t points = 0;
  bool have_points = false;
  for (std::size_t i = 0; i < header.lines.size(); ++i) {
    std::vector<std::string> w = split_words(header.lines[i]);
    if (w.empty() || w[0][0] == '#') continue;
    const std::string where = fmt::format("header line {}", i + 1);
    const std::string key = w[0];
    w.erase(w.begin());
    if (key == "VERSION") {
      out.info.version = w.empty() ? "" : w[0];
    } else if (key == "FIELDS") {
      names = w;
    } else if (key == "SIZE") {
      sizes = w;
    } else if (key == "TYPE") {
      types = w;
    } else if (key == "COUNT") {
      counts = w;
    } else if (key == "POINTS") {
      if (w.size() != 1) in.fail(where + ": expected 'POINTS N'");
      points = parse_count(in, w[0], where);
      have_points = true;
    } else if (key == "DATA") {
      if (w.size() != 1 || w[0] != "binary") {
        in.fail(fmt::format("{}: DATA '{}' is not supported (binary only)", where,
                            w.empty() ? "" : w[0]));
      }
    } else if (key != "WIDTH" && key != "HEIGHT" && key != "VIEWPOINT") {
      in.fail(fmt::format("{}: unknown PCD header key '{}'", where, key));
    }
  }
  if (header.lines.empty() || split_words(header.lines.front()).empty() ||
      (split_words(header.lines.front())[0] != "VERSION" &&
       header.lines.front().rfind("#", 0) != 0)) {
    in.fail("not a PCD file: it does not start with a comment or VERSION line (offset 0)");
  }
  if (names.empty() || sizes.size() != names.size() || types.size() != names.size() ||
      (!counts.empty() && counts.size() != names.size())) {
    in.fail("FIELDS, SIZE, TYPE and COUNT must list the same number of fields");
  }
  if (!have_points) in.fail("no POINTS line in the header");
  std::map<std::string, Field> fields;
  std::size_t record = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    Field f;
    f.kind = types[i].size() == 1 ? types[i][0] : '?';
    f.size = sizes[i] == "1"   ? 1
             : sizes[i] == "2" ? 2
             : sizes[i] == "4" ? 4
             : sizes[i] == "8" ? 8
                               : 0;
    if ((f.kind != 'F' && f.kind != 'I' && f.kind != 'U') || f.size == 0 ||
        (f.kind == 'F' && f.size != 4 && f.size != 8)) {
      in.fail(fmt::format("field '{}': unsupported TYPE {} SIZE {}", names[i], types[i], sizes[i]));
    }
    const std::uint64_t n = counts.empty() ? 1 : parse_count(in, counts[i], "COUNT");
    // COUNT x SIZE comes from the file: refuse a record size that would wrap around (it would
    // make the record look small and the field offsets point outside it).
    const std::uint64_t room = (kMaxRecordBytes - record) / static_cast<std::uint64_t>(f.size);
    if (n == 0 || n > room) {
      in.fail(fmt::format("field '{}': COUNT {} x SIZE {} is {} (1 to {} bytes per record)",
                          names[i], counts.empty() ? "1" : counts[i], sizes[i],
                          n == 0 ? "empty" : "too large", kMaxRecordBytes));
    }
    f.offset = record;
    record += static_cast<std::size_t>(n) * static_cast<std::size_t>(f.size);
    fields[names[i]] = f;
  }
  if (const std::string m = comment_metadata(header.lines, "# "); !m.empty()) {
    out.info.map = parse_metadata(m);
  }
  read_records(in, header.data_offset, in.size(), points, record, fields, "POINTS", out);
  return out;
}

}  // namespace ubot::mapping
