#pragma once
// The two byte-level encodings a Parquet file needs besides its values (docs/outputs.md, "frames
// as Parquet"): Apache Thrift's compact protocol, in which the page headers and the footer
// (FileMetaData) are written, and the RLE / bit-packed hybrid of the repetition and definition
// levels. Only what ubot's Parquet writer uses (src/record/parquet_writer.cpp): no maps, sets,
// doubles or reading. Apache Arrow's C++ library is not in Debian 12, so ubot writes these itself.
// Specifications: https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md
// and https://parquet.apache.org/docs/file-format/data-pages/encodings/ (RLE = 3).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ubot::parquet {

// Compact protocol type ids (as they appear in field and list headers).
enum class ThriftType : std::uint8_t {
  kBoolTrue = 1,
  kBoolFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

// ULEB128: 7 bits a byte, low first, high bit set on every byte but the last.
void put_varint(std::string& out, std::uint64_t v);
// Zigzag: small magnitudes of either sign become small unsigned numbers (0, -1, 1, -2 -> 0..3).
std::uint64_t zigzag(std::int64_t v);

// Writes one Thrift struct (and the structs and lists nested in it) in the compact protocol.
// Fields must be given with their ids; a field whose id is 1 to 15 above the previous one of the
// same struct takes one header byte, any other a type byte and its id as a zigzag varint.
class ThriftWriter {
 public:
  ThriftWriter& i32(std::int16_t id, std::int32_t v);
  ThriftWriter& i64(std::int16_t id, std::int64_t v);
  ThriftWriter& boolean(std::int16_t id, bool v);  // the value lives in the header's type
  ThriftWriter& binary(std::int16_t id, std::string_view v);
  // A struct field: the fields that follow are its own until end_struct().
  ThriftWriter& begin_struct(std::int16_t id);
  // A list field of `size` elements of type `element`; give them with element_*() or, for
  // structs, begin_element() ... end_struct().
  ThriftWriter& begin_list(std::int16_t id, ThriftType element, std::size_t size);
  ThriftWriter& begin_element();  // a struct element of the current list
  ThriftWriter& element_i32(std::int32_t v);
  ThriftWriter& element_binary(std::string_view v);
  // The stop byte of the current struct; at the outermost level, of the written struct itself.
  ThriftWriter& end_struct();

  const std::string& bytes() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  void field_header(std::int16_t id, ThriftType type);
  std::string out_;
  std::int16_t last_id_ = 0;         // the previous field id of the current struct
  std::vector<std::int16_t> stack_;  // the enclosing structs' previous field ids
};

// Bits a level takes: enough for 0..max_level (0 when max_level is 0: no levels are written).
int level_bit_width(int max_level);

// The RLE / bit-packed hybrid encoding of levels, fed as runs (`count` times `level`): runs of 8
// or more become RLE runs (a varint header `count << 1` and the value in one byte), shorter ones
// are gathered into bit-packed groups of 8 values (header `groups << 1 | 1`, then the values
// LSB first, bit_width bits each). A bit-packed section may only be padded at its very end, so a
// long run that follows one gives up its first values to complete the last group of 8.
class LevelEncoder {
 public:
  explicit LevelEncoder(int bit_width) : bit_width_(bit_width) {}
  void put(std::uint8_t level, std::uint64_t count);
  // The encoded levels (without the 4-byte length a v1 data page puts before them).
  std::string finish();

 private:
  void flush_run(bool last);
  void flush_literals();
  int bit_width_;
  std::string out_;
  std::vector<std::uint8_t> literals_;  // values waiting for a bit-packed section
  std::uint8_t run_level_ = 0;
  std::uint64_t run_count_ = 0;
};

}  // namespace ubot::parquet
