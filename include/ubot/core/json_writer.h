#pragma once
// A small streaming JSON writer for the line-oriented outputs (frames.jsonl). Doubles are
// written in the shortest form that reads back to the same bits (std::to_chars), so outputs
// keep full double precision and are byte-identical across runs. Non-finite numbers, which
// JSON cannot represent, are written as null.
//
// Speed (a 1000-robot step line holds a million numbers): the whole-array calls write straight
// into the output buffer, with no per-element bookkeeping, and small whole numbers (|v| < 1e5,
// e.g. a lidar's range_max or a 0/1 intensity) skip the floating-point formatter; the bytes are
// exactly std::to_chars's.
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
  // v rounded to `decimals` (0 … 9) places, in plain decimal notation with no trailing zeros
  // ("2.5", "-0.00012", "3"): the number round(v · 10^decimals) / 10^decimals reads back as,
  // written by the integer formatter, several times faster than value(double). For positions
  // shown on a screen (the live page); null for non-finite v.
  JsonWriter& value_rounded(double v, int decimals);
  JsonWriter& array(std::span<const double> values);
  // Floats as the doubles they convert to (the same text as value(double(f)) for each).
  JsonWriter& array(std::span<const float> values);
  JsonWriter& array(std::span<const int> values);
  // An array of true / false, one per flag (non-zero = true).
  JsonWriter& bool_array(std::span<const std::uint8_t> flags);
  // Values another writer formatted, comma-separated as a top-level writer leaves them
  // ("{..},{..}"), appended as the next elements of the array being written: pieces of one
  // array formatted in parallel, joined in order. Nothing for an empty piece.
  JsonWriter& elements(std::string_view formatted);

 private:
  void separate();
  void append_double(double v);
  // Appends `values` as a JSON array; `write(p, v)` writes one element at p (at most
  // `max_chars` bytes) and returns the end.
  template <typename T, typename Write>
  JsonWriter& write_array(std::span<const T> values, std::size_t max_chars, Write write);
  std::string out_;
  bool first_ = true;  // no comma needed before the next element
};

}  // namespace ubot
