#include "ubot/record/mcap_writer.h"

#include <fmt/format.h>
#include <lz4frame.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "mcap_format.h"
#include "output_file.h"
#include "ubot/core/error.h"

namespace ubot {
namespace {

// zstd level 1: the MCAP libraries' default, fast enough to keep up with a simulation.
constexpr int kZstdLevel = 1;

using namespace mcap;  // kMagic, the record opcodes

// Little-endian appends in MCAP's serialisation (strings and maps with a uint32 byte length).
template <class T>
void put(std::vector<std::uint8_t>& out, T value) {
  std::uint8_t bytes[sizeof(T)];
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    bytes[i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(value) >> (8 * i));
  }
  out.insert(out.end(), bytes, bytes + sizeof(T));
}
void put_bytes(std::vector<std::uint8_t>& out, std::span<const std::uint8_t> bytes) {
  out.insert(out.end(), bytes.begin(), bytes.end());
}
void put_string(std::vector<std::uint8_t>& out, std::string_view s) {
  put(out, static_cast<std::uint32_t>(s.size()));
  out.insert(out.end(), s.begin(), s.end());
}
template <class T>
void patch(std::vector<std::uint8_t>& out, std::size_t at, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    out[at + i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(value) >> (8 * i));
  }
}

// Opens a record <opcode><uint64 content length> whose length end_record() fills in.
std::size_t begin_record(std::vector<std::uint8_t>& out, Opcode op) {
  out.push_back(op);
  const std::size_t at = out.size();
  put<std::uint64_t>(out, 0);
  return at;
}
void end_record(std::vector<std::uint8_t>& out, std::size_t length_at) {
  patch<std::uint64_t>(out, length_at, out.size() - length_at - 8);
}

// A uint32 byte length followed by entries that end_length() measures.
std::size_t begin_length(std::vector<std::uint8_t>& out) {
  const std::size_t at = out.size();
  put<std::uint32_t>(out, 0);
  return at;
}
void end_length(std::vector<std::uint8_t>& out, std::size_t at) {
  patch<std::uint32_t>(out, at, out.size() - at - 4);
}

std::uint32_t crc32_update(std::uint32_t crc, std::span<const std::uint8_t> bytes) {
  // zlib's crc32 takes at most 4 GiB at a time (uInt); chunks and records are far smaller.
  return static_cast<std::uint32_t>(::crc32(crc, bytes.data(), static_cast<uInt>(bytes.size())));
}

}  // namespace

McapCompression parse_mcap_compression(std::string_view name) {
  if (name == "zstd") return McapCompression::kZstd;
  if (name == "lz4") return McapCompression::kLz4;
  if (name == "none" || name.empty()) return McapCompression::kNone;
  throw Error(fmt::format("unknown MCAP compression '{}' (expected zstd, lz4 or none)", name));
}

std::string_view mcap_compression_name(McapCompression compression) {
  switch (compression) {
    case McapCompression::kZstd:
      return "zstd";
    case McapCompression::kLz4:
      return "lz4";
    case McapCompression::kNone:
      break;
  }
  return "";
}

struct McapWriter::ChunkIndex {
  std::uint64_t start_time = 0, end_time = 0;
  std::uint64_t offset = 0, length = 0;
  std::map<std::uint16_t, std::uint64_t> message_index_offsets;
  std::uint64_t message_index_length = 0;
  std::uint64_t compressed_size = 0, uncompressed_size = 0;
};

McapWriter::McapWriter(const std::string& path, McapWriterOptions options)
    : path_(path), options_(std::move(options)) {
  file_ = open_output(path);
  if (options_.compression == McapCompression::kZstd) zstd_ = ZSTD_createCCtx();
  chunk_.reserve(options_.chunk_size + (options_.chunk_size >> 2));
  emit(kMagic);
  record_.clear();
  const std::size_t at = begin_record(record_, kHeader);
  put_string(record_, options_.profile);
  put_string(record_, options_.library);
  end_record(record_, at);
  emit(record_);
}

McapWriter::~McapWriter() {
  try {
    close();
  } catch (const std::exception&) {
    // A destructor must not throw; close() reports errors to callers who ask.
  }
  ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(zstd_));
}

void McapWriter::emit(std::span<const std::uint8_t> bytes) {
  write_output(file_, bytes.data(), bytes.size(), path_);
  position_ += bytes.size();
  stats_.file_bytes = position_;
  if (in_data_section_) {
    data_crc_ = crc32_update(data_crc_, bytes);
  } else {
    summary_crc_ = crc32_update(summary_crc_, bytes);
  }
}

