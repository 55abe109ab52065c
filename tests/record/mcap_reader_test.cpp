// McapReader reads back what ubot's writer and recorder write (each compression): the same
// schemas, channels, message count and payload bytes as the specification reader of the tests
// (mcap_test_reader.h) decodes, in log-time order; a hand-made file of another shape (messages
// outside chunks, definitions inside chunks, records the reader skips); and hostile bytes, which
// give a ubot::Error naming the byte, or a prefix of the messages with a warning, never a crash.
#include "ubot/record/mcap_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include "mcap_test_reader.h"
#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/record/mcap_recorder.h"
#include "ubot/record/mcap_writer.h"

namespace ubot {
namespace {

using namespace mcap_test;

std::string reader_temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("ubot_mcap_reader_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

void write_bytes(const std::string& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

std::string compression_label(McapCompression c) {
  const std::string_view n = mcap_compression_name(c);
  return n.empty() ? std::string("none") : std::string(n);
}

// What the specification reader finds in a file's data section.
struct Expected {
  std::string profile, library;
  std::map<std::uint16_t, McapSchema> schemas;
  std::map<std::uint16_t, McapChannel> channels;
  std::vector<Message> messages;  // file order
  std::vector<std::size_t> chunk_offsets;
  std::vector<std::size_t> chunk_ends;      // past each chunk record
  std::vector<std::size_t> chunk_messages;  // messages per chunk
  std::size_t data_end = 0;                 // offset of the Data End record
};

Expected expected_of(const Bytes& bytes) {
  const File f = parse(bytes);
  Expected e;
  e.profile = f.profile;
  e.library = f.library;
  auto define = [&](const Record& rec) {
    Cursor c(rec.content);
    if (rec.op == 0x03) {
      McapSchema s;
      s.id = c.get<std::uint16_t>();
      s.name = c.string();
      s.encoding = c.string();
      s.data = c.string();
      e.schemas[s.id] = s;
    } else if (rec.op == 0x04) {
      McapChannel ch;
      ch.id = c.get<std::uint16_t>();
      ch.schema_id = c.get<std::uint16_t>();
      ch.topic = c.string();
      ch.message_encoding = c.string();
      ch.metadata = c.string_map();
      e.channels[ch.id] = ch;
    }
  };
  for (const Record& rec : f.data) {
    define(rec);
    if (rec.op == 0x05) e.messages.push_back(message(rec.content));
    if (rec.op == 0x06) {
      const Chunk k = chunk(rec.content);
      e.chunk_offsets.push_back(rec.offset);
      e.chunk_ends.push_back(rec.offset + rec.length);
      std::size_t n = 0;
      for (const Record& r : records(k.records, 0, k.records.size())) {
        define(r);
        if (r.op == 0x05) {
          e.messages.push_back(message(r.content));
          ++n;
        }
      }
      e.chunk_messages.push_back(n);
    }
    if (rec.op == 0x0F) e.data_end = rec.offset;
  }
  return e;
}

std::string schema_text(const McapSchema& s) {
  return std::to_string(s.id) + "|" + s.name + "|" + s.encoding + "|" + s.data;
}
std::string channel_text(const McapChannel& c) {
  std::string t = std::to_string(c.id) + "|" + std::to_string(c.schema_id) + "|" + c.topic + "|" +
                  c.message_encoding;
  for (const auto& [k, v] : c.metadata) t += "|" + k + "=" + v;
  return t;
}

Bytes as_bytes(std::span<const std::uint8_t> s) { return Bytes(s.begin(), s.end()); }

// The reader gives what the specification reader decodes: definitions, and every message in
// file order (the writer's times never decrease, so log-time order is file order).
void expect_same(McapReader& r, const Expected& e) {
  EXPECT_EQ(r.profile(), e.profile);
  EXPECT_EQ(r.library(), e.library);
  ASSERT_EQ(r.schemas().size(), e.schemas.size());
  for (const auto& [id, s] : e.schemas) {
    ASSERT_TRUE(r.schemas().count(id)) << id;
    EXPECT_EQ(schema_text(r.schemas().at(id)), schema_text(s));
  }
  ASSERT_EQ(r.channels().size(), e.channels.size());
  for (const auto& [id, c] : e.channels) {
    ASSERT_TRUE(r.channels().count(id)) << id;
    const McapChannel& got = r.channels().at(id);
    EXPECT_EQ(channel_text(got), channel_text(c));
    const McapSchema* schema = r.schema_of(got);
    if (c.schema_id == 0) {
      EXPECT_EQ(schema, nullptr);
    } else {
      ASSERT_NE(schema, nullptr) << c.topic;
      EXPECT_EQ(schema->name, e.schemas.at(c.schema_id).name);
    }
  }
  const auto& refs = r.messages();
  ASSERT_EQ(refs.size(), e.messages.size());
  for (std::size_t i = 0; i < refs.size(); ++i) {
    EXPECT_EQ(refs[i].log_time, e.messages[i].log_time) << i;
    EXPECT_EQ(refs[i].channel, e.messages[i].channel) << i;
    EXPECT_EQ(refs[i].size, e.messages[i].data.size()) << i;
    EXPECT_EQ(as_bytes(r.payload(refs[i])), e.messages[i].data) << i;
  }
  // Backwards too: every chunk leaves the cache and comes back.
  for (std::size_t i = refs.size(); i-- > 0;) {
    ASSERT_EQ(as_bytes(r.payload(refs[i])), e.messages[i].data) << i;
  }
  EXPECT_TRUE(std::is_sorted(refs.begin(), refs.end(),
                             [](const auto& a, const auto& b) { return a.log_time < b.log_time; }));
  if (!refs.empty()) {
    EXPECT_EQ(r.start_time(), e.messages.front().log_time);
    EXPECT_EQ(r.end_time(), e.messages.back().log_time);
  }
}

class McapReaderCompression : public ::testing::TestWithParam<McapCompression> {};

// A run of tests/data/mcap_world.yaml recorded as `ubot run --mcap` records it (small chunks, so
// that there are many).
TEST_P(McapReaderCompression, ReadsARecordingAsTheSpecificationReaderDoes) {
  const std::string path = reader_temp_path("run_" + compression_label(GetParam()) + ".mcap");
  McapStatistics stats;
  {
    Simulation sim(load_world(UBOT_SOURCE_DIR "/tests/data/mcap_world.yaml"), {.threads = 1});
    McapRecorder recorder(path, sim, {.compression = GetParam(), .chunk_size = 32 << 10});
    recorder.record(sim);
    for (int k = 0; k < 60; ++k) {
      sim.step();
      recorder.record(sim);
    }
    recorder.close();
    stats = recorder.statistics();
  }
  const Bytes bytes = read_file(path);
  const Expected e = expected_of(bytes);
  EXPECT_GT(stats.chunks, 4u);  // more than payload() keeps decompressed
  EXPECT_EQ(e.messages.size(), stats.messages);

  McapReader from_file(path);
  EXPECT_EQ(from_file.name(), path);
  EXPECT_TRUE(from_file.warnings().empty()) << from_file.warnings().front();
  EXPECT_EQ(from_file.messages().size(), stats.messages);
  EXPECT_EQ(from_file.profile(), "ros2");
  EXPECT_EQ(from_file.library(), std::string("ubot ") + UBOT_VERSION);
  EXPECT_GE(from_file.channels().size(), 10u);
  EXPECT_EQ(from_file.schemas().size(), 6u);
  for (const auto& [id, c] : from_file.channels()) {
    EXPECT_EQ(c.message_encoding, "cdr");
    ASSERT_NE(from_file.schema_of(c), nullptr);
    EXPECT_EQ(from_file.schema_of(c)->encoding, "ros2msg");
  }
  expect_same(from_file, e);
  std::filesystem::remove(path);  // every payload is read again from the bytes below

  McapReader in_memory("run.mcap", bytes);
  EXPECT_EQ(in_memory.name(), "run.mcap");
  EXPECT_TRUE(in_memory.warnings().empty());
  expect_same(in_memory, e);
}

INSTANTIATE_TEST_SUITE_P(All, McapReaderCompression,
                         ::testing::Values(McapCompression::kNone, McapCompression::kLz4,
                                           McapCompression::kZstd),
                         [](const auto& info) { return compression_label(info.param); });

// ---- Hand-made files: MCAP as other writers may write it.

template <class T>
void put(Bytes& out, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    out.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(value) >> (8 * i)));
  }
}
void put_string(Bytes& out, std::string_view s) {
  put(out, static_cast<std::uint32_t>(s.size()));
  out.insert(out.end(), s.begin(), s.end());
}
void put_record(Bytes& out, std::uint8_t op, const Bytes& content) {
  out.push_back(op);
  put<std::uint64_t>(out, content.size());
  out.insert(out.end(), content.begin(), content.end());
}
Bytes schema_record(std::uint16_t id, std::string_view name, std::string_view data) {
  Bytes c;
  put(c, id);
  put_string(c, name);
  put_string(c, "ros2msg");
  put_string(c, data);
  return c;
}
Bytes channel_record(std::uint16_t id, std::uint16_t schema, std::string_view topic,
                     std::string_view encoding, std::string_view key = "") {
  Bytes c;
  put(c, id);
  put(c, schema);
  put_string(c, topic);
  put_string(c, encoding);
  Bytes map;
  if (!key.empty()) {
    put_string(map, key);
    put_string(map, "value");
  }
  put<std::uint32_t>(c, map.size());
  c.insert(c.end(), map.begin(), map.end());
  return c;
}
Bytes message_record(std::uint16_t channel, std::uint64_t time, std::string_view payload) {
  Bytes c;
  put(c, channel);
  put<std::uint32_t>(c, 7);
  put(c, time);
  put(c, time + 1);
  c.insert(c.end(), payload.begin(), payload.end());
  return c;
}
// An uncompressed chunk of `records`, with their CRC (or 0).
Bytes chunk_record(const Bytes& records, bool crc = true) {
  Bytes c;
  put<std::uint64_t>(c, 0);
  put<std::uint64_t>(c, 100);
  put<std::uint64_t>(c, records.size());
  put<std::uint32_t>(c, crc ? crc32_of(records, 0, records.size()) : 0);
  put_string(c, "");
  put<std::uint64_t>(c, records.size());
  c.insert(c.end(), records.begin(), records.end());
  return c;
}
Bytes start_file(std::string_view library = "hand") {
  Bytes b = {0x89, 'M', 'C', 'A', 'P', 0x30, '\r', '\n'};
  Bytes header;
  put_string(header, "x-test");
  put_string(header, library);
  put_record(b, 0x01, header);
  return b;
}
void end_file(Bytes& b) {
  Bytes data_end;
  put<std::uint32_t>(data_end, 0);
  put_record(b, 0x0F, data_end);
  Bytes footer;
  put<std::uint64_t>(footer, 0);  // no summary
  put<std::uint64_t>(footer, 0);
  put<std::uint32_t>(footer, 0);
  put_record(b, 0x02, footer);
  const Bytes magic = {0x89, 'M', 'C', 'A', 'P', 0x30, '\r', '\n'};
  b.insert(b.end(), magic.begin(), magic.end());
}

std::string payload_text(McapReader& r, const McapMessageRef& m) {
  const auto p = r.payload(m);
  return std::string(p.begin(), p.end());
}

TEST(McapReader, MessagesInAndOutOfChunksDefinitionsInChunksAndSkippedRecords) {
  Bytes b = start_file();
  put_record(b, 0x03, schema_record(1, "pkg/msg/A", "int32 x\n"));
  put_record(b, 0x04, channel_record(3, 1, "/a", "cdr", "k"));
  put_record(b, 0x04, channel_record(4, 0, "/b", "json"));
  put_record(b, 0x05, message_record(3, 30, "c"));
  put_record(b, 0x05, message_record(4, 10, "a"));
  put_record(b, 0x80, Bytes{'z', 'z', 'z'});  // unknown opcode
  put_record(b, 0x09, Bytes{1, 2, 3});        // attachment (malformed: never parsed)
  put_record(b, 0x0C, Bytes{4});              // metadata
  put_record(b, 0x07, Bytes{5, 6});           // message index
  put_record(b, 0x0B, Bytes{});               // statistics
  put_record(b, 0x03, schema_record(1, "pkg/msg/A", "int32 x\n"));  // the same again
  Bytes records;
  put_record(records, 0x03, schema_record(2, "pkg/msg/B", "string s\n"));
  put_record(records, 0x04, channel_record(5, 2, "/c", "cdr"));
  put_record(records, 0x05, message_record(5, 10, "b"));
  put_record(records, 0x81, Bytes{9, 9});
  put_record(records, 0x05, message_record(3, 20, "d"));
  put_record(b, 0x06, chunk_record(records));
  put_record(b, 0x06, chunk_record(Bytes{}));  // an empty chunk
  put_record(b, 0x05, message_record(3, 10, "e"));
  end_file(b);

  McapReader r("hand.mcap", b);
  EXPECT_TRUE(r.warnings().empty()) << r.warnings().front();
  EXPECT_EQ(r.profile(), "x-test");
  EXPECT_EQ(r.library(), "hand");
  ASSERT_EQ(r.schemas().size(), 2u);
  EXPECT_EQ(r.schemas().at(2).name, "pkg/msg/B");
  EXPECT_EQ(r.schemas().at(1).data, "int32 x\n");
  ASSERT_EQ(r.channels().size(), 3u);
  EXPECT_EQ(r.channels().at(3).metadata, (std::map<std::string, std::string>{{"k", "value"}}));
  EXPECT_EQ(r.channels().at(4).message_encoding, "json");
  EXPECT_EQ(r.schema_of(r.channels().at(4)), nullptr);
  ASSERT_NE(r.schema_of(r.channels().at(5)), nullptr);
  EXPECT_EQ(r.schema_of(r.channels().at(5))->name, "pkg/msg/B");
  // Log-time order, messages of equal time in file order.
  std::string order;
  std::vector<std::uint64_t> times;
  for (const McapMessageRef& m : r.messages()) {
    order += payload_text(r, m);
    times.push_back(m.log_time);
  }
  EXPECT_EQ(order, "abedc");
  EXPECT_EQ(times, (std::vector<std::uint64_t>{10, 10, 10, 20, 30}));
  EXPECT_EQ(r.messages()[0].chunk, 0u);  // "a": outside any chunk
  EXPECT_NE(r.messages()[1].chunk, 0u);  // "b": in the chunk
  EXPECT_EQ(r.messages()[1].channel, 5);
  EXPECT_EQ(r.start_time(), 10u);
  EXPECT_EQ(r.end_time(), 30u);

  // The same from a file.
  const std::string path = reader_temp_path("hand.mcap");
  write_bytes(path, b);
  McapReader f(path);
  std::filesystem::remove(path);
  ASSERT_EQ(f.messages().size(), 5u);
  EXPECT_EQ(payload_text(f, f.messages()[0]), "a");
  EXPECT_EQ(payload_text(f, f.messages()[1]), "b");
  EXPECT_EQ(payload_text(f, f.messages()[4]), "c");

  // Moved, it is the same reader.
  McapReader moved = std::move(f);
  EXPECT_EQ(moved.messages().size(), 5u);
  EXPECT_EQ(payload_text(moved, moved.messages()[2]), "e");
}

TEST(McapReader, AFileWithoutMessagesHasNoTimes) {
  const std::string path = reader_temp_path("empty.mcap");
  {
    McapWriter w(path, {.profile = "ros2", .library = "ubot test"});
    w.add_channel(w.add_schema("pkg/msg/A", "ros2msg", "int32 x\n"), "/a", "cdr");
    w.close();
  }
  McapReader r(path);
  std::filesystem::remove(path);
  EXPECT_TRUE(r.warnings().empty());
  EXPECT_EQ(r.library(), "ubot test");
  EXPECT_TRUE(r.messages().empty());
  EXPECT_EQ(r.channels().size(), 1u);
  EXPECT_EQ(r.start_time(), 0u);
  EXPECT_EQ(r.end_time(), 0u);
}

TEST(McapReader, MessagesOnChannelsNeverDefinedAreLeftOutWithAWarning) {
  Bytes b = start_file();
  put_record(b, 0x04, channel_record(1, 0, "/a", "json"));
  put_record(b, 0x05, message_record(1, 5, "x"));
  put_record(b, 0x05, message_record(9, 6, "y"));
  end_file(b);
  McapReader r("undefined.mcap", b);
  ASSERT_EQ(r.messages().size(), 1u);
  EXPECT_EQ(payload_text(r, r.messages()[0]), "x");
  ASSERT_EQ(r.warnings().size(), 1u);
  EXPECT_NE(r.warnings()[0].find("(9)"), std::string::npos) << r.warnings()[0];
}

// ---- Hostile input.

// A few KB written by ubot's writer: 3 channels, 60 messages in chunks of about 300 bytes.
Bytes small_file(McapCompression compression) {
  const std::string path = reader_temp_path("small_" + compression_label(compression) + ".mcap");
  {
    McapWriter w(
        path,
        {.profile = "ros2", .library = "ubot test", .compression = compression, .chunk_size = 300});
    const std::uint16_t a = w.add_schema("pkg/msg/A", "ros2msg", "int32 x\n");
    const std::uint16_t c0 = w.add_channel(a, "/a", "cdr", {{"k", "v"}});
    const std::uint16_t c1 = w.add_channel(a, "/b", "cdr");
    const std::uint16_t c2 = w.add_channel(0, "/c", "json");
    const std::uint16_t channels[] = {c0, c1, c2};
    for (int i = 0; i < 60; ++i) {
      Bytes data(static_cast<std::size_t>(1 + (i * 13) % 40));
      for (std::size_t j = 0; j < data.size(); ++j) data[j] = static_cast<std::uint8_t>(i * j);
      w.write(channels[i % 3], static_cast<std::uint32_t>(i), 1000 * (i / 2), 1000 * (i / 2), data);
    }
    w.close();
  }
  Bytes bytes = read_file(path);
  std::filesystem::remove(path);
  return bytes;
}

// The message of a ubot::Error, or "" when the bytes are read.
std::string error_of(const Bytes& bytes, const std::string& name = "bad.mcap") {
  try {
    McapReader r(name, bytes);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(McapReaderHostile, EmptyWrongMagicAndNoHeaderAreErrors) {
  EXPECT_EQ(error_of({}, "empty.mcap"), "empty.mcap: byte 0: not an MCAP file (no MCAP magic)");
  const std::string text = "hello, this is not MCAP at all";
  EXPECT_TRUE(contains(error_of(Bytes(text.begin(), text.end())), "bad.mcap: byte 0: "));
  Bytes b = small_file(McapCompression::kZstd);
  EXPECT_EQ(error_of(b), "");
  b[5] = '1';  // MCAP major version 1
  EXPECT_TRUE(contains(error_of(b), "byte 0: not an MCAP file"));
  // The magic, then a record that is not a Header.
  Bytes no_header = {0x89, 'M', 'C', 'A', 'P', 0x30, '\r', '\n'};
  put_record(no_header, 0x03, schema_record(1, "a", "b"));
  EXPECT_TRUE(contains(error_of(no_header), "bad.mcap: byte 8: the first record is a schema"));
  // A Header whose library string runs past the record.
  Bytes bad_header = {0x89, 'M', 'C', 'A', 'P', 0x30, '\r', '\n'};
  Bytes header;
  put_string(header, "ros2");
  put<std::uint32_t>(header, 1000);
  put_record(bad_header, 0x01, header);
  end_file(bad_header);
  EXPECT_TRUE(contains(error_of(bad_header), "bad.mcap: byte 8: header: library"));
  // A path that is not there.
  const std::string missing = reader_temp_path("missing.mcap");
  try {
    McapReader r(missing);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), missing + ": cannot be read")) << e.what();
  }
}

