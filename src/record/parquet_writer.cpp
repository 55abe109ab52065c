#include "ubot/record/parquet_writer.h"

#include <fmt/format.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "direct_output.h"
#include "ubot/core/error.h"
#include "ubot/record/parquet_encoding.h"

namespace ubot::parquet {
namespace {

// zstd level 1, as the MCAP writer: the fastest level, still a good ratio on sensor data.
constexpr int kZstdLevel = 1;
constexpr char kMagic[4] = {'P', 'A', 'R', '1'};

// Thrift enum values of the format (parquet.thrift).
constexpr std::int32_t kDataPage = 0;                                // PageType
constexpr std::int32_t kPlain = 0, kRle = 3;                         // Encoding
constexpr std::int32_t kRequired = 0, kOptional = 1, kRepeated = 2;  // FieldRepetitionType
constexpr std::int32_t kConvertedUtf8 = 0, kConvertedList = 3;       // ConvertedType

int max_definition_level(const Column& c) { return (c.nullable ? 1 : 0) + (c.list ? 1 : 0); }

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

// Appends levels as a v1 data page holds them: a 4-byte little-endian length, then the hybrid.
void put_levels(std::string& out, LevelEncoder& encoder) {
  const std::string levels = encoder.finish();
  put_u32(out, static_cast<std::uint32_t>(levels.size()));
  out += levels;
}

// The levels of a page from its rows (1 / 0 for a scalar, a list's length or -1 for null):
// repetition 0 starts a row, 1 continues its list; definition max_def for a value, one less for
// an empty list, 0 for a null. Returns the page's value count (levels, nulls included).
std::int64_t put_page_levels(std::string& body, const Column& c,
                             const std::vector<std::int32_t>& rows) {
  const int max_def = max_definition_level(c);
  std::int64_t values = 0;
  if (c.list) {
    LevelEncoder rep(1);
    for (const std::int32_t n : rows) {
      rep.put(0, 1);
      if (n > 1) rep.put(1, static_cast<std::uint64_t>(n) - 1);
      values += std::max(n, 1);
    }
    put_levels(body, rep);
  } else {
    values = static_cast<std::int64_t>(rows.size());
  }
  if (max_def == 0) return values;  // required scalar: no levels at all
  LevelEncoder def(level_bit_width(max_def));
  for (const std::int32_t n : rows) {
    if (!c.list) {
      def.put(n == 1 ? 1 : 0, 1);
    } else if (n < 0) {
      def.put(0, 1);
    } else if (n == 0) {
      def.put(static_cast<std::uint8_t>(max_def - 1), 1);
    } else {
      def.put(static_cast<std::uint8_t>(max_def), static_cast<std::uint64_t>(n));
    }
  }
  put_levels(body, def);
  return values;
}

// PLAIN booleans: 8 to a byte, LSB first (appended one byte each; other types are appended in
// their PLAIN form already).
void pack_booleans(std::string& out, const std::string& values) {
  out.assign((values.size() + 7) / 8, '\0');
  std::size_t i = 0;
  for (; i + 8 <= values.size(); i += 8) {  // 8 flags at once: no branch per flag
    std::uint64_t x;
    std::memcpy(&x, values.data() + i, 8);
    // 0x80 in each byte that is not 0, then 1; the multiply gathers byte k's bit into bit k of
    // the top byte (little-endian load: flag i + k is byte k).
    constexpr std::uint64_t kLow = 0x7F7F7F7F7F7F7F7FULL;
    x = ((((x & kLow) + kLow) | x) & ~kLow) >> 7;
    out[i / 8] = static_cast<char>((x * 0x0102040810204080ULL) >> 56);
  }
  for (; i < values.size(); ++i) {
    if (values[i] != 0) out[i / 8] = static_cast<char>(out[i / 8] | 1 << (i % 8));
  }
}

template <class T>
void fold_range(const std::string& values, std::int64_t& min, std::int64_t& max) {
  for (std::size_t at = 0; at + sizeof(T) <= values.size(); at += sizeof(T)) {
    T v;
    std::memcpy(&v, values.data() + at, sizeof(T));
    min = std::min<std::int64_t>(min, v);
    max = std::max<std::int64_t>(max, v);
  }
}

bool is_integer(const Column& c) {
  return !c.list && (c.type == PhysicalType::kInt32 || c.type == PhysicalType::kInt64);
}

// An integer statistic as Parquet stores it: the PLAIN bytes of the column's type.
std::string plain_integer(const Column& c, std::int64_t v) {
  std::string out;
  if (c.type == PhysicalType::kInt32) {
    const auto v32 = static_cast<std::int32_t>(v);
    out.assign(reinterpret_cast<const char*>(&v32), 4);
  } else {
    out.assign(reinterpret_cast<const char*>(&v), 8);
  }
  return out;
}

}  // namespace

// The worker's side of a ParquetTable. Only the worker's jobs touch it, one after the other.
class TableFile {
 public:
  TableFile(std::string path, std::vector<Column> columns, FileOptions options);
  ~TableFile();
  void add_page(std::size_t column, const RawPage& page);
  void end_row_group(std::int64_t rows);
  void close();

