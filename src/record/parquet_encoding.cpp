#include "ubot/record/parquet_encoding.h"

#include <algorithm>

namespace ubot::parquet {

void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

std::uint64_t zigzag(std::int64_t v) {
  // The arithmetic shift copies the sign into every bit: XOR with it flips negative numbers.
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}

void ThriftWriter::field_header(std::int16_t id, ThriftType type) {
  const int delta = id - last_id_;
  if (delta > 0 && delta <= 15) {
    out_.push_back(static_cast<char>((delta << 4) | static_cast<int>(type)));
  } else {  // long form: the type, then the id itself (an i16, zigzag varint)
    out_.push_back(static_cast<char>(type));
    put_varint(out_, zigzag(id));
  }
  last_id_ = id;
}

ThriftWriter& ThriftWriter::i32(std::int16_t id, std::int32_t v) {
  field_header(id, ThriftType::kI32);
  put_varint(out_, zigzag(v));
  return *this;
}

ThriftWriter& ThriftWriter::i64(std::int16_t id, std::int64_t v) {
  field_header(id, ThriftType::kI64);
  put_varint(out_, zigzag(v));
  return *this;
}

ThriftWriter& ThriftWriter::boolean(std::int16_t id, bool v) {
  field_header(id, v ? ThriftType::kBoolTrue : ThriftType::kBoolFalse);
  return *this;
}

ThriftWriter& ThriftWriter::binary(std::int16_t id, std::string_view v) {
  field_header(id, ThriftType::kBinary);
  return element_binary(v);
}

ThriftWriter& ThriftWriter::begin_struct(std::int16_t id) {
  field_header(id, ThriftType::kStruct);
  return begin_element();
}

ThriftWriter& ThriftWriter::begin_list(std::int16_t id, ThriftType element, std::size_t size) {
  field_header(id, ThriftType::kList);
  const int type = static_cast<int>(element);
  if (size < 15) {
    out_.push_back(static_cast<char>((size << 4) | type));
  } else {  // 15 in the size nibble: the size follows as a varint
    out_.push_back(static_cast<char>(0xF0 | type));
    put_varint(out_, size);
  }
  return *this;
}

ThriftWriter& ThriftWriter::begin_element() {
  stack_.push_back(last_id_);  // a nested struct counts its field ids from 0 again
  last_id_ = 0;
  return *this;
}

ThriftWriter& ThriftWriter::element_i32(std::int32_t v) {
  put_varint(out_, zigzag(v));
  return *this;
}

ThriftWriter& ThriftWriter::element_binary(std::string_view v) {
  put_varint(out_, v.size());
  out_.append(v);
  return *this;
}

ThriftWriter& ThriftWriter::end_struct() {
  out_.push_back('\0');  // field type 0: stop
  if (stack_.empty()) {
    last_id_ = 0;
  } else {
    last_id_ = stack_.back();
    stack_.pop_back();
  }
  return *this;
}

int level_bit_width(int max_level) {
  int bits = 0;
  while ((1 << bits) <= max_level) ++bits;
  return bits;
}

void LevelEncoder::put(std::uint8_t level, std::uint64_t count) {
  if (count == 0) return;
  if (run_count_ > 0 && level == run_level_) {
    run_count_ += count;
    return;
  }
  flush_run(false);
  run_level_ = level;
  run_count_ = count;
}

void LevelEncoder::flush_run(bool last) {
  if (run_count_ == 0) return;
  // Complete the pending group of 8: a bit-packed section cannot be padded before its end.
  const std::uint64_t missing = (8 - literals_.size() % 8) % 8;
  const std::uint64_t given = std::min(missing, run_count_);
  literals_.insert(literals_.end(), given, run_level_);
  run_count_ -= given;
  if (run_count_ >= 8) {
    flush_literals();  // a whole number of groups here
    put_varint(out_, run_count_ << 1);
    out_.push_back(static_cast<char>(run_level_));  // bit widths up to 8: one byte
  } else {
    literals_.insert(literals_.end(), run_count_, run_level_);
  }
  run_count_ = 0;
  if (last) flush_literals();
}

void LevelEncoder::flush_literals() {
  if (literals_.empty()) return;
  literals_.resize((literals_.size() + 7) / 8 * 8, 0);  // only ever padded at the end
  put_varint(out_, (literals_.size() / 8) << 1 | 1);
  std::uint32_t bits = 0;
  int filled = 0;
  for (const std::uint8_t v : literals_) {
    bits |= static_cast<std::uint32_t>(v) << filled;
    filled += bit_width_;
    while (filled >= 8) {
      out_.push_back(static_cast<char>(bits & 0xFF));
      bits >>= 8;
      filled -= 8;
    }
  }
  literals_.clear();
}

std::string LevelEncoder::finish() {
  flush_run(true);
  flush_literals();
  return std::move(out_);
}

}  // namespace ubot::parquet
