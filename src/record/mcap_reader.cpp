#include "ubot/record/mcap_reader.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <lz4frame.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <set>

#include "mcap_format.h"
#include "ubot/core/error.h"

namespace ubot {
namespace {

using namespace mcap;  // kMagic, the record opcodes

constexpr std::uint64_t kRecordHeader = 1 + 8;           // opcode, content length
constexpr std::uint64_t kMessageHeader = 2 + 4 + 8 + 8;  // channel, sequence, log and publish time
constexpr std::uint64_t kChunkFixed = 8 + 8 + 8 + 4;     // times, uncompressed size and CRC
constexpr std::uint64_t kMaxCompressionName = 255;
constexpr std::uint64_t kFooterRecord = kRecordHeader + 8 + 8 + 4;
// The most a compressed byte can stand for: a zstd RLE block (4 bytes) holds at most 128 KiB, an
// LZ4 match costs a byte per 255 bytes of length. A chunk declaring more is refused before its
// buffer is allocated.
constexpr std::uint64_t kZstdMaxRatio = 1u << 15;
constexpr std::uint64_t kLz4MaxRatio = 256;
constexpr std::uint64_t kZstdFrameHeaderMax = 18;  // ZSTD_FRAMEHEADERSIZE_MAX (static API)
// The decompressed chunks payload() keeps: at most this many, and (beyond the last one) at most
// this many bytes.
constexpr std::size_t kCacheChunks = 4;
constexpr std::uint64_t kCacheBytes = 256u << 20;
// Schemas and channels kept, in bytes (a compressed chunk can declare many).
constexpr std::uint64_t kMaxDefinitionBytes = 256u << 20;
constexpr std::size_t kMaxWarnings = 100;
constexpr std::size_t kWindow = 1u << 16;  // read-ahead of the sequential walk (file)

// A record that cannot be read. `stop`: the records after it cannot be trusted either.
struct Bad {
  std::string what;
  bool stop = false;
};

std::uint64_t le64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t{p[i]} << (8 * i);
  return v;
}

const char* record_name(std::uint8_t op) {
  switch (op) {
    case kHeader:
      return "header";
    case kFooter:
      return "footer";
    case kSchema:
      return "schema";
    case kChannel:
      return "channel";
    case kMessage:
      return "message";
    case kChunk:
      return "chunk";
    case kMessageIndex:
      return "message index";
    case kChunkIndex:
      return "chunk index";
    case kAttachment:
      return "attachment";
    case kAttachmentIndex:
      return "attachment index";
    case kStatistics:
      return "statistics";
    case kMetadata:
      return "metadata";
    case kMetadataIndex:
      return "metadata index";
    case kSummaryOffset:
      return "summary offset";
    case kDataEnd:
      return "data end";
    default:
      return "record";
  }
}

std::string record_label(std::uint8_t op) {
  return fmt::format("{} (opcode 0x{:02x})", record_name(op), op);
}

// A string from the file, printable in a message.
std::string escaped(std::string_view s) {
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f && c != '\'' && c != '\\') {
      out += c;
    } else {
      out += fmt::format("\\x{:02x}", u);
    }
  }
  return out;
}

// MCAP's little-endian fields over one record's content; Bad when a field runs past its end.
class Fields {
 public:
  Fields(std::span<const std::uint8_t> bytes, const char* record)
      : bytes_(bytes), record_(record) {}

  template <class T>
  T get(const char* field) {
    need(sizeof(T), field);
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) {
      v |= std::uint64_t{bytes_[at_ + i]} << (8 * i);
    }
    at_ += sizeof(T);
    return static_cast<T>(v);
  }
  std::span<const std::uint8_t> bytes(std::uint64_t n, const char* field) {
    need(n, field);
    const auto out = bytes_.subspan(at_, n);
    at_ += n;
    return out;
  }
  std::string string(const char* field) {
    const auto n = get<std::uint32_t>(field);
    const auto b = bytes(n, field);
    return std::string(reinterpret_cast<const char*>(b.data()), b.size());
  }
  std::map<std::string, std::string> string_map(const char* field) {
    const auto n = get<std::uint32_t>(field);
    Fields entries(bytes(n, field), record_);
    std::map<std::string, std::string> out;
    while (entries.left() > 0) {
      std::string key = entries.string(field);
      out[std::move(key)] = entries.string(field);
    }
    return out;
  }
  std::uint64_t at() const { return at_; }
  std::uint64_t left() const { return bytes_.size() - at_; }

 private:
  void need(std::uint64_t n, const char* field) const {
    if (n > left()) {
      throw Bad{
          fmt::format("{}: {}: {} bytes, only {} left in the record", record_, field, n, left())};
    }
  }
  std::span<const std::uint8_t> bytes_;
  const char* record_;
  std::uint64_t at_ = 0;
};

