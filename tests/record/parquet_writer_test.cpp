// The Parquet writer's byte-level pieces against bytes computed by hand from the specifications
// (Thrift's compact protocol, Parquet's RLE / bit-packed hybrid and data page v1). pyarrow reads
// the files `ubot run --frames-format parquet` writes in tests/python/test_outputs.py.
#include "ubot/record/parquet_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "ubot/core/error.h"
#include "ubot/record/parquet_encoding.h"

namespace ubot::parquet {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes bytes(const std::string& s) { return Bytes(s.begin(), s.end()); }

Bytes levels(int bit_width, std::initializer_list<std::pair<int, int>> runs) {
  LevelEncoder e(bit_width);
  for (const auto& [level, count] : runs) e.put(static_cast<std::uint8_t>(level), count);
  return bytes(e.finish());
}

TEST(ThriftCompact, VarintsAndZigzag) {
  std::string out;
  put_varint(out, 0);
  put_varint(out, 127);
  put_varint(out, 128);
  put_varint(out, 300);
  EXPECT_EQ(bytes(out), (Bytes{0x00, 0x7F, 0x80, 0x01, 0xAC, 0x02}));
  EXPECT_EQ(zigzag(0), 0u);
  EXPECT_EQ(zigzag(-1), 1u);
  EXPECT_EQ(zigzag(1), 2u);
  EXPECT_EQ(zigzag(-2), 3u);
  EXPECT_EQ(zigzag(2147483647), 4294967294u);
  EXPECT_EQ(zigzag(-2147483648LL), 4294967295u);
  EXPECT_EQ(zigzag(INT64_MIN), UINT64_MAX);
}

TEST(ThriftCompact, FieldHeadersUseDeltasUpTo15) {
  ThriftWriter t;
  t.i32(1, 5)              // delta 1, type 5: 0x15, zigzag(5) = 10
      .i64(16, -300)       // delta 15: 0xF6, zigzag(-300) = 599 = 0xD7 0x04
      .boolean(17, true)   // delta 1, type 1 (true): 0x11
      .boolean(18, false)  // 0x12
      .i32(40, 1)          // delta 22: long form, type byte 0x05 and zigzag(40) = 80 = 0x50
      .i32(3, -1)          // going back: long form again, id 3 -> 6
      .end_struct();
  EXPECT_EQ(bytes(t.bytes()), (Bytes{0x15, 0x0A, 0xF6, 0xD7, 0x04, 0x11, 0x12, 0x05, 0x50, 0x02,
                                     0x05, 0x06, 0x01, 0x00}));
}

TEST(ThriftCompact, StructsListsAndBinary) {
  ThriftWriter t;
  t.binary(4, "ab")                        // 0x48, length 2, 'a', 'b'
      .begin_struct(5)                     // 0x1C; the struct's ids count from 0 again
      .i32(1, 0)                           // 0x15 0x00
      .end_struct()                        // 0x00; back to the outer struct's last id, 5
      .begin_list(6, ThriftType::kI32, 2)  // 0x19, size 2 type 5: 0x25
      .element_i32(0)
      .element_i32(3)
      .begin_list(7, ThriftType::kStruct, 15)  // 0x19, 0xFC then size 15 as a varint
      .end_struct();
  EXPECT_EQ(bytes(t.bytes()), (Bytes{0x48, 0x02, 'a', 'b', 0x1C, 0x15, 0x00, 0x00, 0x19, 0x25, 0x00,
                                     0x06, 0x19, 0xFC, 0x0F, 0x00}));
  ThriftWriter nested;  // list elements that are structs: each counts its ids from 0
  nested.begin_list(2, ThriftType::kStruct, 2);
  nested.begin_element().i32(1, 1).end_struct();
  nested.begin_element().i32(1, 2).end_struct();
  nested.i64(3, 7).end_struct();  // delta 1 from the list's id 2
  EXPECT_EQ(bytes(nested.bytes()),
            (Bytes{0x29, 0x2C, 0x15, 0x02, 0x00, 0x15, 0x04, 0x00, 0x16, 0x0E, 0x00}));
}

TEST(LevelEncoding, BitWidths) {
  EXPECT_EQ(level_bit_width(0), 0);
  EXPECT_EQ(level_bit_width(1), 1);
  EXPECT_EQ(level_bit_width(2), 2);
  EXPECT_EQ(level_bit_width(3), 2);
  EXPECT_EQ(level_bit_width(4), 3);
}

TEST(LevelEncoding, LongRunsAreRle) {
  EXPECT_EQ(levels(1, {{1, 10}}), (Bytes{0x14, 0x01}));         // 10 << 1, value 1
  EXPECT_EQ(levels(1, {{1, 300}}), (Bytes{0xD8, 0x04, 0x01}));  // 600 as a varint
  EXPECT_EQ(levels(1, {{1, 4}, {1, 4}}), (Bytes{0x10, 0x01}));  // equal runs merge: 8
  EXPECT_EQ(levels(2, {{2, 8}, {0, 9}}), (Bytes{0x10, 0x02, 0x12, 0x00}));
}

TEST(LevelEncoding, ShortRunsAreBitPackedAndPaddedAtTheEndOnly) {
  // 1, 0, 1: one group of 8, LSB first: 0b00000101; header (1 << 1) | 1.
  EXPECT_EQ(levels(1, {{1, 1}, {0, 1}, {1, 1}}), (Bytes{0x03, 0x05}));
  // 1, 0 then thirteen 1s: the run gives 6 values to complete the first group (0b11111101);
  // the 7 left are too few for a run and take a second group, padded with one 0 (0b01111111).
  EXPECT_EQ(levels(1, {{1, 1}, {0, 1}, {1, 13}}), (Bytes{0x05, 0xFD, 0x7F}));
  // 0, 1 then twenty 0s: 6 complete the group (0b00000010), 14 remain as an RLE run.
  EXPECT_EQ(levels(1, {{0, 1}, {1, 1}, {0, 20}}), (Bytes{0x03, 0x02, 0x1C, 0x00}));
  // Bit width 2: 2, 0, 1 -> 2 | 0 << 2 | 1 << 4 = 0x12, then 0x00 (8 values x 2 bits).
  EXPECT_EQ(levels(2, {{2, 1}, {0, 1}, {1, 1}}), (Bytes{0x03, 0x12, 0x00}));
  EXPECT_TRUE(levels(1, {}).empty());
}

// The test's temporary folder, removed at the end.
class ParquetFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("ubot_parquet_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const char* name) const { return (dir_ / name).string(); }
  static Bytes read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(in), {});
  }
  std::filesystem::path dir_;
};