class McapReaderTruncated : public ::testing::TestWithParam<McapCompression> {};

// Every prefix of a file (a recording killed mid-write) is refused with an error naming a byte,
// or read up to its last whole chunk with a warning; cut just before the Data End record, every
// message is there.
TEST_P(McapReaderTruncated, EveryPrefixIsAnErrorOrAPrefixWithAWarning) {
  const Bytes full = small_file(GetParam());
  const Expected e = expected_of(full);
  ASSERT_GT(e.chunk_offsets.size(), 3u);
  McapReader whole("whole.mcap", full);
  ASSERT_TRUE(whole.warnings().empty());
  ASSERT_EQ(whole.messages().size(), 60u);
  std::vector<Bytes> payloads;
  for (const auto& m : whole.messages()) payloads.push_back(as_bytes(whole.payload(m)));

  std::size_t errors = 0, prefixes = 0;
  for (std::size_t cut = 0; cut < full.size(); ++cut) {
    const Bytes part(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(cut));
    try {
      McapReader r("cut.mcap", part);
      ++prefixes;
      EXPECT_FALSE(r.warnings().empty()) << cut;
      ASSERT_LE(r.messages().size(), whole.messages().size()) << cut;
      EXPECT_FALSE(r.messages().empty()) << cut;
      for (std::size_t i = 0; i < r.messages().size(); ++i) {
        EXPECT_EQ(r.messages()[i].log_time, whole.messages()[i].log_time) << cut;
        EXPECT_EQ(as_bytes(r.payload(r.messages()[i])), payloads[i]) << cut << " #" << i;
      }
      // Every whole chunk record before the cut is read.
      std::size_t complete = 0;
      for (std::size_t k = 0; k < e.chunk_offsets.size(); ++k) {
        if (e.chunk_ends[k] <= cut) complete += e.chunk_messages[k];
        if (e.chunk_offsets[k] < cut && cut < e.chunk_ends[k]) {
          // Cut inside chunk k: the warning names it.
          const std::string where = "cut.mcap: byte " + std::to_string(e.chunk_offsets[k]);
          EXPECT_TRUE(contains(r.warnings()[0], where)) << cut << ": " << r.warnings()[0];
        }
      }
      EXPECT_EQ(r.messages().size(), complete) << cut;
      if (cut >= e.data_end) {
        EXPECT_EQ(r.messages().size(), 60u) << cut;
      }
    } catch (const Error& err) {
      ++errors;
      EXPECT_TRUE(contains(err.what(), "cut.mcap: byte ")) << err.what();
      // Refused only while no whole chunk is there.
      EXPECT_LT(cut, e.chunk_ends[0]) << err.what();
    }
  }
  EXPECT_GT(errors, 0u);
  EXPECT_GT(prefixes, 0u);
  EXPECT_EQ(errors + prefixes, full.size());
}

