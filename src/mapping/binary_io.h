#pragma once
// Little-endian binary helpers for the point-cloud formats: a reader over a whole file that
// reports every short read as a ubot::Error naming the file, the field and the byte offset, and
// a writer appending to a byte buffer.
#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "ubot/core/error.h"

namespace ubot::mapping::detail {

static_assert(std::endian::native == std::endian::little, "the file formats are little-endian");

// Reads a whole file; ubot::Error when it is missing or unreadable.
std::vector<char> read_file(const std::string& path);
// Writes bytes to a file (replacing it); ubot::Error naming the file on failure.
void write_file(const std::string& path, const std::vector<char>& bytes);

class ByteReader {
 public:
  ByteReader(const std::vector<char>& data, const std::string& path) : data_(data), path_(path) {}

  std::size_t size() const { return data_.size(); }
  const char* at(std::size_t offset) const { return data_.data() + offset; }

  // The value of `field` at `offset`; an error if the file ends before it.
  template <class T>
  T get(std::size_t offset, std::string_view field) const {
    need(offset, sizeof(T), field);
    T v;
    std::memcpy(&v, data_.data() + offset, sizeof(T));
    return v;
  }
  void need(std::size_t offset, std::size_t bytes, std::string_view field) const {
    if (offset > data_.size() || bytes > data_.size() - offset) {
      fail(fmt::format("truncated: {} needs {} byte(s) at offset {}, but the file has {} bytes",
                       field, bytes, offset, data_.size()));
    }
  }
  [[noreturn]] void fail(std::string_view message) const {
    throw Error(fmt::format("{}: {}", path_, message));
  }

 private:
  const std::vector<char>& data_;
  const std::string& path_;
};

class ByteWriter {
 public:
  template <class T>
  void put(T v) {
    const std::size_t n = bytes_.size();
    bytes_.resize(n + sizeof(T));
    std::memcpy(bytes_.data() + n, &v, sizeof(T));
  }
  // Writes `text` into a fixed-size, zero-padded field.
  void put_fixed(std::string_view text, std::size_t size) {
    const std::size_t n = bytes_.size();
    bytes_.resize(n + size, '\0');
    std::memcpy(bytes_.data() + n, text.data(), std::min(size, text.size()));
  }
  void put_text(std::string_view text) {
    const std::size_t n = bytes_.size();
    bytes_.resize(n + text.size());
    if (!text.empty()) std::memcpy(bytes_.data() + n, text.data(), text.size());
  }
  void zeros(std::size_t n) { bytes_.resize(bytes_.size() + n, '\0'); }
  std::size_t size() const { return bytes_.size(); }
  void reserve(std::size_t n) { bytes_.reserve(n); }
  template <class T>
  void patch(std::size_t offset, T v) {
    std::memcpy(bytes_.data() + offset, &v, sizeof(T));
  }
  const std::vector<char>& bytes() const { return bytes_; }

 private:
  std::vector<char> bytes_;
};

// A text header (PCD; PLY has ubot/core/ply_header.h): the header ends at the line `end_marker...`;
// returns the header lines and the offset of the first data byte; an error if the marker never
// comes.
struct TextHeader {
  std::vector<std::string> lines;
  std::size_t data_offset = 0;
};
TextHeader read_text_header(const ByteReader& in, std::string_view end_marker,
                            std::size_t max_bytes = 1 << 20);

}  // namespace ubot::mapping::detail