FileOptions options(Codec codec = Codec::kUncompressed) {
  return {.codec = codec, .created_by = "ubot test", .metadata = {{"k", "v"}}, .limits = {}};
}

// The data page of a required int32 column holding 1, 2, 3: no levels at all.
TEST_F(ParquetFile, RequiredColumnPage) {
  ParquetWorker worker(false);
  ParquetTable table(path("a.parquet"), {{"a", PhysicalType::kInt32}}, options(), worker);
  for (std::int32_t v : {1, 2, 3}) table[0].value(v);
  table.end_batch();
  table.close();
  worker.drain();
  const Bytes file = read(path("a.parquet"));
  const Bytes expected = {'P', 'A', 'R', '1',
                          // PageHeader: type 0, sizes 12 (zigzag 24), DataPageHeader {num_values
                          // 3, PLAIN, RLE, RLE}
                          0x15, 0x00, 0x15, 0x18, 0x15, 0x18, 0x2C, 0x15, 0x06, 0x15, 0x00, 0x15,
                          0x06, 0x15, 0x06, 0x00, 0x00,
                          // PLAIN int32 values
                          1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0};
  ASSERT_GT(file.size(), expected.size() + 8);
  EXPECT_EQ(Bytes(file.begin(), file.begin() + static_cast<long>(expected.size())), expected);
  EXPECT_EQ(Bytes(file.end() - 4, file.end()), (Bytes{'P', 'A', 'R', '1'}));
  const std::uint32_t footer = file[file.size() - 8] | file[file.size() - 7] << 8 |
                               file[file.size() - 6] << 16 | file[file.size() - 5] << 24;
  EXPECT_EQ(footer, file.size() - 8 - expected.size());  // the footer fills the rest
  EXPECT_FALSE(std::filesystem::exists(path("a.parquet") + ".part"));
}