INSTANTIATE_TEST_SUITE_P(All, McapReaderTruncated,
                         ::testing::Values(McapCompression::kNone, McapCompression::kLz4,
                                           McapCompression::kZstd),
                         [](const auto& info) { return compression_label(info.param); });

// A recording killed mid-write, read from its file: the chunks before the cut are played.
TEST(McapReaderHostile, AFileCutInItsLastChunkKeepsTheChunksBefore) {
  const Bytes full = small_file(McapCompression::kZstd);
  const Expected e = expected_of(full);
  const std::size_t last = e.chunk_offsets.back();
  const std::string path = reader_temp_path("killed.mcap");
  write_bytes(path, Bytes(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(last + 30)));
  McapReader r(path);
  std::filesystem::remove(path);
  EXPECT_EQ(r.messages().size(), 60u - e.chunk_messages.back());
  ASSERT_EQ(r.warnings().size(), 1u);
  EXPECT_TRUE(contains(r.warnings()[0], path + ": byte " + std::to_string(last) + ": chunk"))
      << r.warnings()[0];
  EXPECT_EQ(as_bytes(r.payload(r.messages().back())), e.messages[r.messages().size() - 1].data);
}

// Offsets of a chunk's fields, from the start of its record.
constexpr std::size_t kUncompressedSizeField = 9 + 16;
constexpr std::size_t kCrcField = 9 + 24;
constexpr std::size_t kCompressionField = 9 + 28;  // its length, then the name

