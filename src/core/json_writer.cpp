#include "ubot/core/json_writer.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace ubot {

void JsonWriter::separate() {
  if (!first_) out_.push_back(',');
  first_ = false;
}

JsonWriter& JsonWriter::elements(std::string_view formatted) {
  if (formatted.empty()) return *this;
  separate();
  out_.append(formatted);
  return *this;
}

JsonWriter& JsonWriter::begin_object() {
  separate();
  out_.push_back('{');
  first_ = true;
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  out_.push_back('}');
  first_ = false;
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  separate();
  out_.push_back('[');
  first_ = true;
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  out_.push_back(']');
  first_ = false;
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  value(name);
  out_.push_back(':');
  first_ = true;
  return *this;
}

namespace {

// The longest text a double takes: "-2.2250738585072014e-308" is 24 characters.
constexpr std::size_t kMaxDoubleChars = 24;

// Writes `v` as std::to_chars(v) would, or "null" when it is not finite; returns the end.
char* write_double(char* p, double v) {
  if (!std::isfinite(v)) return std::copy_n("null", 4, p);
  // Whole numbers below 1e5 print the same in the integer formatter, which is several times
  // faster: std::to_chars takes the shorter of fixed and scientific form, preferring fixed on a
  // tie, and "10000" ties with "1e+04" while "100000" loses to "1e+05". -0 keeps its sign.
  if (std::abs(v) < 1e5) {
    const int whole = static_cast<int>(v);
    if (static_cast<double>(whole) == v && !(whole == 0 && std::signbit(v))) {
      return std::to_chars(p, p + kMaxDoubleChars, whole).ptr;
    }
  }
  return std::to_chars(p, p + kMaxDoubleChars, v).ptr;
}

}  // namespace

void JsonWriter::append_double(double v) {
  char buffer[kMaxDoubleChars];
  out_.append(buffer, write_double(buffer, v));
}

JsonWriter& JsonWriter::value_rounded(double v, int decimals) {
  static constexpr std::int64_t kPowers[] = {1,      10,      100,      1000,      10000,
                                             100000, 1000000, 10000000, 100000000, 1000000000};
  if (decimals < 0 || decimals > 9) throw std::invalid_argument("value_rounded: decimals 0 … 9");
  const std::int64_t unit = kPowers[decimals];
  const double scaled = std::round(v * static_cast<double>(unit));
  // Beyond 2^53 the scaled value is no longer a whole number of units (and may overflow).
  if (!(std::abs(scaled) < 9007199254740992.0)) return value(scaled / static_cast<double>(unit));
  separate();
  const std::int64_t n = static_cast<std::int64_t>(scaled);
  const std::uint64_t magnitude = static_cast<std::uint64_t>(n < 0 ? -n : n);
  char buffer[32];
  char* p = buffer;
  if (n < 0) *p++ = '-';
  p = std::to_chars(p, buffer + sizeof(buffer), magnitude / unit).ptr;
  std::uint64_t fraction = magnitude % unit;
  if (fraction != 0) {
    int digits = decimals;
    while (fraction % 10 == 0) {
      fraction /= 10;
      --digits;
    }
    *p++ = '.';
    char* const end = p + digits;
    for (char* q = end; q > p;) {
      *--q = static_cast<char>('0' + fraction % 10);
      fraction /= 10;
    }
    p = end;
  }
  out_.append(buffer, p);
  return *this;
}

template <typename T, typename Write>
JsonWriter& JsonWriter::write_array(std::span<const T> values, std::size_t max_chars, Write write) {
  separate();
  // Elements are formatted into a stack buffer and appended a few kB at a time: no per-element
  // bookkeeping, and (unlike resizing the string ahead) no bytes written twice.
  char buffer[4096];
  char* const flush_at = buffer + sizeof(buffer) - (max_chars + 2);
  char* p = buffer;
  *p++ = '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (p > flush_at) {
      out_.append(buffer, p);
      p = buffer;
    }
    if (i > 0) *p++ = ',';
    p = write(p, values[i]);
  }
  *p++ = ']';
  out_.append(buffer, p);
  first_ = false;
  return *this;
}

JsonWriter& JsonWriter::value(double v) {
  separate();
  append_double(v);
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t v) {
  separate();
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), v);
  out_.append(buffer, result.ptr);
  return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t v) {
  separate();
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), v);
  out_.append(buffer, result.ptr);
  return *this;
}

JsonWriter& JsonWriter::value(bool v) {
  separate();
  out_ += v ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view v) {
  separate();
  out_.push_back('"');
  for (const char c : v) {
    switch (c) {
      case '"':
        out_ += "\\\"";
        break;
      case '\\':
        out_ += "\\\\";
        break;
      case '\n':
        out_ += "\\n";
        break;
      case '\r':
        out_ += "\\r";
        break;
      case '\t':
        out_ += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static constexpr char kHex[] = "0123456789abcdef";
          out_ += "\\u00";
          out_.push_back(kHex[(c >> 4) & 0xf]);
          out_.push_back(kHex[c & 0xf]);
        } else {
          out_.push_back(c);
        }
    }
  }
  out_.push_back('"');
  return *this;
}

JsonWriter& JsonWriter::null() {
  separate();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::array(std::span<const double> values) {
  return write_array(values, kMaxDoubleChars, write_double);
}

JsonWriter& JsonWriter::array(std::span<const float> values) {
  return write_array(values, kMaxDoubleChars, [](char* p, float v) {
    // Intensities are nearly all 0 or 1 (in no predictable order): one well-predicted branch
    // for both, instead of the general path's mispredicted ones.
    const auto bits = std::bit_cast<std::uint32_t>(v);
    const bool one = bits == std::bit_cast<std::uint32_t>(1.0f);
    if (one || bits == 0) {
      *p = static_cast<char>('0' + one);
      return p + 1;
    }
    return write_double(p, static_cast<double>(v));
  });
}

JsonWriter& JsonWriter::array(std::span<const int> values) {
  return write_array(values, 11, [](char* p, int v) { return std::to_chars(p, p + 11, v).ptr; });
}

JsonWriter& JsonWriter::bool_array(std::span<const std::uint8_t> flags) {
  // Branch-free: hit / miss flags come in no predictable order. Eight bytes are copied (within
  // the element's room) and the pointer moves by the word's length.
  static constexpr char kWords[2][8] = {"false", "true"};
  return write_array(flags, 8, [](char* p, std::uint8_t flag) {
    const bool set = flag != 0;
    std::memcpy(p, kWords[set], 8);
    return p + 5 - set;
  });
}

}  // namespace ubot