enum class Compression : std::uint8_t { kNone, kZstd, kLz4 };

struct ChunkInfo {
  std::uint64_t record_at = 0;  // of the Chunk record, for messages
  std::uint64_t data_at = 0;    // of its (compressed) records in the file
  std::uint64_t stored = 0;     // their size
  std::uint64_t size = 0;       // uncompressed
  std::uint32_t crc = 0;
  Compression compression = Compression::kNone;
};

// A chunk's records: owned, or (bytes in memory, no compression) in the file's bytes.
struct Block {
  std::unique_ptr<std::uint8_t[]> owned;
  const std::uint8_t* data = nullptr;
  std::uint64_t size = 0;
};

// An uninitialised byte buffer that only grows (pages it never touches cost nothing).
class Scratch {
 public:
  std::uint8_t* reserve(std::uint64_t n) {
    if (n > capacity_ || !data_) {
      data_.reset(new std::uint8_t[std::max<std::uint64_t>(n, 1)]);
      capacity_ = std::max<std::uint64_t>(n, 1);
    }
    return data_.get();
  }

 private:
  std::unique_ptr<std::uint8_t[]> data_;
  std::uint64_t capacity_ = 0;
};

// The bytes of the file: in memory, or read with pread.
class Source {
 public:
  Source(const std::string& name, std::vector<std::uint8_t> bytes)
      : name_(name), bytes_(std::move(bytes)), size_(bytes_.size()), in_memory_(true) {}
  explicit Source(const std::string& path) : name_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw Error(fmt::format("{}: cannot be read: {}", path, std::strerror(errno)));
    struct stat st {};
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd_);
      throw Error(fmt::format("{}: cannot be read: not a regular file", path));
    }
    size_ = static_cast<std::uint64_t>(st.st_size);
  }
  ~Source() {
    if (fd_ >= 0) ::close(fd_);
  }
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;

  std::uint64_t size() const { return size_; }
  bool in_memory() const { return in_memory_; }
  const std::uint8_t* memory(std::uint64_t offset) const { return bytes_.data() + offset; }

  // The `n` bytes at `offset` (inside the file): valid until the next view().
  std::span<const std::uint8_t> view(std::uint64_t offset, std::uint64_t n) {
    if (in_memory_) return {bytes_.data() + offset, n};
    if (n > kWindow) {
      big_.resize(n);
      read(offset, big_.data(), n);
      return big_;
    }
    if (offset < window_at_ || offset + n > window_at_ + window_.size()) {
      window_.resize(std::min<std::uint64_t>(kWindow, size_ - offset));
      read(offset, window_.data(), window_.size());
      window_at_ = offset;
    }
    return {window_.data() + (offset - window_at_), n};
  }

  // Reads `n` bytes at `offset` into `out` (file); ubot::Error when they are not all there.
  void read(std::uint64_t offset, std::uint8_t* out, std::uint64_t n) {
    if (in_memory_) {
      std::memcpy(out, bytes_.data() + offset, n);
      return;
    }
    while (n > 0) {
      const std::size_t want = std::min<std::uint64_t>(n, 1u << 30);
      const ssize_t got = ::pread(fd_, out, want, static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) {
        throw Error(
            fmt::format("{}: byte {}: read failed: {}", name_, offset, std::strerror(errno)));
      }
      if (got == 0) {
        throw Error(fmt::format("{}: byte {}: the file ends there (it changed since it was opened)",
                                name_, offset));
      }
      out += got;
      offset += static_cast<std::uint64_t>(got);
      n -= static_cast<std::uint64_t>(got);
    }
  }

  // ubot::Error when the file no longer has the size it had when opened.
  void check_unchanged() const {
    if (in_memory_) return;
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
      throw Error(fmt::format("{}: cannot be read: {}", name_, std::strerror(errno)));
    }
    if (static_cast<std::uint64_t>(st.st_size) != size_) {
      throw Error(fmt::format("{}: the file changed since it was opened ({} bytes, now {})", name_,
                              size_, st.st_size));
    }
  }

 private:
  std::string name_;
  std::vector<std::uint8_t> bytes_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  bool in_memory_ = false;
  std::vector<std::uint8_t> window_;
  std::uint64_t window_at_ = 0;
  std::vector<std::uint8_t> big_;
};

}  // namespace