TEST(McapReaderHostile, AFlippedChunkCrcIsAnErrorOrAWarningNamingTheChunk) {
  const Bytes full = small_file(McapCompression::kZstd);
  const Expected e = expected_of(full);
  // In the first chunk: nothing read yet, an error.
  Bytes b = full;
  const std::size_t first = e.chunk_offsets[0];
  b[first + kCrcField] ^= 0x40;
  const std::string err = error_of(b);
  EXPECT_TRUE(contains(err, "bad.mcap: byte " + std::to_string(first) + ": chunk: CRC 0x")) << err;
  // In the second: that chunk is skipped, the others are read.
  b = full;
  const std::size_t second = e.chunk_offsets[1];
  b[second + kCrcField + 3] ^= 0x01;
  McapReader r("bad.mcap", b);
  ASSERT_FALSE(r.warnings().empty());
  EXPECT_TRUE(
      contains(r.warnings()[0], "bad.mcap: byte " + std::to_string(second) + ": chunk: CRC"))
      << r.warnings()[0];
  EXPECT_EQ(r.messages().size(), 60u - e.chunk_messages[1]);
  // The summary's count no longer matches.
  EXPECT_TRUE(std::any_of(r.warnings().begin(), r.warnings().end(),
                          [](const std::string& w) { return contains(w, "statistics: 60"); }));
  std::vector<Message> kept = e.messages;
  kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(e.chunk_messages[0]),
             kept.begin() + static_cast<std::ptrdiff_t>(e.chunk_messages[0] + e.chunk_messages[1]));
  ASSERT_EQ(kept.size(), r.messages().size());
  for (std::size_t i = 0; i < kept.size(); ++i) {
    EXPECT_EQ(as_bytes(r.payload(r.messages()[i])), kept[i].data) << i;
  }
  // A flipped byte of the compressed records: zstd or the CRC refuses it.
  b = full;
  b[first + kCompressionField + 4 + 4 + 8 + 10] ^= 0x10;
  EXPECT_TRUE(contains(error_of(b), "bad.mcap: byte " + std::to_string(first) + ": chunk: "));
}

