// The MCAP container: record layout, CRCs, chunks and their message indexes, the summary and
// its offsets, checked byte by byte with a reader written from the specification
// (mcap_test_reader.h), for each compression.
#include "ubot/record/mcap_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "mcap_test_reader.h"
#include "ubot/core/error.h"

namespace ubot {
namespace {

using namespace mcap_test;

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("ubot_mcap_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

struct Written {
  std::uint16_t channel;
  std::uint32_t sequence;
  std::uint64_t time;
  Bytes data;
};

// Three channels on two schemas, `n` messages with non-decreasing times (several per time).
std::vector<Written> write_sample(McapWriter& w, int n) {
  const std::uint16_t a = w.add_schema("pkg/msg/A", "ros2msg", "int32 x\n");
  const std::uint16_t b = w.add_schema("pkg/msg/B", "ros2msg", "string s\n");
  EXPECT_EQ(a, 1);
  EXPECT_EQ(b, 2);
  std::vector<std::uint16_t> channels = {
      w.add_channel(a, "/a", "cdr", {{"k", "v"}, {"offered_qos_profiles", "- depth: 1"}}),
      w.add_channel(b, "/b", "cdr"), w.add_channel(a, "/c", "cdr")};
  EXPECT_EQ(channels, (std::vector<std::uint16_t>{0, 1, 2}));
  std::vector<Written> out;
  for (int i = 0; i < n; ++i) {
    const std::uint16_t ch = channels[(i * 7) % 3];
    Bytes data(static_cast<std::size_t>(1 + (i * 37) % 90));
    for (std::size_t j = 0; j < data.size(); ++j) data[j] = static_cast<std::uint8_t>(i + j % 5);
    const std::uint64_t t = 1'000'000ull * static_cast<std::uint64_t>(i / 4);
    out.push_back({ch, static_cast<std::uint32_t>(i), t, data});
    w.write(ch, static_cast<std::uint32_t>(i), static_cast<Nanos>(t), static_cast<Nanos>(t + 5),
            data);
  }
  return out;
}

TEST(McapWriter, EmptyFileHasHeaderDataEndStatisticsAndValidCrcs) {
  const std::string path = temp_path("empty.mcap");
  {
    McapWriter w(path, {.profile = "ros2", .library = "ubot test"});
    w.close();
  }
  const File f = parse(read_file(path));
  std::filesystem::remove(path);
  EXPECT_EQ(f.profile, "ros2");
  EXPECT_EQ(f.library, "ubot test");
  ASSERT_EQ(f.data.size(), 1u);
  const Record& end = f.data[0];
  EXPECT_EQ(end.op, 0x0F);
  EXPECT_EQ(Cursor(end.content).get<std::uint32_t>(), crc32_of(f.bytes, 0, end.offset));
  ASSERT_EQ(f.summary.size(), 1u);
  EXPECT_EQ(f.summary[0].op, 0x0B);  // Statistics, all zero
  EXPECT_EQ(f.summary_start, f.summary[0].offset);
  Cursor s(f.summary[0].content);
  EXPECT_EQ(s.get<std::uint64_t>(), 0u);  // messages
  ASSERT_EQ(f.summary_offsets.size(), 1u);
  EXPECT_EQ(f.summary_offset_start, f.summary_offsets[0].offset);
  EXPECT_EQ(f.summary_crc, crc32_of(f.bytes, f.summary_start, f.bytes.size() - 8 - 4));
}

class McapWriterCompression : public ::testing::TestWithParam<McapCompression> {};

TEST_P(McapWriterCompression, ChunksIndexesSummaryAndCrcsAgree) {
  const std::string path = temp_path("chunks.mcap");
  std::vector<Written> written;
  {
    McapWriter w(path, {.profile = "x-test", .compression = GetParam(), .chunk_size = 1500});
    written = write_sample(w, 300);
    w.close();
    EXPECT_EQ(w.statistics().messages, 300u);
    EXPECT_EQ(w.statistics().file_bytes, std::filesystem::file_size(path));
  }
  const File f = parse(read_file(path));
  std::filesystem::remove(path);
  const std::string compression(mcap_compression_name(GetParam()));

  // Data section: Schema and Channel records first, then chunks, each followed by one message
  // index per channel it holds; the Data End CRC covers everything before it.
  std::vector<Message> read;
  std::vector<Record> schemas, channels, chunks;
  std::map<std::size_t, std::map<std::uint16_t, std::size_t>> index_offsets;  // chunk -> ch -> at
  std::map<std::size_t, std::size_t> index_lengths;
  for (std::size_t i = 0; i < f.data.size(); ++i) {
    const Record& r = f.data[i];
    if (r.op == 0x03) schemas.push_back(r);
    if (r.op == 0x04) channels.push_back(r);
    if (r.op == 0x0F) {
      EXPECT_EQ(i, f.data.size() - 1);
      EXPECT_EQ(Cursor(r.content).get<std::uint32_t>(), crc32_of(f.bytes, 0, r.offset));
    }
    if (r.op != 0x06) continue;
    chunks.push_back(r);
    const Chunk c = chunk(r.content);
    EXPECT_EQ(c.compression, compression);
    EXPECT_EQ(c.crc, crc32_of(c.records, 0, c.records.size()));
    std::vector<Record> inside = records(c.records, 0, c.records.size());
    std::map<std::uint16_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>> expected_index;
    for (const Record& m : inside) {
      ASSERT_EQ(m.op, 0x05);
      read.push_back(message(m.content));
      expected_index[read.back().channel].emplace_back(read.back().log_time, m.offset);
      EXPECT_GE(read.back().log_time, c.start_time);
      EXPECT_LE(read.back().log_time, c.end_time);
    }
    EXPECT_EQ(c.start_time, message(inside.front().content).log_time);
    EXPECT_EQ(c.end_time, message(inside.back().content).log_time);
    std::size_t j = i + 1;
    for (; j < f.data.size() && f.data[j].op == 0x07; ++j) {
      Cursor mi(f.data[j].content);
      const auto ch = mi.get<std::uint16_t>();
      index_offsets[r.offset][ch] = f.data[j].offset;
      index_lengths[r.offset] += f.data[j].length;
      const auto n = mi.get<std::uint32_t>();
      std::vector<std::pair<std::uint64_t, std::uint64_t>> entries;
      for (std::uint32_t k = 0; k < n / 16; ++k) {
        const auto t = mi.get<std::uint64_t>();
        entries.emplace_back(t, mi.get<std::uint64_t>());
      }
      EXPECT_TRUE(mi.done());
      EXPECT_EQ(entries, expected_index[ch]) << "channel " << ch;
    }
    EXPECT_EQ(index_offsets[r.offset].size(), expected_index.size());
  }
  EXPECT_GT(chunks.size(), 5u);  // 1500-byte chunks
  ASSERT_EQ(read.size(), written.size());
  for (std::size_t i = 0; i < read.size(); ++i) {
    EXPECT_EQ(read[i].channel, written[i].channel);
    EXPECT_EQ(read[i].sequence, written[i].sequence);
    EXPECT_EQ(read[i].log_time, written[i].time);
    EXPECT_EQ(read[i].publish_time, written[i].time + 5);
    EXPECT_EQ(read[i].data, written[i].data);
  }
  ASSERT_EQ(schemas.size(), 2u);
  ASSERT_EQ(channels.size(), 3u);
  Cursor ch0(channels[0].content);
  EXPECT_EQ(ch0.get<std::uint16_t>(), 0);
  EXPECT_EQ(ch0.get<std::uint16_t>(), 1);
  EXPECT_EQ(ch0.string(), "/a");
  EXPECT_EQ(ch0.string(), "cdr");
  EXPECT_EQ(ch0.string_map(), (std::map<std::string, std::string>{
                                  {"k", "v"}, {"offered_qos_profiles", "- depth: 1"}}));
  EXPECT_TRUE(ch0.done());

  // Summary: grouped by opcode (schemas, channels, chunk indexes, statistics), each group found
  // through its Summary Offset, and a CRC over everything after the data section.
  EXPECT_EQ(f.summary_start, f.data.back().offset + f.data.back().length);
  EXPECT_EQ(f.summary_crc, crc32_of(f.bytes, f.summary_start, f.bytes.size() - 8 - 4));
  std::vector<std::uint8_t> ops;
  for (const Record& r : f.summary) {
    if (ops.empty() || ops.back() != r.op) ops.push_back(r.op);
  }
  EXPECT_EQ(ops, (std::vector<std::uint8_t>{0x03, 0x04, 0x08, 0x0B}));
  ASSERT_EQ(f.summary_offsets.size(), ops.size());
  for (std::size_t g = 0; g < ops.size(); ++g) {
    Cursor so(f.summary_offsets[g].content);
    EXPECT_EQ(so.get<std::uint8_t>(), ops[g]);
    const auto start = so.get<std::uint64_t>();
    const auto length = so.get<std::uint64_t>();
    std::uint64_t expected_length = 0, expected_start = 0;
    for (const Record& r : f.summary) {
      if (r.op != ops[g]) continue;
      if (expected_length == 0) expected_start = r.offset;
      expected_length += r.length;
    }
    EXPECT_EQ(start, expected_start);
    EXPECT_EQ(length, expected_length);
  }
  std::vector<Record> summary_schemas, summary_channels, chunk_indexes;
  for (const Record& r : f.summary) {
    if (r.op == 0x03) summary_schemas.push_back(r);
    if (r.op == 0x04) summary_channels.push_back(r);
    if (r.op == 0x08) chunk_indexes.push_back(r);
  }
  ASSERT_EQ(summary_schemas.size(), schemas.size());
  for (std::size_t i = 0; i < schemas.size(); ++i) {
    EXPECT_EQ(summary_schemas[i].content, schemas[i].content);
  }
  ASSERT_EQ(summary_channels.size(), channels.size());
  for (std::size_t i = 0; i < channels.size(); ++i) {
    EXPECT_EQ(summary_channels[i].content, channels[i].content);
  }
  ASSERT_EQ(chunk_indexes.size(), chunks.size());
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    Cursor ci(chunk_indexes[i].content);
    const Chunk c = chunk(chunks[i].content);
    EXPECT_EQ(ci.get<std::uint64_t>(), c.start_time);
    EXPECT_EQ(ci.get<std::uint64_t>(), c.end_time);
    EXPECT_EQ(ci.get<std::uint64_t>(), chunks[i].offset);
    EXPECT_EQ(ci.get<std::uint64_t>(), chunks[i].length);
    std::map<std::uint16_t, std::size_t> expected(index_offsets[chunks[i].offset].begin(),
                                                  index_offsets[chunks[i].offset].end());
    const auto offsets = ci.u64_map<std::uint16_t>();
    EXPECT_EQ(offsets.size(), expected.size());
    for (const auto& [ch, at] : expected) EXPECT_EQ(offsets.at(ch), at);
    EXPECT_EQ(ci.get<std::uint64_t>(), index_lengths[chunks[i].offset]);
    EXPECT_EQ(ci.string(), compression);
    EXPECT_EQ(ci.get<std::uint64_t>(), c.stored_size);
    EXPECT_EQ(ci.get<std::uint64_t>(), c.uncompressed_size);
    EXPECT_TRUE(ci.done());
  }
  Cursor st(f.summary.back().content);
  EXPECT_EQ(st.get<std::uint64_t>(), 300u);
  EXPECT_EQ(st.get<std::uint16_t>(), 2);              // schemas
  EXPECT_EQ(st.get<std::uint32_t>(), 3u);             // channels
  EXPECT_EQ(st.get<std::uint32_t>(), 0u);             // attachments
  EXPECT_EQ(st.get<std::uint32_t>(), 0u);             // metadata
  EXPECT_EQ(st.get<std::uint32_t>(), chunks.size());  // chunks
  EXPECT_EQ(st.get<std::uint64_t>(), 0u);
  EXPECT_EQ(st.get<std::uint64_t>(), written.back().time);
  std::map<std::uint16_t, std::uint64_t> counts;
  for (const Written& w : written) ++counts[w.channel];
  EXPECT_EQ(st.u64_map<std::uint16_t>(), counts);
  EXPECT_TRUE(st.done());
}

TEST_P(McapWriterCompression, SameCallsSameBytes) {
  const std::string a = temp_path("a.mcap"), b = temp_path("b.mcap");
  for (const std::string& path : {a, b}) {
    McapWriter w(path, {.profile = "ros2", .compression = GetParam(), .chunk_size = 4096});
    write_sample(w, 500);
    w.close();
  }
  EXPECT_EQ(read_file(a), read_file(b));
  std::filesystem::remove(a);
  std::filesystem::remove(b);
}

INSTANTIATE_TEST_SUITE_P(All, McapWriterCompression,
                         ::testing::Values(McapCompression::kNone, McapCompression::kLz4,
                                           McapCompression::kZstd),
                         [](const auto& info) {
                           const std::string_view n = mcap_compression_name(info.param);
                           return n.empty() ? std::string("none") : std::string(n);
                         });

TEST(McapWriter, CompressionShrinksRepetitiveChunks) {
  for (McapCompression c : {McapCompression::kLz4, McapCompression::kZstd}) {
    const std::string path = temp_path("shrink.mcap");
    McapWriter w(path, {.compression = c});
    const std::uint16_t ch = w.add_channel(0, "/x", "cdr");
    const Bytes data(1000, 7);
    for (int i = 0; i < 1000; ++i) w.write(ch, i, i, i, data);
    w.close();
    EXPECT_LT(w.statistics().compressed_bytes * 20, w.statistics().uncompressed_bytes);
    std::filesystem::remove(path);
  }
}

TEST(McapWriter, CompressionNames) {
  EXPECT_EQ(parse_mcap_compression("zstd"), McapCompression::kZstd);
  EXPECT_EQ(parse_mcap_compression("lz4"), McapCompression::kLz4);
  EXPECT_EQ(parse_mcap_compression("none"), McapCompression::kNone);
  EXPECT_EQ(parse_mcap_compression(""), McapCompression::kNone);
  EXPECT_THROW(parse_mcap_compression("gzip"), Error);
}

TEST(McapWriter, UnknownChannelsAndUseAfterCloseAreErrors) {
  const std::string path = temp_path("misuse.mcap");
  McapWriter w(path, {});
  const std::uint16_t ch = w.add_channel(0, "/x", "cdr");
  const Bytes data(4, 1);
  EXPECT_THROW(w.write(ch + 1, 0, 0, 0, data), Error);
  w.write(ch, 0, 0, 0, data);
  w.close();
  w.close();  // idempotent
  EXPECT_EQ(w.statistics().messages, 1u);
  EXPECT_THROW(w.write(ch, 1, 1, 1, data), Error);
  EXPECT_THROW(w.add_channel(0, "/y", "cdr"), Error);
  EXPECT_THROW(w.add_schema("a/msg/B", "ros2msg", ""), Error);
  EXPECT_NO_THROW(parse(read_file(path)));
  std::filesystem::remove(path);
}

TEST(McapWriter, UnwritablePathIsAnErrorNamingIt) {
  try {
    McapWriter w("/nonexistent-ubot-dir/run.mcap", {});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-ubot-dir/run.mcap"), std::string::npos);
  }
}

TEST(McapWriter, FullDiskIsAnErrorNamingTheFile) {
  // /dev/full accepts the open and fails every write with ENOSPC.
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  try {
    McapWriter w("/dev/full", {.compression = McapCompression::kNone, .chunk_size = 1 << 16});
    const std::uint16_t ch = w.add_channel(0, "/x", "cdr");
    const Bytes data(1000, 1);
    for (int i = 0; i < 200; ++i) w.write(ch, i, i, i, data);
    w.close();
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/dev/full: write failed"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ubot