struct McapReader::Impl {
  Impl(std::string name_, std::vector<std::uint8_t> bytes)
      : name(std::move(name_)), source(name, std::move(bytes)) {}
  explicit Impl(const std::string& path) : name(path), source(path) {}
  ~Impl() { ZSTD_freeDCtx(zstd); }

  std::string name;
  Source source;
  std::string profile, library;
  std::map<std::uint16_t, McapSchema> schemas;
  std::map<std::uint16_t, McapChannel> channels;
  std::vector<McapMessageRef> messages;
  std::vector<std::string> warnings;
  std::vector<ChunkInfo> chunks;

  struct Cached {
    std::uint32_t chunk = 0;
    std::uint64_t used = 0;
    Block block;
  };
  std::vector<Cached> cache;
  std::uint64_t clock = 0;
  Scratch stored;                    // a chunk's compressed records (file)
  std::vector<std::uint8_t> single;  // a payload outside chunks (file)
  ZSTD_DCtx* zstd = nullptr;

  std::uint64_t max_messages = 0;
  std::uint64_t definition_bytes = 0;
  std::uint64_t record_at = 0;  // of the record being read, for warnings

  void walk();
  void header();
  void check_summary(std::uint64_t data_end);
  void index_chunk(std::uint64_t at, std::uint64_t length);
  void index_records(const Block& block, std::uint32_t chunk);
  void add_message(std::span<const std::uint8_t> head, std::uint64_t length,
                   std::uint64_t payload_at, std::uint32_t chunk);
  void add_schema(std::span<const std::uint8_t> content);
  void add_channel(std::span<const std::uint8_t> content);
  Block decode(const ChunkInfo& chunk);
  const Block& cached(std::uint32_t chunk);

  std::string at(std::uint64_t offset, std::string_view what) const {
    return fmt::format("{}: byte {}: {}", name, offset, what);
  }
  void warn(std::string message) {
    if (warnings.size() < kMaxWarnings) {
      warnings.push_back(std::move(message));
    } else if (warnings.size() == kMaxWarnings) {
      warnings.push_back(fmt::format("{}: further warnings left out", name));
    }
  }
  // A record that cannot be read: the file is refused while no message has been read, else
  // the damage is a warning.
  void damaged(std::uint64_t offset, std::string_view what, std::string_view then) {
    if (messages.empty()) throw Error(at(offset, what));
    warn(fmt::format("{}; {}", at(offset, what), then));
  }
};

void McapReader::Impl::header() {
  const std::uint64_t size = source.size();
  if (size < sizeof(kMagic) ||
      std::memcmp(source.view(0, sizeof(kMagic)).data(), kMagic, sizeof(kMagic)) != 0) {
    throw Error(at(0, "not an MCAP file (no MCAP magic)"));
  }
  const std::uint64_t start = sizeof(kMagic);
  if (size - start < kRecordHeader) throw Error(at(start, "no Header record: the file ends"));
  const auto head = source.view(start, kRecordHeader);
  const std::uint8_t op = head[0];
  const std::uint64_t length = le64(head.data() + 1);
  if (op != kHeader) {
    throw Error(at(start, fmt::format("the first record is a {}, not a Header", record_label(op))));
  }
  if (length > size - start - kRecordHeader) {
    throw Error(at(start, fmt::format("header: {} bytes, only {} left in the file", length,
                                      size - start - kRecordHeader)));
  }
  if (length > kMaxChunkBytes) {
    throw Error(at(
        start, fmt::format("header: {} bytes (the reader's limit: {})", length, kMaxChunkBytes)));
  }
  try {
    Fields f(source.view(start + kRecordHeader, length), "header");
    profile = f.string("profile");
    library = f.string("library");
  } catch (const Bad& bad) {
    throw Error(at(start, bad.what));
  }
}