TEST(McapReaderHostile, AbsurdUncompressedSizesAreRefusedBeforeAllocating) {
  auto with_size = [](Bytes b, std::size_t chunk_at, std::uint64_t size) {
    for (int i = 0; i < 8; ++i) {
      b[chunk_at + kUncompressedSizeField + i] = static_cast<std::uint8_t>(size >> (8 * i));
    }
    return b;
  };
  for (const McapCompression c :
       {McapCompression::kZstd, McapCompression::kLz4, McapCompression::kNone}) {
    const Bytes full = small_file(c);
    const std::size_t first = expected_of(full).chunk_offsets[0];
    const std::string at = "bad.mcap: byte " + std::to_string(first) + ": chunk: ";
    for (const std::uint64_t size :
         {std::uint64_t{1} << 40, McapReader::kMaxChunkBytes + 1, ~std::uint64_t{0}}) {
      const std::string err = error_of(with_size(full, first, size));
      EXPECT_TRUE(contains(err, at + "uncompressed size " + std::to_string(size) +
                                    " bytes exceeds the reader's limit"))
          << err;
    }
    // Within the limit, but more than the stored bytes can hold.
    const std::string err = error_of(with_size(full, first, 500'000'000));
    if (c == McapCompression::kNone) {
      EXPECT_TRUE(contains(err, at + "uncompressed, yet")) << err;
    } else {
      EXPECT_TRUE(contains(err, at + "uncompressed size 500000000 is implausible")) << err;
    }
    // Plausible but wrong: decompression gives another size.
    const std::uint64_t uncompressed = [&] {
      Cursor cur(full.data() + first + kUncompressedSizeField, 8);
      return cur.get<std::uint64_t>();
    }();
    EXPECT_TRUE(contains(error_of(with_size(full, first, uncompressed + 1)), at))
        << compression_label(c);
  }
}

