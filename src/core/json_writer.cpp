#include "ubot/core/json_writer.h"

#include <cmath>

namespace ubot {

void JsonWriter::separate() {
  if (!first_) out_.push_back(',');
  first_ = false;
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

void JsonWriter::append_double(double v) {
  if (!std::isfinite(v)) {
    out_ += "null";
    return;
  }
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), v);
  out_.append(buffer, result.ptr);
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
  begin_array();
  for (double v : values) {
    separate();
    append_double(v);
  }
  return end_array();
}

}  // namespace ubot