void McapReader::Impl::add_schema(std::span<const std::uint8_t> content) {
  Fields f(content, "schema");
  McapSchema s;
  s.id = f.get<std::uint16_t>("id");
  s.name = f.string("name");
  s.encoding = f.string("encoding");
  const auto data = f.bytes(f.get<std::uint32_t>("data"), "data");
  s.data.assign(reinterpret_cast<const char*>(data.data()), data.size());
  if (s.id == 0) {
    warn(at(record_at, fmt::format("schema '{}' has the reserved id 0: ignored", escaped(s.name))));
    return;
  }
  const auto found = schemas.find(s.id);
  if (found != schemas.end()) {
    const McapSchema& old = found->second;
    if (old.name != s.name || old.encoding != s.encoding || old.data != s.data) {
      warn(at(record_at, fmt::format("schema {} defined again differently: the first definition "
                                     "is kept",
                                     s.id)));
    }
    return;
  }
  definition_bytes += content.size();
  if (definition_bytes > kMaxDefinitionBytes) {
    throw Bad{
        fmt::format("schema: more than {} bytes of schemas and channels", kMaxDefinitionBytes),
        true};
  }
  schemas.emplace(s.id, std::move(s));
}

void McapReader::Impl::add_channel(std::span<const std::uint8_t> content) {
  Fields f(content, "channel");
  McapChannel c;
  c.id = f.get<std::uint16_t>("id");
  c.schema_id = f.get<std::uint16_t>("schema_id");
  c.topic = f.string("topic");
  c.message_encoding = f.string("message_encoding");
  c.metadata = f.string_map("metadata");
  const auto found = channels.find(c.id);
  if (found != channels.end()) {
    const McapChannel& old = found->second;
    if (old.schema_id != c.schema_id || old.topic != c.topic ||
        old.message_encoding != c.message_encoding || old.metadata != c.metadata) {
      warn(at(record_at, fmt::format("channel {} defined again differently: the first "
                                     "definition is kept",
                                     c.id)));
    }
    return;
  }
  definition_bytes += content.size();
  if (definition_bytes > kMaxDefinitionBytes) {
    throw Bad{
        fmt::format("channel: more than {} bytes of schemas and channels", kMaxDefinitionBytes),
        true};
  }
  channels.emplace(c.id, std::move(c));
}

// `head`: the first bytes of the record's content (at least its header when it has one).
void McapReader::Impl::add_message(std::span<const std::uint8_t> head, std::uint64_t length,
                                   std::uint64_t payload_at, std::uint32_t chunk) {
  if (length < kMessageHeader) {
    throw Bad{
        fmt::format("message: {} bytes, less than its {}-byte header", length, kMessageHeader)};
  }
  Fields f(head, "message");
  McapMessageRef m;
  m.channel = f.get<std::uint16_t>("channel_id");
  f.get<std::uint32_t>("sequence");
  m.log_time = f.get<std::uint64_t>("log_time");
  f.get<std::uint64_t>("publish_time");
  const std::uint64_t size = length - kMessageHeader;
  if (size > kMaxChunkBytes) {
    throw Bad{fmt::format("message: a payload of {} bytes (the reader's limit: {})", size,
                          kMaxChunkBytes)};
  }
  if (messages.size() >= max_messages) {
    throw Bad{fmt::format("more than {} messages, implausible for a file of {} bytes", max_messages,
                          source.size()),
              true};
  }
  m.offset = payload_at;
  m.size = static_cast<std::uint32_t>(size);
  m.chunk = chunk;
  messages.push_back(m);
}