TEST(McapReaderHostile, UnknownCompressionIsAnErrorNamingIt) {
  Bytes b = small_file(McapCompression::kZstd);
  const std::size_t first = expected_of(b).chunk_offsets[0];
  ASSERT_EQ(std::string(b.begin() + first + kCompressionField + 4,
                        b.begin() + first + kCompressionField + 8),
            "zstd");
  b[first + kCompressionField + 5] = 'z';
  b[first + kCompressionField + 6] = '\n';
  EXPECT_EQ(error_of(b),
            "bad.mcap: byte " + std::to_string(first) + ": chunk: unknown compression 'zz\\x0ad'");
}

TEST(McapReaderHostile, RecordLengthsPastTheEndStopTheReading) {
  const Bytes full = small_file(McapCompression::kLz4);
  const Expected e = expected_of(full);
  auto with_length = [](Bytes b, std::size_t at, std::uint64_t length) {
    for (int i = 0; i < 8; ++i) b[at + 1 + i] = static_cast<std::uint8_t>(length >> (8 * i));
    return b;
  };
  const std::size_t first = e.chunk_offsets[0];
  EXPECT_TRUE(contains(error_of(with_length(full, first, ~std::uint64_t{0})),
                       "bad.mcap: byte " + std::to_string(first) + ": chunk (opcode 0x06): "));
  const std::size_t third = e.chunk_offsets[2];
  McapReader r("bad.mcap", with_length(full, third, full.size()));
  EXPECT_EQ(r.messages().size(), e.chunk_messages[0] + e.chunk_messages[1]);
  ASSERT_FALSE(r.warnings().empty());
  EXPECT_TRUE(contains(r.warnings()[0], "bad.mcap: byte " + std::to_string(third) + ": chunk"));
}

