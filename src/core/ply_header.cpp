#include "ubot/core/ply_header.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>
#include <utility>

#include "ubot/core/error.h"
#include "ubot/core/words.h"

namespace ubot {
namespace {

constexpr std::uint64_t kMaxBytes = std::numeric_limits<std::uint64_t>::max();

[[noreturn]] void fail(const std::string& source, std::string_view what) {
  throw Error(fmt::format("{}: {}", source, what));
}

// Printable ASCII only: assimp 5.2's PLY importer crashed (SIGSEGV) on a header broken by 0xFF
// bytes (tests/config/data/assimp-5.2-ply-segv.ply), and no PLY writer puts other bytes there.
void check_text(std::string_view line, const std::string& source) {
  for (const char c : line) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte > 0x7e) {
      fail(source,
           fmt::format("a header byte 0x{:02X} that is not text", static_cast<unsigned>(byte)));
    }
  }
}

bool is_end_header(std::string_view line) {
  const std::vector<std::string> words = split_words(line);
  return !words.empty() && words[0] == "end_header";
}

// The header's lines (without line ends) up to `end_header`, and the offset of the body.
void split_header_lines(std::string_view bytes, PlyHeaderBytes allowed, PlyHeader& h) {
  const std::string_view window = bytes.substr(0, std::min(bytes.size(), kMaxPlyHeaderBytes));
  std::size_t pos = 0;
  for (std::size_t nl; (nl = window.find('\n', pos)) != std::string_view::npos; pos = nl + 1) {
    std::string_view line = window.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (h.lines.empty() && line != "ply") {
      fail(h.source, "not a PLY file: it does not start with the line 'ply' (offset 0)");
    }
    if (allowed == PlyHeaderBytes::kPrintableAscii) check_text(line, h.source);
    h.lines.emplace_back(line);
    if (is_end_header(line)) {
      h.body_offset = nl + 1;
      return;
    }
  }
  if (h.lines.empty()) {
    fail(h.source, "not a PLY file: it does not start with the line 'ply' (offset 0)");
  }
  fail(h.source,
       fmt::format("truncated header: no 'end_header' line in the first {} bytes", window.size()));
}

// Reads the header's lines into `h` one at a time.
class LineParser {
 public:
  explicit LineParser(PlyHeader& h) : h_(h) {}

  void parse(int line, const std::vector<std::string>& w) {
    line_ = line;
    if (w.empty() || w[0] == "comment" || w[0] == "obj_info") return;
    if (w[0] == "format") return format(w);
    if (w[0] == "element") return element(w);
    if (w[0] == "property") return property(w);
    if (w[0] == "end_header") return end(w);
    fail(fmt::format("unexpected '{}'", w[0]));
  }

 private:
  [[noreturn]] void fail(std::string_view what) const { throw Error(h_.error_at(line_, what)); }

  void format(const std::vector<std::string>& w) {
    if (w.size() != 3) fail("expected 'format FORMAT 1.0'");
    if (h_.format_line != 0)
      fail(fmt::format("a second 'format' line (the first: line {})", h_.format_line));
    static constexpr std::array kFormats = {PlyFormat::kAscii, PlyFormat::kBinaryLittleEndian,
                                            PlyFormat::kBinaryBigEndian};
    const auto it = std::find_if(kFormats.begin(), kFormats.end(),
                                 [&](PlyFormat f) { return w[1] == ply_format_name(f); });
    if (it == kFormats.end()) {
      fail(fmt::format("unknown format '{}' (ascii, binary_little_endian or binary_big_endian)",
                       w[1]));
    }
    if (w[2] != "1.0") fail(fmt::format("PLY version '{}' is not supported (1.0 only)", w[2]));
    h_.format = *it;
    h_.version = w[2];
    h_.format_line = line_;
  }

  void element(const std::vector<std::string>& w) {
    if (w.size() != 3) fail("expected 'element NAME COUNT'");
    close_element();
    PlyElement e;
    e.name = w[1];
    e.line = line_;
    const auto [end, ec] = std::from_chars(w[2].data(), w[2].data() + w[2].size(), e.count);
    if (ec != std::errc() || end != w[2].data() + w[2].size()) {
      fail(fmt::format("expected a count, got '{}'", w[2]));
    }
    h_.elements.push_back(std::move(e));
  }

  void property(const std::vector<std::string>& w) {
    if (h_.elements.empty()) fail("a property before any 'element' line");
    const bool list = w.size() > 1 && w[1] == "list";
    if (w.size() != (list ? 5u : 3u)) {
      fail("expected 'property TYPE NAME' or 'property list COUNT_TYPE ITEM_TYPE NAME'");
    }
    PlyProperty p;
    p.is_list = list;
    p.line = line_;
    p.name = w.back();
    p.type = type(w[w.size() - 2]);
    if (list) {
      p.count_type = type(w[2]);
      if (p.count_type.kind == 'F') {
        fail(fmt::format("a list's length type must be an integer type, not '{}'", w[2]));
      }
    }
    PlyElement& e = h_.elements.back();
    for (const PlyProperty& q : e.properties) {
      if (q.name == p.name) {
        fail(fmt::format("element '{}' already has a property '{}' (line {})", e.name, p.name,
                         q.line));
      }
    }
    e.properties.push_back(std::move(p));
  }