Block McapReader::Impl::decode(const ChunkInfo& c) {
  Block block;
  block.size = c.size;
  if (source.in_memory() && c.compression == Compression::kNone) {
    block.data = source.memory(c.data_at);
  } else {
    block.owned.reset(new std::uint8_t[std::max<std::uint64_t>(c.size, 1)]);
    block.data = block.owned.get();
    std::uint8_t* out = block.owned.get();
    if (c.compression == Compression::kNone) {
      source.read(c.data_at, out, c.stored);
    } else {
      const std::uint8_t* in = nullptr;
      if (source.in_memory()) {
        in = source.memory(c.data_at);
      } else {
        std::uint8_t* buffer = stored.reserve(c.stored);
        source.read(c.data_at, buffer, c.stored);
        in = buffer;
      }
      if (c.compression == Compression::kZstd) {
        if (!zstd) zstd = ZSTD_createDCtx();
        if (!zstd) throw Bad{"chunk: zstd: out of memory"};
        const std::size_t got = ZSTD_decompressDCtx(zstd, out, c.size, in, c.stored);
        if (ZSTD_isError(got)) throw Bad{fmt::format("chunk: zstd: {}", ZSTD_getErrorName(got))};
        if (got != c.size) {
          throw Bad{fmt::format("chunk: zstd gives {} bytes, the chunk says {}", got, c.size)};
        }
      } else {
        LZ4F_dctx* dctx = nullptr;
        if (LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION))) {
          throw Bad{"chunk: lz4: out of memory"};
        }
        const std::unique_ptr<LZ4F_dctx, LZ4F_errorCode_t (*)(LZ4F_dctx*)> owner(
            dctx, LZ4F_freeDecompressionContext);
        std::uint64_t in_at = 0, out_at = 0;
        std::size_t hint = 1;
        while (in_at < c.stored) {
          std::size_t out_n = c.size - out_at, in_n = c.stored - in_at;
          hint = LZ4F_decompress(dctx, out + out_at, &out_n, in + in_at, &in_n, nullptr);
          if (LZ4F_isError(hint)) {
            throw Bad{fmt::format("chunk: lz4: {}", LZ4F_getErrorName(hint))};
          }
          if (in_n == 0 && out_n == 0) {
            throw Bad{
                fmt::format("chunk: the lz4 frame holds more than the chunk's {} bytes", c.size)};
          }
          in_at += in_n;
          out_at += out_n;
        }
        if (hint != 0) throw Bad{"chunk: the lz4 frame is cut off"};
        if (out_at != c.size) {
          throw Bad{fmt::format("chunk: lz4 gives {} bytes, the chunk says {}", out_at, c.size)};
        }
      }
    }
  }
  if (c.crc != 0) {
    // zlib takes at most 4 GiB at a time; a chunk is at most kMaxChunkBytes.
    const auto crc =
        static_cast<std::uint32_t>(::crc32(0, block.data, static_cast<uInt>(block.size)));
    if (crc != c.crc) {
      throw Bad{fmt::format("chunk: CRC 0x{:08x}, expected 0x{:08x}", crc, c.crc)};
    }
  }
  return block;
}

void McapReader::Impl::index_records(const Block& block, std::uint32_t chunk) {
  std::uint64_t at = 0;
  while (at < block.size) {
    const std::uint64_t left = block.size - at;
    if (left < kRecordHeader) {
      throw Bad{fmt::format("chunk: its records end inside a record header (byte {} of {})", at,
                            block.size)};
    }
    const std::uint8_t op = block.data[at];
    const std::uint64_t length = le64(block.data + at + 1);
    if (length > left - kRecordHeader) {
      throw Bad{fmt::format("chunk: its {} at byte {}: {} bytes, only {} left in the chunk",
                            record_label(op), at, length, left - kRecordHeader)};
    }
    const std::span<const std::uint8_t> content(block.data + at + kRecordHeader, length);
    try {
      switch (op) {
        case kMessage:
          add_message(content, length, at + kRecordHeader + kMessageHeader, chunk);
          break;
        case kSchema:
          add_schema(content);
          break;
        case kChannel:
          add_channel(content);
          break;
        default:
          break;
      }
    } catch (const Bad& bad) {
      throw Bad{fmt::format("chunk: its record at byte {}: {}", at, bad.what), bad.stop};
    }
    at += kRecordHeader + length;
  }
}

