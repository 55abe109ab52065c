#pragma once
// A small Apache Parquet writer (docs/outputs.md, "frames as Parquet"): flat tables whose columns
// are scalars or lists of scalars, either of them nullable; PLAIN values, data pages v1 with
// RLE / bit-packed levels, UNCOMPRESSED or ZSTD pages, statistics for integer columns, Thrift
// compact page headers and footer (parquet_encoding.h). Lists use the standard 3-level LIST
// layout (`<name> (LIST) { repeated group list { required <type> element; } }`), which pyarrow,
// pandas, polars and DuckDB read as list<...>. Apache Arrow's C++ library is not in Debian 12.
//
// Rows are appended column by column on the caller's thread (cheap copies into a raw page);
// pages are encoded, compressed and written by a ParquetWorker, on its own thread or inline.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace ubot::parquet {

// Parquet physical types (their Thrift enum values).
enum class PhysicalType : std::int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,  // strings (annotated UTF-8)
};

// Page compression (Thrift CompressionCodec values).
enum class Codec : std::int32_t { kUncompressed = 0, kZstd = 6 };

struct Column {
  std::string name;
  PhysicalType type = PhysicalType::kDouble;
  bool nullable = false;  // rows may be null (for a list column: the whole list)
  bool list = false;      // list<type>; its elements are never null
};

// When a table starts a new page or row group (checked between batches of rows, so a row group
// holds whole batches: a step's rows stay together).
struct TableLimits {
  std::size_t page_bytes = 1 << 20;         // a column's raw values per page
  std::int64_t row_group_rows = 64 * 1024;  // rows per row group
  std::size_t row_group_bytes = 64u << 20;  // raw values per row group (bounds memory)
};

struct FileOptions {
  Codec codec = Codec::kUncompressed;
  std::string created_by;                                     // e.g. "ubot 0.1.0"
  std::vector<std::pair<std::string, std::string>> metadata;  // key-value metadata of the file
  TableLimits limits;
};

// One column's rows since its last page, as the caller appends them: PLAIN values (booleans one
// byte each, packed when encoded) and, per row, 1 / 0 for a present / null scalar or a list's
// length / -1 for a null list (the levels are derived from these when the page is encoded).
struct RawPage {
  std::string values;
  std::vector<std::int32_t> rows;
  std::int64_t null_count = 0;
};

// One column of a ParquetTable: each call appends one row.
class ColumnBuffer {
 public:
  explicit ColumnBuffer(Column column) : column_(std::move(column)) {}
  const Column& column() const { return column_; }

  void value(double v) { scalar(v); }
  void value(float v) { scalar(v); }
  void value(std::int32_t v) { scalar(v); }
  void value(std::int64_t v) { scalar(v); }
  void value(bool v) { scalar(static_cast<std::uint8_t>(v)); }
  void value(std::string_view s);    // BYTE_ARRAY: 4-byte length, then the bytes
  void value(const char*) = delete;  // would be taken as a bool: pass a std::string_view
  // A null scalar or list (the column must be nullable). Inline: a step writes thousands.
  void null() {
    if (!column_.nullable) not_nullable();
    page_.rows.push_back(column_.list ? -1 : 0);
    ++page_.null_count;
  }

  template <class T>
  void list(std::span<const T> items) {
    page_.values.append(reinterpret_cast<const char*>(items.data()), items.size_bytes());
    page_.rows.push_back(static_cast<std::int32_t>(items.size()));
  }
  // Elements `stride` doubles apart from `first` (one component of a vector of Eigen vectors).
  void strided_list(const double* first, std::size_t count, std::size_t stride);

  std::size_t rows() const { return page_.rows.size(); }
  std::size_t bytes() const { return page_.values.size(); }
  // The rows so far, replaced by `empty` (a recycled page: PagePool).
  RawPage take_page(RawPage empty) { return std::exchange(page_, std::move(empty)); }

 private:
  template <class T>
  void scalar(T v) {
    page_.values.append(reinterpret_cast<const char*>(&v), sizeof(T));
    page_.rows.push_back(1);
  }
  [[noreturn]] void not_nullable() const;
  Column column_;
  RawPage page_;
};

// Raw pages handed back once encoded, a free list per column: a column's next page reuses the
// buffers of one before it, so appending neither reallocates nor touches fresh memory (on the
// benchmark world that was half of the step thread's cost).
class PagePool {
 public:
  explicit PagePool(std::size_t columns) : free_(columns) {}
  RawPage get(std::size_t column);
  void put(std::size_t column, RawPage page);

 private:
  std::mutex mutex_;
  std::vector<std::vector<RawPage>> free_;
};

// Runs jobs in order, on a thread of its own (`background`) or inline in submit(). The queue is
// bounded by the bytes its jobs hold: submit() waits while more than `max_bytes` are queued. A
// job's exception is kept and rethrown by the next submit() or drain(); the jobs after it are
// skipped (their file is broken anyway).
class ParquetWorker {
 public:
  ParquetWorker(bool background, std::size_t max_bytes = 256u << 20);
  ~ParquetWorker();  // stops after the running job; queued jobs are dropped
  ParquetWorker(const ParquetWorker&) = delete;
  ParquetWorker& operator=(const ParquetWorker&) = delete;

  void submit(std::size_t bytes, std::function<void()> job);
  // Waits until every job submitted so far has run; rethrows a job's exception.
  void drain();

 private:
  void loop();
  void rethrow();
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<std::size_t, std::function<void()>>> jobs_;
  std::size_t queued_bytes_ = 0;
  std::size_t max_bytes_;
  bool running_job_ = false;
  bool stopping_ = false;
  bool failed_ = false;       // a job failed: the later ones are skipped
  std::exception_ptr error_;  // not yet rethrown
  std::thread thread_;        // last: started once the rest is ready
};

class TableFile;  // the worker's side: the open file, encoded column chunks, row group metadata

// A Parquet file with a fixed list of columns, written at `path` (as path.part until close(),
// ubot/core/output_files.h). Append each column's value for a row, for every row of a batch,
// then call end_batch(). Throws ubot::Error when the file cannot be written.
class ParquetTable {
 public:
  ParquetTable(std::string path, std::vector<Column> columns, FileOptions options,
               ParquetWorker& worker);
  ~ParquetTable();
  ParquetTable(const ParquetTable&) = delete;
  ParquetTable& operator=(const ParquetTable&) = delete;

  ColumnBuffer& operator[](std::size_t i) { return columns_[i]; }
  std::size_t size() const { return columns_.size(); }
  // Ends a batch of rows: every column must have as many rows; full pages and, at the limits, the
  // row group go to the worker.
  void end_batch();
  // Hands the last row group and the footer to the worker (drain() the worker to wait for them).
  void close();

 private:
  void send_page(std::size_t column);
  void end_row_group();
  std::vector<ColumnBuffer> columns_;
  TableLimits limits_;
  ParquetWorker& worker_;
  std::shared_ptr<TableFile> file_;     // shared with the worker's queued jobs
  std::shared_ptr<PagePool> pool_;      // likewise
  std::vector<std::size_t> sent_rows_;  // per column: rows of the row group already sent
  std::size_t sent_bytes_ = 0;          // raw value bytes of the row group already sent
  bool closed_ = false;
};

}  // namespace ubot::parquet