// A nullable list<int32> column: [1, 2], null, [], [3]. Repetition 0 1 0 0 0; definition 2 2 0 1
// 2 (2 a value, 1 an empty list, 0 a null list).
TEST_F(ParquetFile, NullableListPageLevels) {
  ParquetWorker worker(false);
  ParquetTable table(path("l.parquet"), {{"l", PhysicalType::kInt32, true, true}}, options(),
                     worker);
  const std::int32_t a[] = {1, 2}, b[] = {3};
  table[0].list(std::span<const std::int32_t>(a));
  table[0].null();
  table[0].list(std::span<const std::int32_t>());
  table[0].list(std::span<const std::int32_t>(b));
  table.end_batch();
  table.close();
  worker.drain();
  const Bytes file = read(path("l.parquet"));
  const Bytes expected = {'P', 'A', 'R', '1',
                          // body 25 bytes (zigzag 50 = 0x32), 5 values (zigzag 10)
                          0x15, 0x00, 0x15, 0x32, 0x15, 0x32, 0x2C, 0x15, 0x0A, 0x15, 0x00, 0x15,
                          0x06, 0x15, 0x06, 0x00, 0x00,
                          // repetition: length 2, bit-packed group 0b00010 (bit width 1)
                          2, 0, 0, 0, 0x03, 0x02,
                          // definition: length 3, one group at bit width 2: 2 2 0 1 | 2
                          3, 0, 0, 0, 0x03, 0x4A, 0x02, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0};
  ASSERT_GT(file.size(), expected.size());
  EXPECT_EQ(Bytes(file.begin(), file.begin() + static_cast<long>(expected.size())), expected);
}

// Booleans are packed 8 to a byte, LSB first; a nullable scalar column has definition levels.
TEST_F(ParquetFile, BooleansArePackedAndNullsLeaveNoValue) {
  ParquetWorker worker(false);
  ParquetTable table(path("b.parquet"), {{"b", PhysicalType::kBoolean, true}}, options(), worker);
  table[0].value(true);
  table[0].null();
  for (bool v : {false, false, true, true, true, true, true, false, true}) table[0].value(v);
  table.end_batch();
  table.close();
  worker.drain();
  const Bytes file = read(path("b.parquet"));
  // definition 1 0 1 1 1 1 1 1 | 1 1 1: groups 0b11111101, 0b00000111; values (10 of them)
  // 1 0 0 1 1 1 1 1 | 0 1: 0b11111001, 0b00000010.
  const Bytes body = {3, 0, 0, 0, 0x05, 0xFD, 0x07, 0xF9, 0x02};
  ASSERT_GT(file.size(), 21 + body.size());
  EXPECT_EQ(Bytes(file.begin() + 21, file.begin() + 21 + static_cast<long>(body.size())), body);
}

// A zstd page is the zstd frame of the uncompressed body; a worker thread writes the same bytes
// as writing inline (the record is deterministic).
TEST_F(ParquetFile, ZstdPagesAndThreadsGiveTheSameContent) {
  const std::vector<Column> columns = {{"x", PhysicalType::kDouble},
                                       {"s", PhysicalType::kByteArray}};
  auto write = [&](const char* name, Codec codec, bool background) {
    ParquetWorker worker(background);
    FileOptions o = options(codec);
    o.limits.page_bytes = 56;  // many pages and row groups
    o.limits.row_group_rows = 50;
    ParquetTable table(path(name), columns, o, worker);
    for (int batch = 0; batch < 20; ++batch) {
      for (int i = 0; i < 7; ++i) {
        table[0].value(batch * 0.5 + i);
        table[1].value(std::string_view(i % 2 ? "Valid" : "WarmingUp"));
      }
      table.end_batch();
    }
    table.close();
    worker.drain();
    return read(path(name));
  };
  const Bytes inline_zstd = write("z1.parquet", Codec::kZstd, false);
  EXPECT_EQ(write("z2.parquet", Codec::kZstd, true), inline_zstd);
  EXPECT_NE(write("u.parquet", Codec::kUncompressed, true), inline_zstd);
  // The file's first page (column x, batch 0: 0 to 6) is the zstd frame of its 56 bytes, right
  // after the magic and the page header.
  const double first[7] = {0, 1, 2, 3, 4, 5, 6};
  Bytes frame(ZSTD_compressBound(sizeof first));
  frame.resize(ZSTD_compress(frame.data(), frame.size(), first, sizeof first, 1));
  const auto at = std::search(inline_zstd.begin(), inline_zstd.end(), frame.begin(), frame.end());
  ASSERT_NE(at, inline_zstd.end());
  EXPECT_LE(at - inline_zstd.begin(), 4 + 19);
}

TEST_F(ParquetFile, MisuseAndUnwritablePaths) {
  ParquetWorker worker(false);
  ParquetTable table(path("m.parquet"), {{"a", PhysicalType::kInt32}, {"b", PhysicalType::kInt32}},
                     options(), worker);
  EXPECT_THROW(table[0].null(), std::logic_error);  // not nullable
  table[0].value(std::int32_t{1});
  EXPECT_THROW(table.end_batch(), std::logic_error);  // b has no row
  EXPECT_THROW(
      ParquetTable(path("missing/x.parquet"), {{"a", PhysicalType::kInt32}}, options(), worker),
      Error);
}

}  // namespace
}  // namespace ubot::parquet