 private:
  // A column chunk being built: its encoded pages and what its metadata will say.
  struct Chunk {
    std::string bytes;
    std::int64_t values = 0;        // levels, nulls included
    std::int64_t uncompressed = 0;  // page headers + uncompressed bodies
    std::int64_t nulls = 0;
    std::int64_t min = std::numeric_limits<std::int64_t>::max();
    std::int64_t max = std::numeric_limits<std::int64_t>::min();
  };
  struct WrittenChunk {
    Chunk chunk;  // without bytes
    std::int64_t offset = 0;
    std::int64_t compressed = 0;
  };
  struct RowGroup {
    std::vector<WrittenChunk> chunks;
    std::int64_t rows = 0;
  };
  void write(const void* data, std::size_t size);
  std::string_view compress(std::initializer_list<std::string_view> pieces, std::size_t size);
  void put_schema(ThriftWriter& t) const;
  void put_column_chunk(ThriftWriter& t, std::size_t column, const WrittenChunk& w) const;
  std::string footer() const;

  std::string path_;
  std::vector<Column> columns_;
  FileOptions options_;
  std::unique_ptr<DirectOutput> file_;  // past the page cache, as frames.jsonl
  std::int64_t offset_ = 0;             // bytes written so far
  std::vector<Chunk> chunks_;
  std::vector<RowGroup> groups_;
  ZSTD_CCtx* zstd_ = nullptr;
  // Reused from page to page: levels, packed booleans, the compressed body.
  std::string levels_, booleans_, compressed_;
};

TableFile::TableFile(std::string path, std::vector<Column> columns, FileOptions options)
    : path_(std::move(path)),
      columns_(std::move(columns)),
      options_(std::move(options)),
      chunks_(columns_.size()) {
  if (options_.codec == Codec::kZstd) zstd_ = ZSTD_createCCtx();
  file_ = std::make_unique<DirectOutput>(path_);
  write(kMagic, sizeof kMagic);
}

TableFile::~TableFile() {
  // Not closed: the .part file stays, as a failed run's do (DirectOutput's destructor).
  ZSTD_freeCCtx(zstd_);
}

void TableFile::write(const void* data, std::size_t size) {
  file_->append(static_cast<const char*>(data), size);
  offset_ += static_cast<std::int64_t>(size);
}

// One zstd frame of the pieces, one after the other (`size` bytes in all, written into the
// frame header as ZSTD_compress would): the values are not copied into one body first.
std::string_view TableFile::compress(std::initializer_list<std::string_view> pieces,
                                     std::size_t size) {
  auto check = [&](std::size_t r) {
    if (ZSTD_isError(r)) throw Error(fmt::format("{}: zstd: {}", path_, ZSTD_getErrorName(r)));
    return r;
  };
  check(ZSTD_CCtx_reset(zstd_, ZSTD_reset_session_only));
  check(ZSTD_CCtx_setParameter(zstd_, ZSTD_c_compressionLevel, kZstdLevel));
  check(ZSTD_CCtx_setPledgedSrcSize(zstd_, size));
  compressed_.resize(ZSTD_compressBound(size));
  ZSTD_outBuffer out{compressed_.data(), compressed_.size(), 0};
  std::size_t left = 0;
  for (const std::string_view piece : pieces) {
    ZSTD_inBuffer in{piece.data(), piece.size(), 0};
    while (in.pos < in.size) {
      check(ZSTD_compressStream2(zstd_, &out, &in, ZSTD_e_continue));
      if (out.pos == out.size && in.pos < in.size) {  // cannot happen within the bound
        throw Error(fmt::format("{}: zstd: output bound exceeded", path_));
      }
    }
  }
  ZSTD_inBuffer none{nullptr, 0, 0};
  do {  // the output has the bound's room: this ends the frame at the first call
    left = check(ZSTD_compressStream2(zstd_, &out, &none, ZSTD_e_end));
  } while (left != 0 && out.pos < out.size);
  if (left != 0) throw Error(fmt::format("{}: zstd: output bound exceeded", path_));
  return std::string_view(compressed_.data(), out.pos);
}

// One data page (v1): its header, then repetition levels, definition levels and values,
// compressed together.
void TableFile::add_page(std::size_t column, const RawPage& page) {
  const Column& c = columns_[column];
  Chunk& chunk = chunks_[column];
  levels_.clear();
  const std::int64_t values = put_page_levels(levels_, c, page.rows);
  std::string_view data = page.values;
  if (c.type == PhysicalType::kBoolean) {
    pack_booleans(booleans_, page.values);
    data = booleans_;
  }
  const std::size_t size = levels_.size() + data.size();
  if (size > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    throw Error(fmt::format("{}: a page of column '{}' exceeds 2 GiB", path_, c.name));
  }
  const std::string_view stored = zstd_ ? compress({levels_, data}, size) : std::string_view();
  ThriftWriter header;
  header.i32(1, kDataPage)
      .i32(2, static_cast<std::int32_t>(size))
      .i32(3, static_cast<std::int32_t>(zstd_ ? stored.size() : size))
      .begin_struct(5)  // DataPageHeader
      .i32(1, static_cast<std::int32_t>(values))
      .i32(2, kPlain)
      .i32(3, kRle)
      .i32(4, kRle)
      .end_struct()
      .end_struct();
  chunk.bytes += header.bytes();
  if (zstd_) {
    chunk.bytes += stored;
  } else {  // the body is the levels and the values, as they are
    chunk.bytes += levels_;
    chunk.bytes += data;
  }
  chunk.values += values;
  chunk.uncompressed += static_cast<std::int64_t>(header.bytes().size() + size);
  chunk.nulls += page.null_count;
  if (is_integer(c) && c.type == PhysicalType::kInt32) {
    fold_range<std::int32_t>(page.values, chunk.min, chunk.max);
  } else if (is_integer(c)) {
    fold_range<std::int64_t>(page.values, chunk.min, chunk.max);
  }
}

// Writes the row group's column chunks one after the other and keeps their metadata.
void TableFile::end_row_group(std::int64_t rows) {
  RowGroup group;
  group.rows = rows;
  for (Chunk& chunk : chunks_) {
    WrittenChunk w;
    w.offset = offset_;
    w.compressed = static_cast<std::int64_t>(chunk.bytes.size());
    write(chunk.bytes.data(), chunk.bytes.size());
    std::string bytes = std::move(chunk.bytes);
    bytes.clear();  // its capacity serves the next row group (no new pages to fault in)
    Chunk next;
    next.bytes = std::move(bytes);
    w.chunk = std::exchange(chunk, std::move(next));
    group.chunks.push_back(std::move(w));
  }
  groups_.push_back(std::move(group));
}

void TableFile::close() {
  if (!file_) return;
  const std::string meta = footer();
  write(meta.data(), meta.size());
  std::string tail;
  put_u32(tail, static_cast<std::uint32_t>(meta.size()));
  tail.append(kMagic, sizeof kMagic);
  write(tail.data(), tail.size());
  file_->close();
  file_.reset();
}

// The schema, flattened depth first: the root, then per column its element or, for a list, the
// three of the LIST layout.
void TableFile::put_schema(ThriftWriter& t) const {
  std::size_t elements = 1;
  for (const Column& c : columns_) elements += c.list ? 3 : 1;
  t.begin_list(2, ThriftType::kStruct, elements);
  t.begin_element().binary(4, "schema").i32(5, static_cast<std::int32_t>(columns_.size()));
  t.end_struct();
  for (const Column& c : columns_) {
    const std::int32_t repetition = c.nullable ? kOptional : kRequired;
    if (c.list) {
      t.begin_element().i32(3, repetition).binary(4, c.name).i32(5, 1).i32(6, kConvertedList);
      t.begin_struct(10).begin_struct(3).end_struct().end_struct();  // LogicalType LIST
      t.end_struct();
      t.begin_element().i32(3, kRepeated).binary(4, "list").i32(5, 1).end_struct();
    }
    t.begin_element().i32(1, static_cast<std::int32_t>(c.type));
    t.i32(3, c.list ? kRequired : repetition).binary(4, c.list ? "element" : c.name);
    if (c.type == PhysicalType::kByteArray) {
      t.i32(6, kConvertedUtf8).begin_struct(10).begin_struct(1).end_struct().end_struct();
    }
    t.end_struct();
  }
}

// ColumnChunk { file_offset, ColumnMetaData { type, encodings, path, codec, num_values, sizes,
// data_page_offset, statistics } }.
void TableFile::put_column_chunk(ThriftWriter& t, std::size_t column, const WrittenChunk& w) const {
  const Column& c = columns_[column];
  t.begin_element().i64(2, w.offset).begin_struct(3);
  t.i32(1, static_cast<std::int32_t>(c.type));
  t.begin_list(2, ThriftType::kI32, 2).element_i32(kPlain).element_i32(kRle);
  if (c.list) {
    t.begin_list(3, ThriftType::kBinary, 3)
        .element_binary(c.name)
        .element_binary("list")
        .element_binary("element");
  } else {
    t.begin_list(3, ThriftType::kBinary, 1).element_binary(c.name);
  }
  t.i32(4, static_cast<std::int32_t>(options_.codec))
      .i64(5, w.chunk.values)
      .i64(6, w.chunk.uncompressed)
      .i64(7, w.compressed)
      .i64(9, w.offset);
  if (!c.list) {  // a list's null count would be ambiguous (null lists or elements?)
    t.begin_struct(12).i64(3, w.chunk.nulls);
    if (is_integer(c) && w.chunk.min <= w.chunk.max) {
      t.binary(5, plain_integer(c, w.chunk.max)).binary(6, plain_integer(c, w.chunk.min));
    }
    t.end_struct();
  }
  t.end_struct().end_struct();
}

// FileMetaData { version, schema, num_rows, row_groups, key_value_metadata, created_by,
// column_orders }.
std::string TableFile::footer() const {
  ThriftWriter t;
  t.i32(1, 1);
  put_schema(t);
  std::int64_t rows = 0;
  for (const RowGroup& g : groups_) rows += g.rows;
  t.i64(3, rows).begin_list(4, ThriftType::kStruct, groups_.size());
  for (const RowGroup& g : groups_) {
    std::int64_t uncompressed = 0, compressed = 0;
    t.begin_element().begin_list(1, ThriftType::kStruct, g.chunks.size());
    for (std::size_t i = 0; i < g.chunks.size(); ++i) {
      put_column_chunk(t, i, g.chunks[i]);
      uncompressed += g.chunks[i].chunk.uncompressed;
      compressed += g.chunks[i].compressed;
    }
    t.i64(2, uncompressed).i64(3, g.rows).i64(5, g.chunks.front().offset).i64(6, compressed);
    t.end_struct();
  }
  t.begin_list(5, ThriftType::kStruct, options_.metadata.size());
  for (const auto& [key, value] : options_.metadata) {
    t.begin_element().binary(1, key).binary(2, value).end_struct();
  }
  t.binary(6, options_.created_by);
  // column_orders: TypeDefinedOrder for every column. Without it readers ignore the statistics'
  // min_value / max_value (their sort order would be unknown).
  t.begin_list(7, ThriftType::kStruct, columns_.size());
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    t.begin_element().begin_struct(1).end_struct().end_struct();
  }
  t.end_struct();
  return t.take();
}