  PlyType type(const std::string& name) const {
    const std::optional<PlyType> t = ply_type(name);
    if (!t) fail(fmt::format("unknown PLY type '{}'", name));
    return *t;
  }

  void end(const std::vector<std::string>& w) {
    if (w.size() != 1) fail("expected 'end_header' alone on its line");
    close_element();
    if (h_.format_line == 0)
      throw Error(fmt::format("{}: no 'format' line in the header", h_.source));
  }

  // Records without a property take no bytes: a huge count would pass every size check and
  // still make a reader loop over it.
  void close_element() const {
    if (h_.elements.empty()) return;
    const PlyElement& e = h_.elements.back();
    if (e.count != 0 && e.properties.empty()) {
      throw Error(h_.error_at(
          e.line, fmt::format("element '{}' has {} records but no property", e.name, e.count)));
    }
  }

  PlyHeader& h_;
  int line_ = 0;
};

// a * b and a + b, or nullopt when the result does not fit in 64 bits.
std::optional<std::uint64_t> times(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > kMaxBytes / a) return std::nullopt;
  return a * b;
}
std::optional<std::uint64_t> plus(std::uint64_t a, std::uint64_t b) {
  if (b > kMaxBytes - a) return std::nullopt;
  return a + b;
}

// The fewest bytes one record takes (at most 2^16 properties of 8 bytes: no overflow).
std::uint64_t least_record_bytes(const PlyHeader& h, const PlyElement& e) {
  std::uint64_t bytes = 0;
  for (const PlyProperty& p : e.properties) {
    if (h.format == PlyFormat::kAscii) {
      bytes += 1;  // a value is at least one character
    } else {
      bytes += static_cast<std::uint64_t>(p.is_list ? p.count_type.size : p.type.size);
    }
  }
  return bytes;
}

}  // namespace

const char* ply_format_name(PlyFormat format) {
  switch (format) {
    case PlyFormat::kAscii:
      return "ascii";
    case PlyFormat::kBinaryLittleEndian:
      return "binary_little_endian";
    case PlyFormat::kBinaryBigEndian:
      return "binary_big_endian";
  }
  return "?";
}

std::optional<PlyType> ply_type(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, PlyType>, 16> kTypes = {{
      {"char", {'I', 1}},
      {"int8", {'I', 1}},
      {"uchar", {'U', 1}},
      {"uint8", {'U', 1}},
      {"short", {'I', 2}},
      {"int16", {'I', 2}},
      {"ushort", {'U', 2}},
      {"uint16", {'U', 2}},
      {"int", {'I', 4}},
      {"int32", {'I', 4}},
      {"uint", {'U', 4}},
      {"uint32", {'U', 4}},
      {"float", {'F', 4}},
      {"float32", {'F', 4}},
      {"double", {'F', 8}},
      {"float64", {'F', 8}},
  }};
  for (const auto& [type_name, type] : kTypes) {
    if (type_name == name) return type;
  }
  return std::nullopt;
}

bool PlyElement::has_list() const {
  return std::any_of(properties.begin(), properties.end(),
                     [](const PlyProperty& p) { return p.is_list; });
}

std::string PlyHeader::error_at(int line, std::string_view what) const {
  return fmt::format("{}: header line {}: {}", source, line, what);
}

PlyHeader read_ply_header(std::string_view bytes, const std::string& source,
                          PlyHeaderBytes allowed) {
  PlyHeader h;
  h.source = source;
  split_header_lines(bytes, allowed, h);
  LineParser parser(h);
  for (std::size_t i = 1; i < h.lines.size(); ++i) {
    parser.parse(static_cast<int>(i + 1), split_words(h.lines[i]));
  }
  return h;
}

std::optional<std::uint64_t> ply_record_bytes(const PlyHeader& header, const PlyElement& element) {
  if (header.format == PlyFormat::kAscii || element.has_list()) return std::nullopt;
  return least_record_bytes(header, element);
}

std::optional<std::uint64_t> ply_least_element_bytes(const PlyHeader& header,
                                                     const PlyElement& element) {
  return times(element.count, least_record_bytes(header, element));
}

void check_ply_body_size(const PlyHeader& header, std::uint64_t body_bytes) {
  std::uint64_t least = 0;
  for (const PlyElement& e : header.elements) {
    const std::optional<std::uint64_t> bytes = ply_least_element_bytes(header, e);
    const std::optional<std::uint64_t> sum = bytes ? plus(least, *bytes) : std::nullopt;
    if (!sum) {
      throw Error(header.error_at(
          e.line, fmt::format("element '{}' declares {} records of at least {} bytes: with the "
                              "elements before it, more than 2^64 bytes",
                              e.name, e.count, least_record_bytes(header, e))));
    }
    least = *sum;
  }
  if (least > body_bytes) {
    fail(header.source,
         fmt::format("its elements need at least {} bytes, the file has {} after the header", least,
                     body_bytes));
  }
}

void require_scalar_properties(const PlyHeader& header, const PlyElement& element) {
  for (const PlyProperty& p : element.properties) {
    if (p.is_list) {
      throw Error(header.error_at(
          p.line, fmt::format("{} property '{}' is not supported (lists are not)", element.name,
                              header.lines[static_cast<std::size_t>(p.line - 1)])));
    }
  }
}

}  // namespace ubot