// A chunk whose records break off after a message (no CRC to catch it) is skipped whole: none of
// its messages is indexed, the records around it are.
TEST(McapReaderHostile, AChunkWithBrokenRecordsIsSkippedWhole) {
  Bytes b = start_file();
  put_record(b, 0x04, channel_record(1, 0, "/a", "json"));
  put_record(b, 0x05, message_record(1, 1, "a"));
  Bytes records;
  put_record(records, 0x05, message_record(1, 2, "b"));
  const std::size_t broken = records.size();
  records.push_back(0x05);
  put<std::uint64_t>(records, 100);
  records.insert(records.end(), {1, 2, 3});
  const std::size_t chunk_at = b.size();
  put_record(b, 0x06, chunk_record(records, false));
  put_record(b, 0x05, message_record(1, 3, "c"));
  end_file(b);
  McapReader r("broken.mcap", b);
  std::string payloads;
  for (const McapMessageRef& m : r.messages()) payloads += payload_text(r, m);
  EXPECT_EQ(payloads, "ac");
  ASSERT_EQ(r.warnings().size(), 1u);
  EXPECT_EQ(r.warnings()[0], "broken.mcap: byte " + std::to_string(chunk_at) +
                                 ": chunk: its message (opcode 0x05) at byte " +
                                 std::to_string(broken) +
                                 ": 100 bytes, only 3 left in the chunk; the record was skipped");
}