void ColumnBuffer::value(std::string_view s) {
  const auto size = static_cast<std::uint32_t>(s.size());
  page_.values.append(reinterpret_cast<const char*>(&size), 4);
  page_.values.append(s);
  page_.rows.push_back(1);
}

void ColumnBuffer::not_nullable() const {
  throw std::logic_error(fmt::format("parquet: column '{}' is not nullable", column_.name));
}

void ColumnBuffer::strided_list(const double* first, std::size_t count, std::size_t stride) {
  const std::size_t start = page_.values.size();
  page_.values.resize(start + count * sizeof(double));
  for (std::size_t i = 0; i < count; ++i) {
    std::memcpy(page_.values.data() + start + i * sizeof(double), first + i * stride,
                sizeof(double));
  }
  page_.rows.push_back(static_cast<std::int32_t>(count));
}

RawPage PagePool::get(std::size_t column) {
  const std::lock_guard lock(mutex_);
  std::vector<RawPage>& free = free_[column];
  if (free.empty()) return {};
  RawPage page = std::move(free.back());
  free.pop_back();
  return page;
}

void PagePool::put(std::size_t column, RawPage page) {
  page.values.clear();  // capacities stay
  page.rows.clear();
  page.null_count = 0;
  const std::lock_guard lock(mutex_);
  if (free_[column].size() < 2) free_[column].push_back(std::move(page));
}