void McapWriter::check_open() const {
  if (!file_) throw Error(fmt::format("{}: the MCAP file is already closed", path_));
}

std::uint16_t McapWriter::add_schema(std::string_view name, std::string_view encoding,
                                     std::string_view data) {
  check_open();
  const auto id = static_cast<std::uint16_t>(schema_records_.size() + 1);
  std::vector<std::uint8_t>& r = schema_records_.emplace_back();
  const std::size_t at = begin_record(r, kSchema);
  put(r, id);
  put_string(r, name);
  put_string(r, encoding);
  put_string(r, data);
  end_record(r, at);
  emit(r);
  return id;
}

std::uint16_t McapWriter::add_channel(std::uint16_t schema_id, std::string_view topic,
                                      std::string_view message_encoding,
                                      const std::map<std::string, std::string>& metadata) {
  check_open();
  const auto id = static_cast<std::uint16_t>(channel_records_.size());
  std::vector<std::uint8_t>& r = channel_records_.emplace_back();
  const std::size_t at = begin_record(r, kChannel);
  put(r, id);
  put(r, schema_id);
  put_string(r, topic);
  put_string(r, message_encoding);
  const std::size_t map_at = begin_length(r);
  for (const auto& [key, value] : metadata) {  // std::map: sorted keys, a stable byte order
    put_string(r, key);
    put_string(r, value);
  }
  end_length(r, map_at);
  end_record(r, at);
  emit(r);
  channel_messages_.push_back(0);
  return id;
}

void McapWriter::write(std::uint16_t channel_id, std::uint32_t sequence, Nanos log_time,
                       Nanos publish_time, std::span<const std::uint8_t> data) {
  check_open();
  if (channel_id >= channel_records_.size()) {
    throw Error(fmt::format("{}: no channel {}", path_, channel_id));
  }
  if (chunk_.empty()) chunk_start_ = log_time;
  chunk_end_ = std::max(chunk_end_, log_time);
  if (stats_.messages == 0) first_time_ = log_time;
  last_time_ = std::max(last_time_, log_time);
  const std::uint64_t offset = chunk_.size();
  chunk_.push_back(kMessage);
  put<std::uint64_t>(chunk_, 2 + 4 + 8 + 8 + data.size());
  put(chunk_, channel_id);
  put(chunk_, sequence);
  put<std::uint64_t>(chunk_, log_time);
  put<std::uint64_t>(chunk_, publish_time);
  put_bytes(chunk_, data);
  chunk_index_[channel_id].emplace_back(log_time, offset);
  ++channel_messages_[channel_id];
  ++stats_.messages;
  stats_.message_bytes += data.size();
  if (chunk_.size() >= options_.chunk_size) flush_chunk();
}

void McapWriter::compress(std::span<const std::uint8_t> in) {
  if (options_.compression == McapCompression::kZstd) {
    compressed_.resize(ZSTD_compressBound(in.size()));
    const std::size_t n = ZSTD_compressCCtx(static_cast<ZSTD_CCtx*>(zstd_), compressed_.data(),
                                            compressed_.size(), in.data(), in.size(), kZstdLevel);
    if (ZSTD_isError(n)) throw Error(fmt::format("{}: zstd: {}", path_, ZSTD_getErrorName(n)));
    compressed_.resize(n);
  } else {
    LZ4F_preferences_t prefs;
    std::memset(&prefs, 0, sizeof(prefs));  // defaults: 64 KiB linked blocks, fast level
    compressed_.resize(LZ4F_compressFrameBound(in.size(), &prefs));
    const std::size_t n =
        LZ4F_compressFrame(compressed_.data(), compressed_.size(), in.data(), in.size(), &prefs);
    if (LZ4F_isError(n)) throw Error(fmt::format("{}: lz4: {}", path_, LZ4F_getErrorName(n)));
    compressed_.resize(n);
  }
}