void McapReader::Impl::index_chunk(std::uint64_t at, std::uint64_t length) {
  const std::uint64_t content_at = at + kRecordHeader;
  ChunkInfo c;
  c.record_at = at;
  std::string compression;
  std::uint64_t fixed = 0;
  {
    Fields f(source.view(content_at, std::min<std::uint64_t>(
                                         length, kChunkFixed + 4 + kMaxCompressionName + 8)),
             "chunk");
    f.get<std::uint64_t>("message_start_time");
    f.get<std::uint64_t>("message_end_time");
    c.size = f.get<std::uint64_t>("uncompressed_size");
    c.crc = f.get<std::uint32_t>("uncompressed_crc");
    const auto name_length = f.get<std::uint32_t>("compression");
    if (name_length > kMaxCompressionName) {
      throw Bad{fmt::format("chunk: a compression name of {} bytes", name_length)};
    }
    const auto name = f.bytes(name_length, "compression");
    compression.assign(reinterpret_cast<const char*>(name.data()), name.size());
    c.stored = f.get<std::uint64_t>("records");
    fixed = f.at();
  }
  if (c.stored > length - fixed) {
    throw Bad{fmt::format("chunk: records: {} bytes, only {} left in the record", c.stored,
                          length - fixed)};
  }
  c.data_at = content_at + fixed;
  if (c.size > kMaxChunkBytes) {
    throw Bad{fmt::format("chunk: uncompressed size {} bytes exceeds the reader's limit of {}",
                          c.size, kMaxChunkBytes)};
  }
  if (compression.empty()) {
    c.compression = Compression::kNone;
    if (c.stored != c.size) {
      throw Bad{
          fmt::format("chunk: uncompressed, yet {} bytes of records and an "
                      "uncompressed size of {}",
                      c.stored, c.size)};
    }
  } else if (compression == "zstd" || compression == "lz4") {
    const bool zstd_chunk = compression == "zstd";
    c.compression = zstd_chunk ? Compression::kZstd : Compression::kLz4;
    const std::uint64_t ratio = zstd_chunk ? kZstdMaxRatio : kLz4MaxRatio;
    if (c.size > c.stored * ratio + 64) {
      throw Bad{fmt::format("chunk: uncompressed size {} is implausible for {} bytes of {}", c.size,
                            c.stored, compression)};
    }
    if (c.stored > c.size + c.size / 8 + 4096) {
      throw Bad{fmt::format("chunk: {} bytes of {} for an uncompressed size of {} is implausible",
                            c.stored, compression, c.size)};
    }
    if (zstd_chunk) {
      const auto frame =
          source.view(c.data_at, std::min<std::uint64_t>(c.stored, kZstdFrameHeaderMax));
      const unsigned long long declared = ZSTD_getFrameContentSize(frame.data(), frame.size());
      if (declared == ZSTD_CONTENTSIZE_ERROR) throw Bad{"chunk: its records are not a zstd frame"};
      if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared > c.size) {
        throw Bad{fmt::format("chunk: its zstd frame holds {} bytes, the chunk says {}", declared,
                              c.size)};
      }
    }
  } else {
    throw Bad{fmt::format("chunk: unknown compression '{}'", escaped(compression))};
  }
  if (chunks.size() >= std::numeric_limits<std::uint32_t>::max() - 1) {
    throw Bad{"chunk: too many chunks", true};
  }
  const Block block = decode(c);
  const std::size_t before = messages.size();
  index_records(block, static_cast<std::uint32_t>(chunks.size() + 1));
  if (messages.size() > before) chunks.push_back(c);
}

void McapReader::Impl::check_summary(std::uint64_t data_end) {
  const std::uint64_t size = source.size();
  if (size < data_end + kFooterRecord + sizeof(kMagic)) {
    warn(at(data_end, "no footer after the Data End record (the end of the file is cut off)"));
    return;
  }
  const std::uint64_t footer_at = size - sizeof(kMagic) - kFooterRecord;
  std::uint64_t summary_start = 0, summary_offset_start = 0;
  {
    const auto tail = source.view(footer_at, kFooterRecord + sizeof(kMagic));
    if (std::memcmp(tail.data() + kFooterRecord, kMagic, sizeof(kMagic)) != 0 ||
        tail[0] != kFooter || le64(tail.data() + 1) != kFooterRecord - kRecordHeader) {
      warn(at(footer_at, "no footer and MCAP magic at the end of the file (cut off?)"));
      return;
    }
    summary_start = le64(tail.data() + kRecordHeader);
    summary_offset_start = le64(tail.data() + kRecordHeader + 8);
  }
  if (summary_start == 0) return;  // no summary
  const std::uint64_t end = summary_offset_start != 0 ? summary_offset_start : footer_at;
  if (summary_start < data_end || summary_start > end || end > footer_at) {
    warn(at(footer_at, fmt::format("footer: a summary from byte {} to {} outside the summary "
                                   "section (bytes {} to {})",
                                   summary_start, end, data_end, footer_at)));
    return;
  }
  for (std::uint64_t r = summary_start; r < end;) {
    if (end - r < kRecordHeader) {
      warn(at(r, "summary: a record header runs past the summary's end"));
      return;
    }
    const auto head = source.view(r, kRecordHeader);
    const std::uint8_t op = head[0];
    const std::uint64_t length = le64(head.data() + 1);
    if (length > end - r - kRecordHeader) {
      warn(at(r, fmt::format("summary: {}: {} bytes, only {} left in the summary", record_label(op),
                             length, end - r - kRecordHeader)));
      return;
    }
    if (op == kStatistics) {
      if (length < 8) {
        warn(at(r, "statistics: shorter than its message count"));
        return;
      }
      const std::uint64_t count = le64(source.view(r + kRecordHeader, 8).data());
      if (count != messages.size()) {
        warn(at(r, fmt::format("statistics: {} messages, the data section holds {}", count,
                               messages.size())));
      }
      return;
    }
    r += kRecordHeader + length;
  }
}

