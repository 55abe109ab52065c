#pragma once
// An MCAP file writer (https://mcap.dev/spec, major version 0), independent of what the messages
// are. The file it writes:
//   magic, Header(profile, library)
//   data section:  Schema and Channel records (each once, before its first message),
//                  Chunk records (Message records, compressed with zstd / lz4 or not; uncompressed
//                  CRC32) each followed by one Message Index record per channel it holds,
//                  Data End (CRC32 of every byte before it)
//   summary:       Schema, Channel, Chunk Index, Statistics records, grouped by opcode
//   summary offsets (one per group), Footer (summary CRC32), magic
// so that readers find channels, counts and chunks from the end of the file without scanning it.
// Messages must come in non-decreasing log_time. The bytes depend only on the calls made (no
// clock, no addresses): the same calls give the same file.
#include <cstdint>
#include <cstdio>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ubot/core/time.h"

namespace ubot {

enum class McapCompression { kNone, kLz4, kZstd };

// "none" | "lz4" | "zstd" (MCAP's names; "" for none); ubot::Error for anything else.
McapCompression parse_mcap_compression(std::string_view name);
// The chunk `compression` field: "", "lz4" or "zstd".
std::string_view mcap_compression_name(McapCompression compression);

struct McapWriterOptions {
  std::string profile = "";  // e.g. "ros2"
  std::string library = "";  // e.g. "ubot 0.1.0"
  McapCompression compression = McapCompression::kZstd;
  // A chunk is closed once its uncompressed records reach this size (bytes).
  std::size_t chunk_size = 1 << 20;
};

// What has been written so far.
struct McapStatistics {
  std::uint64_t messages = 0;
  std::uint64_t chunks = 0;
  std::uint64_t message_bytes = 0;       // sum of message payload sizes
  std::uint64_t uncompressed_bytes = 0;  // chunk records before compression
  std::uint64_t compressed_bytes = 0;    // chunk records as stored
  std::uint64_t file_bytes = 0;          // bytes written to the file
};

class McapWriter {
 public:
  // Creates `path` and writes the magic and the Header. ubot::Error when it cannot be written.
  McapWriter(const std::string& path, McapWriterOptions options);
  ~McapWriter();  // closes (errors are lost: call close() to see them)
  McapWriter(const McapWriter&) = delete;
  McapWriter& operator=(const McapWriter&) = delete;

  // Ids from 1 in call order. `encoding` is the schema encoding (e.g. "ros2msg").
  std::uint16_t add_schema(std::string_view name, std::string_view encoding, std::string_view data);
  // Ids from 0 in call order. `schema_id` 0: no schema.
  std::uint16_t add_channel(std::uint16_t schema_id, std::string_view topic,
                            std::string_view message_encoding,
                            const std::map<std::string, std::string>& metadata = {});
  // One message on a channel added before; `sequence` is the publisher's counter. ubot::Error on
  // a write failure or an unknown channel. Adding or writing after close() is an ubot::Error.
  void write(std::uint16_t channel_id, std::uint32_t sequence, Nanos log_time, Nanos publish_time,
             std::span<const std::uint8_t> data);
  // Writes the last chunk, the summary and the footer, and closes the file. ubot::Error on a
  // write failure. Idempotent.
  void close();

  const McapStatistics& statistics() const { return stats_; }

 private:
  struct ChunkIndex;
  void check_open() const;
  void flush_chunk();
  void compress(std::span<const std::uint8_t> in);
  void write_summary();
  // Appends to the file; in the data section also to its CRC.
  void emit(std::span<const std::uint8_t> bytes);

  std::string path_;
  McapWriterOptions options_;
  std::FILE* file_ = nullptr;
  std::uint64_t position_ = 0;
  std::uint32_t data_crc_ = 0;     // CRC32 of the data section so far (from the magic on)
  std::uint32_t summary_crc_ = 0;  // CRC32 from the start of the summary on
  bool in_data_section_ = true;

  std::vector<std::vector<std::uint8_t>> schema_records_;   // by id - 1
  std::vector<std::vector<std::uint8_t>> channel_records_;  // by id
  std::vector<std::uint64_t> channel_messages_;             // messages per channel
  Nanos first_time_ = 0, last_time_ = 0;

  std::vector<std::uint8_t> chunk_;  // uncompressed records of the open chunk
  Nanos chunk_start_ = 0, chunk_end_ = 0;
  // Per channel: (log_time, offset in chunk_) of its messages in the open chunk.
  std::map<std::uint16_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>> chunk_index_;
  std::vector<std::uint8_t> compressed_;  // reused
  std::vector<std::uint8_t> record_;      // reused
  std::vector<ChunkIndex> chunk_indexes_;
  void* zstd_ = nullptr;  // ZSTD_CCtx, reused between chunks

  McapStatistics stats_;
};

}  // namespace ubot