ParquetWorker::ParquetWorker(bool background, std::size_t max_bytes) : max_bytes_(max_bytes) {
  if (background) thread_ = std::thread([this] { loop(); });
}

ParquetWorker::~ParquetWorker() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    jobs_.clear();
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ParquetWorker::rethrow() {
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void ParquetWorker::submit(std::size_t bytes, std::function<void()> job) {
  std::unique_lock lock(mutex_);
  rethrow();
  if (failed_) return;
  if (!thread_.joinable()) {  // inline
    lock.unlock();
    try {
      job();
    } catch (...) {
      failed_ = true;  // the file is broken: later jobs are skipped
      throw;
    }
    return;
  }
  // Bounded: wait while the queue holds more than max_bytes_ (a lone large job still goes in).
  changed_.wait(lock, [&] { return jobs_.empty() || queued_bytes_ + bytes <= max_bytes_; });
  queued_bytes_ += bytes;
  jobs_.emplace_back(bytes, std::move(job));
  changed_.notify_all();
}

void ParquetWorker::drain() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return jobs_.empty() && !running_job_; });
  rethrow();
}

void ParquetWorker::loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
    if (stopping_) return;
    auto [bytes, job] = std::move(jobs_.front());
    jobs_.pop_front();
    running_job_ = true;
    const bool skip = failed_;
    lock.unlock();
    std::exception_ptr error;
    if (!skip) {
      try {
        job();
      } catch (...) {
        error = std::current_exception();
      }
    }
    job = nullptr;  // its page's memory goes before the queue makes room
    lock.lock();
    if (error) {
      error_ = error;
      failed_ = true;
    }
    queued_bytes_ -= bytes;
    running_job_ = false;
    changed_.notify_all();
  }
}

