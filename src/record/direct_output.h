#pragma once
// A record file written past the page cache (O_DIRECT) in large aligned blocks. A 1000-robot
// frames.jsonl is 5.6 MB a step; on the benchmark machine copying that into the page cache cost
// 1.1 s of kernel CPU for 100 steps (508 MB/s, more than the whole run), where direct writes of
// the same bytes cost 0.12 s (the disk's DMA does the copy). Bytes are staged in an aligned
// buffer and written in whole 4 KiB blocks; close() writes the tail without O_DIRECT. Where the
// file system refuses O_DIRECT (tmpfs before Linux 6.6), the file is written the ordinary way.
// Written as PATH.part and renamed when closed, as every output (ubot/core/output_files.h).
#include <cstddef>
#include <memory>
#include <string>

namespace ubot {

class DirectOutput {
 public:
  // Opens partial_path(path); throws ubot::Error naming `path` when it cannot.
  explicit DirectOutput(std::string path);
  // Closes a file close() was not called for (a failed run), leaving what was written as
  // PATH.part (the staged tail is lost).
  ~DirectOutput();
  DirectOutput(const DirectOutput&) = delete;
  DirectOutput& operator=(const DirectOutput&) = delete;

  // Appends `bytes`; writes whole blocks once at least kFlushBytes are staged. Throws
  // ubot::Error on a write error (the file is then removed).
  void append(const char* data, std::size_t bytes);
  // Writes what is staged, closes and gives the file its name; throws ubot::Error on failure.
  void close();
  bool direct() const { return direct_; }

  static constexpr std::size_t kBlock = 4096;
  static constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

 private:
  void write_blocks(std::size_t bytes);
  [[noreturn]] void fail(const char* what, int error);
  std::string path_;
  int fd_ = -1;
  bool direct_ = false;
  struct Free {
    void operator()(char* p) const;
  };
  std::unique_ptr<char[], Free> buffer_;
  std::size_t capacity_ = 0;
  std::size_t size_ = 0;
};

}  // namespace ubot