// Random damage (flipped, inserted and removed bytes, cuts) to small files of each compression:
// every outcome is a reader whose payloads all read, or a ubot::Error.
TEST(McapReaderHostile, RandomDamageGivesAReaderOrAnError) {
  std::mt19937 random(7);
  std::size_t read = 0, refused = 0, payload_errors = 0;
  for (const McapCompression c :
       {McapCompression::kZstd, McapCompression::kLz4, McapCompression::kNone}) {
    const Bytes full = small_file(c);
    for (int trial = 0; trial < 700; ++trial) {
      Bytes b = full;
      const int edits = 1 + static_cast<int>(random() % 4);
      for (int k = 0; k < edits && !b.empty(); ++k) {
        const std::size_t at = random() % b.size();
        switch (random() % 5) {
          case 0:
            b.erase(b.begin() + static_cast<std::ptrdiff_t>(at));
            break;
          case 1:
            b.insert(b.begin() + static_cast<std::ptrdiff_t>(at),
                     static_cast<std::uint8_t>(random()));
            break;
          case 2:
            b.resize(at);
            break;
          default:
            b[at] = static_cast<std::uint8_t>(random());
        }
      }
      try {
        McapReader r("fuzz.mcap", b);
        ++read;
        for (const McapMessageRef& m : r.messages()) {
          try {
            EXPECT_EQ(r.payload(m).size(), m.size);
          } catch (const Error&) {
            ++payload_errors;
          }
        }
      } catch (const Error& e) {
        ++refused;
        EXPECT_TRUE(contains(e.what(), "fuzz.mcap: ")) << e.what();
      }
    }
  }
  EXPECT_GT(read, 0u);
  EXPECT_GT(refused, 0u);
  // Whatever was indexed decodes: payload() fails only when the file changes.
  EXPECT_EQ(payload_errors, 0u);
}

TEST(McapReaderHostile, PayloadsOfAFileThatChangedAreAnError) {
  const Bytes full = small_file(McapCompression::kZstd);
  const std::string path = reader_temp_path("changed.mcap");
  write_bytes(path, full);
  McapReader r(path);
  ASSERT_EQ(r.messages().size(), 60u);
  EXPECT_FALSE(r.payload(r.messages().front()).empty());
  write_bytes(path,
              Bytes(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(full.size() / 2)));
  try {
    r.payload(r.messages().back());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), path + ": the file changed since it was opened")) << e.what();
  }
  std::filesystem::remove(path);
}

// The fuzz target's seeds are whole files the reader reads without a warning.
TEST(McapReader, FuzzSeedsAreCleanFiles) {
  std::size_t seeds = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(UBOT_SOURCE_DIR "/tests/fuzz/corpus/mcap")) {
    McapReader r(entry.path().string());
    EXPECT_TRUE(r.warnings().empty()) << entry.path();
    EXPECT_FALSE(r.messages().empty()) << entry.path();
    for (const McapMessageRef& m : r.messages()) EXPECT_EQ(r.payload(m).size(), m.size);
    ++seeds;
  }
  EXPECT_GE(seeds, 2u);
}

}  // namespace
}  // namespace ubot