void McapReader::Impl::walk() {
  const std::uint64_t size = source.size();
  // A message record holds at least 31 bytes, and compression (well under 16:1 for the records of
  // any real recording, which differ at least in their times and sequences) cannot make more of a
  // file than this; a decompression bomb meets the limit before its index fills memory.
  max_messages = size > (std::numeric_limits<std::uint64_t>::max() >> 5)
                     ? std::numeric_limits<std::uint64_t>::max()
                     : 16 * size + (1u << 20);
  header();
  std::uint64_t at = sizeof(kMagic) + kRecordHeader + le64(source.view(9, 8).data());
  bool data_end = false;
  for (;;) {
    record_at = at;
    if (at == size) {
      damaged(at, "the file ends without a Data End record (cut off?)",
              "the file was read to there");
      break;
    }
    if (size - at < kRecordHeader) {
      damaged(at, fmt::format("a record header cut off ({} of {} bytes)", size - at, kRecordHeader),
              "reading stopped there");
      break;
    }
    const auto head = source.view(at, kRecordHeader);
    const std::uint8_t op = head[0];
    const std::uint64_t length = le64(head.data() + 1);
    if (length > size - at - kRecordHeader) {
      damaged(at,
              fmt::format("{}: {} bytes, only {} left in the file (cut off?)", record_label(op),
                          length, size - at - kRecordHeader),
              "reading stopped there");
      break;
    }
    const std::size_t messages_before = messages.size();
    const std::size_t chunks_before = chunks.size();
    bool stop = false;
    try {
      switch (op) {
        case kDataEnd:
          data_end = true;
          break;
        case kFooter:
          stop = true;
          damaged(at, "a Footer without a Data End record before it", "reading stopped there");
          break;
        case kSchema:
        case kChannel:
          if (length > kMaxChunkBytes) {
            throw Bad{fmt::format("{}: {} bytes (the reader's limit: {})", record_name(op), length,
                                  kMaxChunkBytes)};
          }
          if (op == kSchema) {
            add_schema(source.view(at + kRecordHeader, length));
          } else {
            add_channel(source.view(at + kRecordHeader, length));
          }
          break;
        case kMessage:
          add_message(source.view(at + kRecordHeader, std::min(length, kMessageHeader)), length,
                      at + kRecordHeader + kMessageHeader, 0);
          break;
        case kChunk:
          index_chunk(at, length);
          break;
        default:  // message and chunk indexes, attachments, metadata, statistics, unknown opcodes
          break;
      }
    } catch (const Bad& bad) {
      messages.resize(messages_before);
      chunks.resize(chunks_before);
      damaged(at, bad.what, bad.stop ? "reading stopped there" : "the record was skipped");
      stop = bad.stop;
    }
    if (data_end || stop) break;
    at += kRecordHeader + length;
  }
  if (data_end) {
    const auto length = le64(source.view(at + 1, 8).data());
    check_summary(at + kRecordHeader + length);
  }

  // Messages on channels the file never defines cannot be played.
  std::set<std::uint16_t> undefined;
  const std::size_t all = messages.size();
  std::erase_if(messages, [&](const McapMessageRef& m) {
    if (channels.count(m.channel)) return false;
    undefined.insert(m.channel);
    return true;
  });
  if (!undefined.empty()) {
    std::string ids;
    for (const std::uint16_t id : undefined) {
      if (!ids.empty()) ids += ", ";
      ids += std::to_string(id);
    }
    warn(fmt::format("{}: {} messages on channels the file never defines ({}) are left out", name,
                     all - messages.size(), ids));
  }
  const auto by_time = [](const McapMessageRef& a, const McapMessageRef& b) {
    return a.log_time < b.log_time;
  };
  if (!std::is_sorted(messages.begin(), messages.end(), by_time)) {
    std::stable_sort(messages.begin(), messages.end(), by_time);
  }
}

