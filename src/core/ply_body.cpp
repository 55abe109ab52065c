// check_ply_list_lengths (ply_header.h): a walk over a PLY body that reads list lengths only.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>

#include "ubot/core/error.h"
#include "ubot/core/ply_header.h"

namespace ubot {
namespace {

// Where a record is, for messages.
std::string record_name(const PlyElement& e, std::uint64_t record, const PlyProperty& p) {
  return fmt::format("element '{}' record {} property '{}'", e.name, record, p.name);
}

// Binary bodies: records of scalars and lists, each list its length then its items.
class BinaryWalk {
 public:
  BinaryWalk(const PlyHeader& h, std::string_view body) : h_(h), body_(body) {}

  void walk() {
    for (const PlyElement& e : h_.elements) {
      for (std::uint64_t r = 0; r < e.count; ++r) {
        for (const PlyProperty& p : e.properties)
          p.is_list ? list(e, r, p) : skip(e, r, p, p.type.size);
      }
    }
  }

 private:
  void skip(const PlyElement& e, std::uint64_t r, const PlyProperty& p, std::uint64_t bytes) {
    if (bytes > left()) {
      throw Error(fmt::format("{}: the file ends inside {}", h_.source, record_name(e, r, p)));
    }
    at_ += bytes;
  }

  void list(const PlyElement& e, std::uint64_t r, const PlyProperty& p) {
    const std::size_t start = at_;
    skip(e, r, p, static_cast<std::uint64_t>(p.count_type.size));
    const std::optional<std::uint64_t> n =
        read_count(body_.substr(start, static_cast<std::size_t>(p.count_type.size)), p.count_type);
    if (!n)
      throw Error(
          fmt::format("{}: {} has a negative list length", h_.source, record_name(e, r, p)));
    const std::uint64_t items = *n;
    const auto item = static_cast<std::uint64_t>(p.type.size);
    if (items > left() / item) {
      throw Error(
          fmt::format("{}: {} is a list of {} items of {} bytes, more than the {} bytes "
                      "left in the file",
                      h_.source, record_name(e, r, p), items, item, left()));
    }
    at_ += items * item;
  }

  // A list's length, nullopt if it is negative (a signed length type).
  std::optional<std::uint64_t> read_count(std::string_view bytes, PlyType type) const {
    const bool big = h_.format == PlyFormat::kBinaryBigEndian;
    std::uint64_t u = 0;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      const std::size_t k = big ? i : bytes.size() - 1 - i;  // the most significant byte first
      u = (u << 8) | static_cast<unsigned char>(bytes[k]);
    }
    if (type.kind == 'I' && (u >> (8 * bytes.size() - 1)) != 0) return std::nullopt;
    return u;
  }

  std::uint64_t left() const { return body_.size() - at_; }

  const PlyHeader& h_;
  std::string_view body_;
  std::size_t at_ = 0;
};

// ASCII bodies: one record a line (assimp reads them so: a record's values from its line, the
// rest of the line skipped), values apart by spaces or tabs, a list its length then its items.
// Every value must be a number and a line must hold exactly its record: once a line held other
// bytes or more values, assimp and a walk over the values parted ways, and a list length the
// walk never saw (8888888888888 on a line of garbage) took assimp 20 GB for a 522-byte file.
class AsciiWalk {
 public:
  AsciiWalk(const PlyHeader& h, std::string_view body) : h_(h), body_(body) {}

  void walk() {
    for (const PlyElement& e : h_.elements) {
      for (std::uint64_t r = 0; r < e.count; ++r) record(e, r);
    }
  }

 private:
  void record(const PlyElement& e, std::uint64_t r) {
    next_line(e, r);
    for (const PlyProperty& p : e.properties) {
      const std::string_view value = next(e, r, p);
      p.is_list ? list(e, r, p, value) : number(e, r, p, value);
    }
    skip_blanks();
    if (at_ < line_end_) {
      throw Error(
          fmt::format("{}: line {} of the body has values after {}'s last property; an "
                      "ASCII PLY mesh has one record a line",
                      h_.source, line_, record_of(e, r)));
    }
  }

  // The next line, which must hold a value (blank lines between records are refused too).
  void next_line(const PlyElement& e, std::uint64_t r) {
    at_ = line_ == 0 ? 0 : std::min(line_end_ + 1, body_.size());
    if (at_ == body_.size()) {
      throw Error(fmt::format("{}: the file ends before {}", h_.source, record_of(e, r)));
    }
    const std::size_t newline = body_.find('\n', at_);
    line_end_ = newline == std::string_view::npos ? body_.size() : newline;
    ++line_;
    skip_blanks();
    if (at_ == line_end_) {
      throw Error(fmt::format("{}: line {} of the body is blank, where {} was due", h_.source,
                              line_, record_of(e, r)));
    }
  }

  std::string_view next(const PlyElement& e, std::uint64_t r, const PlyProperty& p) {
    skip_blanks();
    if (at_ == line_end_) {
      throw Error(
          fmt::format("{}: line {} of the body ends inside {}; an ASCII PLY mesh has one "
                      "record a line",
                      h_.source, line_, record_name(e, r, p)));
    }
    const std::size_t start = at_;
    while (at_ < line_end_ && !is_blank(body_[at_])) ++at_;
    return body_.substr(start, at_ - start);
  }

  void number(const PlyElement& e, std::uint64_t r, const PlyProperty& p, std::string_view v) {
    if (!v.empty() && v.front() == '+') v.remove_prefix(1);  // from_chars takes no '+'
    double x = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec == std::errc::invalid_argument || end != v.data() + v.size()) {
      throw Error(fmt::format("{}: line {} of the body: {} is '{}', not a number", h_.source, line_,
                              record_name(e, r, p), v.substr(0, 32)));
    }
  }

  void list(const PlyElement& e, std::uint64_t r, const PlyProperty& p, std::string_view length) {
    std::uint64_t items = 0;
    const auto [end, ec] = std::from_chars(length.data(), length.data() + length.size(), items);
    if (ec != std::errc() || end != length.data() + length.size()) {
      throw Error(fmt::format("{}: {} has a list length '{}' that is not a whole number", h_.source,
                              record_name(e, r, p), length.substr(0, 32)));
    }
    // n values take at least 2n - 1 bytes (a character each, a space between).
    const std::uint64_t left = body_.size() - at_;
    if (items > (left + 1) / 2) {
      throw Error(
          fmt::format("{}: {} is a list of {} items, more than the {} bytes left in the "
                      "file can hold",
                      h_.source, record_name(e, r, p), items, left));
    }
    for (std::uint64_t i = 0; i < items; ++i) number(e, r, p, next(e, r, p));
  }

  static std::string record_of(const PlyElement& e, std::uint64_t r) {
    return fmt::format("element '{}' record {}", e.name, r);
  }

  void skip_blanks() {
    while (at_ < line_end_ && is_blank(body_[at_])) ++at_;
  }

  // Spaces and tabs, and a CR before the line's LF (a file written on Windows).
  static bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
  }

  const PlyHeader& h_;
  std::string_view body_;
  std::size_t at_ = 0;
  std::size_t line_end_ = 0;
  std::uint64_t line_ = 0;
};

}  // namespace

void check_ply_list_lengths(const PlyHeader& header, std::string_view body) {
  if (header.format == PlyFormat::kAscii) {
    AsciiWalk(header, body).walk();
  } else {
    BinaryWalk(header, body).walk();
  }
}

}  // namespace ubot