void McapWriter::flush_chunk() {
  if (chunk_.empty()) return;
  std::span<const std::uint8_t> records = chunk_;
  if (options_.compression != McapCompression::kNone) {
    compress(chunk_);
    records = compressed_;
  }
  ChunkIndex index;
  index.start_time = chunk_start_;
  index.end_time = chunk_end_;
  index.offset = position_;
  index.compressed_size = records.size();
  index.uncompressed_size = chunk_.size();
  // The record's fixed part; the (possibly large) records follow without a copy.
  record_.clear();
  const std::size_t at = begin_record(record_, kChunk);
  put<std::uint64_t>(record_, chunk_start_);
  put<std::uint64_t>(record_, chunk_end_);
  put<std::uint64_t>(record_, chunk_.size());
  put(record_, crc32_update(0, chunk_));
  put_string(record_, mcap_compression_name(options_.compression));
  put<std::uint64_t>(record_, records.size());
  patch<std::uint64_t>(record_, at, record_.size() - at - 8 + records.size());
  emit(record_);
  emit(records);
  index.length = position_ - index.offset;

  const std::uint64_t indexes_start = position_;
  for (const auto& [channel, entries] : chunk_index_) {
    index.message_index_offsets[channel] = position_;
    record_.clear();
    const std::size_t r = begin_record(record_, kMessageIndex);
    put(record_, channel);
    put<std::uint32_t>(record_, entries.size() * 16);
    for (const auto& [time, offset] : entries) {
      put(record_, time);
      put(record_, offset);
    }
    end_record(record_, r);
    emit(record_);
  }
  index.message_index_length = position_ - indexes_start;
  chunk_indexes_.push_back(std::move(index));

  ++stats_.chunks;
  stats_.uncompressed_bytes += chunk_.size();
  stats_.compressed_bytes += records.size();
  chunk_.clear();
  chunk_index_.clear();
  chunk_end_ = 0;
}

void McapWriter::write_summary() {
  struct Group {
    Opcode op;
    std::uint64_t start, length;
  };
  std::vector<Group> groups;
  auto group = [&](Opcode op, auto&& write_records) {
    const std::uint64_t start = position_;
    write_records();
    if (position_ > start) groups.push_back({op, start, position_ - start});
  };
  group(kSchema, [&] {
    for (const auto& r : schema_records_) emit(r);
  });
  group(kChannel, [&] {
    for (const auto& r : channel_records_) emit(r);
  });
  group(kChunkIndex, [&] {
    for (const ChunkIndex& c : chunk_indexes_) {
      record_.clear();
      const std::size_t at = begin_record(record_, kChunkIndex);
      put(record_, c.start_time);
      put(record_, c.end_time);
      put(record_, c.offset);
      put(record_, c.length);
      const std::size_t map_at = begin_length(record_);
      for (const auto& [channel, offset] : c.message_index_offsets) {
        put(record_, channel);
        put(record_, offset);
      }
      end_length(record_, map_at);
      put(record_, c.message_index_length);
      put_string(record_, mcap_compression_name(options_.compression));
      put(record_, c.compressed_size);
      put(record_, c.uncompressed_size);
      end_record(record_, at);
      emit(record_);
    }
  });
  group(kStatistics, [&] {
    record_.clear();
    const std::size_t at = begin_record(record_, kStatistics);
    put<std::uint64_t>(record_, stats_.messages);
    put<std::uint16_t>(record_, schema_records_.size());
    put<std::uint32_t>(record_, channel_records_.size());
    put<std::uint32_t>(record_, 0);  // attachments
    put<std::uint32_t>(record_, 0);  // metadata
    put<std::uint32_t>(record_, chunk_indexes_.size());
    put<std::uint64_t>(record_, first_time_);
    put<std::uint64_t>(record_, last_time_);
    const std::size_t map_at = begin_length(record_);
    for (std::size_t id = 0; id < channel_messages_.size(); ++id) {
      put<std::uint16_t>(record_, id);
      put<std::uint64_t>(record_, channel_messages_[id]);
    }
    end_length(record_, map_at);
    end_record(record_, at);
    emit(record_);
  });
  const std::uint64_t summary_offsets_start = position_;
  for (const Group& g : groups) {
    record_.clear();
    const std::size_t at = begin_record(record_, kSummaryOffset);
    put<std::uint8_t>(record_, g.op);
    put(record_, g.start);
    put(record_, g.length);
    end_record(record_, at);
    emit(record_);
  }
  // The footer's CRC covers the summary, the summary offsets and the footer up to the CRC.
  record_.clear();
  const std::size_t at = begin_record(record_, kFooter);
  put(record_, groups.empty() ? 0 : groups.front().start);
  put(record_, summary_offsets_start);
  patch<std::uint64_t>(record_, at, 8 + 8 + 4);
  emit(record_);
  record_.clear();
  put(record_, summary_crc_);
  put_bytes(record_, kMagic);
  emit(record_);
}

void McapWriter::close() {
  if (!file_) return;
  try {
    flush_chunk();
    record_.clear();
    const std::size_t at = begin_record(record_, kDataEnd);
    put(record_, data_crc_);
    end_record(record_, at);
    emit(record_);
    in_data_section_ = false;
    write_summary();
  } catch (const Error&) {
    std::fclose(file_);  // a broken file is not finished twice
    file_ = nullptr;
    throw;
  }
  close_output(file_, path_);
}

}  // namespace ubot