const Block& McapReader::Impl::cached(std::uint32_t chunk) {
  ++clock;
  for (Cached& c : cache) {
    if (c.chunk == chunk) {
      c.used = clock;
      return c.block;
    }
  }
  source.check_unchanged();
  const ChunkInfo& info = chunks[chunk - 1];
  Block block;
  try {
    block = decode(info);
  } catch (const Bad& bad) {
    throw Error(at(info.record_at, bad.what + " (the file changed since it was opened?)"));
  }
  cache.push_back({chunk, clock, std::move(block)});
  // Drop the least recently used (never the one just read, the most recent).
  const auto bytes = [&] {
    std::uint64_t n = 0;
    for (const Cached& c : cache) n += c.block.owned ? c.block.size : 0;
    return n;
  };
  while (cache.size() > kCacheChunks || (cache.size() > 1 && bytes() > kCacheBytes)) {
    cache.erase(std::min_element(cache.begin(), cache.end(),
                                 [](const Cached& a, const Cached& b) { return a.used < b.used; }));
  }
  return cache.back().block;
}

McapReader::McapReader(const std::string& path) : impl_(std::make_unique<Impl>(path)) {
  impl_->walk();
}

McapReader::McapReader(std::string name, std::vector<std::uint8_t> bytes)
    : impl_(std::make_unique<Impl>(std::move(name), std::move(bytes))) {
  impl_->walk();
}

McapReader::~McapReader() = default;
McapReader::McapReader(McapReader&&) noexcept = default;
McapReader& McapReader::operator=(McapReader&&) noexcept = default;

const std::string& McapReader::name() const { return impl_->name; }
std::string McapReader::profile() const { return impl_->profile; }
std::string McapReader::library() const { return impl_->library; }
const std::map<std::uint16_t, McapSchema>& McapReader::schemas() const { return impl_->schemas; }
const std::map<std::uint16_t, McapChannel>& McapReader::channels() const { return impl_->channels; }

const McapSchema* McapReader::schema_of(const McapChannel& channel) const {
  if (channel.schema_id == 0) return nullptr;
  const auto found = impl_->schemas.find(channel.schema_id);
  return found == impl_->schemas.end() ? nullptr : &found->second;
}

const std::vector<McapMessageRef>& McapReader::messages() const { return impl_->messages; }
std::uint64_t McapReader::start_time() const {
  return impl_->messages.empty() ? 0 : impl_->messages.front().log_time;
}
std::uint64_t McapReader::end_time() const {
  return impl_->messages.empty() ? 0 : impl_->messages.back().log_time;
}
const std::vector<std::string>& McapReader::warnings() const { return impl_->warnings; }

std::span<const std::uint8_t> McapReader::payload(const McapMessageRef& message) {
  Impl& d = *impl_;
  if (message.chunk == 0) {
    const std::uint64_t size = d.source.size();
    if (message.offset > size || message.size > size - message.offset) {
      throw Error(d.at(message.offset, fmt::format("no payload of {} bytes there (the file has {})",
                                                   message.size, size)));
    }
    if (d.source.in_memory()) return {d.source.memory(message.offset), message.size};
    d.source.check_unchanged();
    d.single.resize(message.size);
    d.source.read(message.offset, d.single.data(), message.size);
    return d.single;
  }
  if (message.chunk > d.chunks.size()) {
    throw Error(fmt::format("{}: no chunk {} (the file has {} with messages)", d.name,
                            message.chunk, d.chunks.size()));
  }
  const Block& block = d.cached(message.chunk);
  if (message.offset > block.size || message.size > block.size - message.offset) {
    throw Error(d.at(d.chunks[message.chunk - 1].record_at,
                     fmt::format("chunk: no payload of {} bytes at byte {} of its {}", message.size,
                                 message.offset, block.size)));
  }
  return {block.data + message.offset, message.size};
}

}  // namespace ubot