ParquetTable::ParquetTable(std::string path, std::vector<Column> columns, FileOptions options,
                           ParquetWorker& worker)
    : limits_(options.limits),
      worker_(worker),
      pool_(std::make_shared<PagePool>(columns.size())),
      sent_rows_(columns.size(), 0) {
  for (const Column& c : columns) columns_.emplace_back(c);
  file_ = std::make_shared<TableFile>(std::move(path), std::move(columns), std::move(options));
}

ParquetTable::~ParquetTable() = default;

void ParquetTable::end_batch() {
  const std::size_t rows = sent_rows_[0] + columns_[0].rows();
  std::size_t bytes = sent_bytes_;
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    if (sent_rows_[i] + columns_[i].rows() != rows) {
      throw std::logic_error(
          fmt::format("parquet: column '{}' has {} rows, '{}' {}", columns_[i].column().name,
                      sent_rows_[i] + columns_[i].rows(), columns_[0].column().name, rows));
    }
    bytes += columns_[i].bytes();
  }
  if (static_cast<std::int64_t>(rows) >= limits_.row_group_rows ||
      bytes >= limits_.row_group_bytes) {
    end_row_group();
    return;
  }
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    if (columns_[i].bytes() >= limits_.page_bytes) send_page(i);
  }
}

void ParquetTable::send_page(std::size_t column) {
  if (columns_[column].rows() == 0) return;
  RawPage page = columns_[column].take_page(pool_->get(column));
  sent_rows_[column] += page.rows.size();
  sent_bytes_ += page.values.size();
  const std::size_t bytes = page.values.size() + page.rows.size() * sizeof(std::int32_t);
  worker_.submit(bytes, [file = file_, pool = pool_, column, page = std::move(page)]() mutable {
    file->add_page(column, page);
    pool->put(column, std::move(page));
  });
}

void ParquetTable::end_row_group() {
  for (std::size_t i = 0; i < columns_.size(); ++i) send_page(i);
  const auto rows = static_cast<std::int64_t>(sent_rows_[0]);
  if (rows > 0) worker_.submit(0, [file = file_, rows] { file->end_row_group(rows); });
  std::fill(sent_rows_.begin(), sent_rows_.end(), 0);
  sent_bytes_ = 0;
}

void ParquetTable::close() {
  if (closed_) return;
  closed_ = true;
  end_row_group();
  worker_.submit(0, [file = file_] { file->close(); });
}

}  // namespace ubot::parquet
