#pragma once
// A small MCAP reader for the tests, written from the specification (https://mcap.dev/spec):
// walks the records of a file, decodes the ones the tests look at and decompresses chunks with
// libzstd / liblz4 directly. The independent check is tests/record/check_mcap_with_foxglove.py
// (Foxglove's own readers); this one lets unit tests (also under the sanitizers) look at bytes.
#include <lz4frame.h>
#include <zlib.h>
#include <zstd.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace ubot::mcap_test {

using Bytes = std::vector<std::uint8_t>;

inline Bytes read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

inline std::uint32_t crc32_of(const Bytes& b, std::size_t begin, std::size_t end) {
  return static_cast<std::uint32_t>(::crc32(0, b.data() + begin, static_cast<uInt>(end - begin)));
}

// Little-endian fields in MCAP's serialisation; throws on reading past the end.
class Cursor {
 public:
  Cursor(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  explicit Cursor(const Bytes& b) : Cursor(b.data(), b.size()) {}

  template <class T>
  T get() {
    need(sizeof(T));
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) v |= std::uint64_t{data_[at_ + i]} << (8 * i);
    at_ += sizeof(T);
    return static_cast<T>(v);
  }
  std::string string() {
    const auto n = get<std::uint32_t>();
    need(n);
    std::string s(reinterpret_cast<const char*>(data_ + at_), n);
    at_ += n;
    return s;
  }
  Bytes bytes(std::size_t n) {
    need(n);
    Bytes b(data_ + at_, data_ + at_ + n);
    at_ += n;
    return b;
  }
  std::map<std::string, std::string> string_map() {
    const auto n = get<std::uint32_t>();
    const std::size_t end = at_ + n;
    std::map<std::string, std::string> m;
    while (at_ < end) {
      std::string k = string();
      m[k] = string();
    }
    return m;
  }
  template <class K>
  std::map<K, std::uint64_t> u64_map() {
    const auto n = get<std::uint32_t>();
    const std::size_t end = at_ + n;
    std::map<K, std::uint64_t> m;
    while (at_ < end) {
      const K k = get<K>();
      m[k] = get<std::uint64_t>();
    }
    return m;
  }
  std::size_t at() const { return at_; }
  bool done() const { return at_ == size_; }

 private:
  void need(std::size_t n) const {
    if (at_ + n > size_) throw std::runtime_error("MCAP record truncated");
  }
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

struct Record {
  std::uint8_t op = 0;
  std::size_t offset = 0;  // of the opcode, from the start of the buffer
  std::size_t length = 0;  // opcode + length + content
  Bytes content;
};

// The records of b[begin, end).
inline std::vector<Record> records(const Bytes& b, std::size_t begin, std::size_t end) {
  std::vector<Record> out;
  std::size_t at = begin;
  while (at < end) {
    Cursor c(b.data() + at, end - at);
    Record r;
    r.op = c.get<std::uint8_t>();
    r.offset = at;
    const auto n = c.get<std::uint64_t>();
    r.content = c.bytes(n);
    r.length = 9 + n;
    at += r.length;
    out.push_back(std::move(r));
  }
  return out;
}

struct Message {
  std::uint16_t channel = 0;
  std::uint32_t sequence = 0;
  std::uint64_t log_time = 0, publish_time = 0;
  Bytes data;
};
inline Message message(const Bytes& content) {
  Cursor c(content);
  Message m;
  m.channel = c.get<std::uint16_t>();
  m.sequence = c.get<std::uint32_t>();
  m.log_time = c.get<std::uint64_t>();
  m.publish_time = c.get<std::uint64_t>();
  m.data.assign(content.begin() + c.at(), content.end());
  return m;
}

struct Chunk {
  std::uint64_t start_time = 0, end_time = 0, uncompressed_size = 0;
  std::uint32_t crc = 0;
  std::string compression;
  Bytes records;  // decompressed
  std::size_t stored_size = 0;
};
inline Chunk chunk(const Bytes& content) {
  Cursor c(content);
  Chunk k;
  k.start_time = c.get<std::uint64_t>();
  k.end_time = c.get<std::uint64_t>();
  k.uncompressed_size = c.get<std::uint64_t>();
  k.crc = c.get<std::uint32_t>();
  k.compression = c.string();
  const auto n = c.get<std::uint64_t>();
  const Bytes stored = c.bytes(n);
  k.stored_size = n;
  if (k.compression.empty()) {
    k.records = stored;
  } else if (k.compression == "zstd") {
    k.records.resize(k.uncompressed_size);
    const std::size_t got =
        ZSTD_decompress(k.records.data(), k.records.size(), stored.data(), stored.size());
    if (ZSTD_isError(got) || got != k.uncompressed_size) throw std::runtime_error("bad zstd");
  } else if (k.compression == "lz4") {
    k.records.resize(k.uncompressed_size);
    LZ4F_dctx* dctx = nullptr;
    LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION);
    std::size_t out = k.records.size(), in = stored.size();
    const std::size_t r =
        LZ4F_decompress(dctx, k.records.data(), &out, stored.data(), &in, nullptr);
    LZ4F_freeDecompressionContext(dctx);
    if (LZ4F_isError(r) || r != 0 || out != k.uncompressed_size || in != stored.size()) {
      throw std::runtime_error("bad lz4 frame");
    }
  } else {
    throw std::runtime_error("unknown compression " + k.compression);
  }
  return k;
}

struct File {
  Bytes bytes;
  std::string profile, library;
  std::vector<Record> data;     // data section, Header excluded, Data End included
  std::vector<Record> summary;  // summary section
  std::vector<Record> summary_offsets;
  std::uint64_t summary_start = 0, summary_offset_start = 0;
  std::uint32_t summary_crc = 0;
};

// Parses the frame of a file: magic, Header, data section up to Data End, footer.
inline File parse(Bytes bytes) {
  static const std::uint8_t kMagic[] = {0x89, 'M', 'C', 'A', 'P', 0x30, '\r', '\n'};
  File f;
  f.bytes = std::move(bytes);
  const Bytes& b = f.bytes;
  if (b.size() < 8 + 8 + 29 || std::memcmp(b.data(), kMagic, 8) != 0 ||
      std::memcmp(b.data() + b.size() - 8, kMagic, 8) != 0) {
    throw std::runtime_error("no MCAP magic at both ends");
  }
  const std::size_t footer_at = b.size() - 8 - 29;
  Cursor footer(b.data() + footer_at, 29);
  if (footer.get<std::uint8_t>() != 0x02 || footer.get<std::uint64_t>() != 20) {
    throw std::runtime_error("no footer");
  }
  f.summary_start = footer.get<std::uint64_t>();
  f.summary_offset_start = footer.get<std::uint64_t>();
  f.summary_crc = footer.get<std::uint32_t>();
  std::vector<Record> all = records(b, 8, footer_at);
  if (all.empty() || all[0].op != 0x01) throw std::runtime_error("no header");
  Cursor header(all[0].content);
  f.profile = header.string();
  f.library = header.string();
  bool data = true;
  for (std::size_t i = 1; i < all.size(); ++i) {
    if (data) {
      f.data.push_back(all[i]);
      data = all[i].op != 0x0F;
    } else if (all[i].offset < f.summary_offset_start) {
      f.summary.push_back(all[i]);
    } else {
      f.summary_offsets.push_back(all[i]);
    }
  }
  return f;
}

}  // namespace ubot::mcap_test
