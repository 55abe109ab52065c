#pragma once
// A small streaming JSON writer for the line-oriented outputs (frames.jsonl). Doubles are
// written in the shortest form that reads back to the same bits (std::to_chars), so outputs
// keep full double precision and are byte-identical across runs. Non-finite numbers, which
// JSON cannot represent, are written as null.
#include <charconv>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace ubot {

class JsonWriter {
 public:
  std::string& str() { return out_; }
  void clear() {
    out_.clear();
    first_ = true;
  }

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  // The key of the next value inside an object.
  JsonWriter& key(std::string_view name);

  JsonWriter& value(double v);
  JsonWriter& value(std::int64_t v);
  JsonWriter& value(std::uint64_t v);
  JsonWriter& value(int v) { return value(static_cast<std::int64_t>(v)); }
  JsonWriter& value(bool v);
  JsonWriter& value(std::string_view v);
  JsonWriter& value(const char* v) { return value(std::string_view(v)); }
  JsonWriter& null();
  JsonWriter& array(std::span<const double> values);

 private:
  void separate();
  void append_double(double v);
  std::string out_;
  bool first_ = true;  // no comma needed before the next element
};

}  // namespace ubot
