#pragma once
// Reads an MCAP file (https://mcap.dev/spec) for `ubot play`: its schemas and channels, and an
// index of every message in log-time order whose payload is read on demand. Any writer's file
// is read, not only ubot's: chunked or not, compressed with zstd, lz4 or not at all, with or
// without a summary section (the data section is walked, so a file without indexes, or whose
// summary is cut off, still plays up to its last whole record).
//
// Memory stays bounded whatever the file says: the index holds 32 bytes per message, payloads
// are read when asked for, a few decompressed chunks are cached, and sizes a file declares are
// checked against the file's own size and kMaxChunkBytes before anything is allocated.
//
// Bad input is a ubot::Error that names the file and the byte offset of the record at fault
// ("run.mcap: byte 1234: chunk: CRC 0x1a2b3c4d, expected 0x…").
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ubot {

struct McapSchema {
  std::uint16_t id = 0;
  std::string name;      // "sensor_msgs/msg/LaserScan"
  std::string encoding;  // "ros2msg", "jsonschema", ...
  std::string data;      // the schema text (bytes)
};

struct McapChannel {
  std::uint16_t id = 0;
  std::uint16_t schema_id = 0;  // 0: no schema
  std::string topic;
  std::string message_encoding;  // "cdr", "json", ...
  std::map<std::string, std::string> metadata;
};

// Where one message is: its time and channel, and where its payload lies.
struct McapMessageRef {
  std::uint64_t log_time = 0;
  std::uint64_t offset = 0;  // of the payload: in its chunk's records, or in the file
  std::uint32_t size = 0;    // payload bytes
  std::uint32_t chunk = 0;   // 1 + index into the chunks; 0: a message outside any chunk
  std::uint16_t channel = 0;
};

class McapReader {
 public:
  // Largest chunk (uncompressed) the reader accepts.
  static constexpr std::uint64_t kMaxChunkBytes = 1ull << 30;

  // Opens and indexes `path`; ubot::Error when it is not MCAP or is damaged before its first
  // message (a damaged tail after some messages is a warning: see warnings()).
  explicit McapReader(const std::string& path);
  // The same for a file's bytes in memory (tests and the fuzz target); `name` names it in
  // messages.
  McapReader(std::string name, std::vector<std::uint8_t> bytes);
  ~McapReader();
  McapReader(McapReader&&) noexcept;
  McapReader& operator=(McapReader&&) noexcept;

  const std::string& name() const;
  std::string profile() const;
  std::string library() const;
  // By id.
  const std::map<std::uint16_t, McapSchema>& schemas() const;
  const std::map<std::uint16_t, McapChannel>& channels() const;
  // The schema of a channel, or nullptr (no schema, or an id the file never defined).
  const McapSchema* schema_of(const McapChannel& channel) const;
  // Every message, sorted by log_time (messages of equal time in file order).
  const std::vector<McapMessageRef>& messages() const;
  // First and last log_time (0 and 0 for a file without messages).
  std::uint64_t start_time() const;
  std::uint64_t end_time() const;
  // What was wrong but did not stop reading (a tail cut off, a summary that does not match).
  const std::vector<std::string>& warnings() const;

  // A message's payload: valid until the next call of payload() (it may live in a cached
  // chunk). ubot::Error when the file changed or a chunk fails to decompress.
  std::span<const std::uint8_t> payload(const McapMessageRef& message);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace ubot
