#pragma once
// A record file written in whole 4 KiB blocks, past the page cache (O_DIRECT) once its lines are
// large. A 1000-robot frames.jsonl is 5.6 MB a step; on the benchmark machine copying that into
// the page cache cost 1.1 s of kernel CPU for 100 steps (508 MB/s, more than the whole run),
// where direct writes of the same bytes cost 0.12 s (the disk's DMA does the copy). A small
// world's lines go through the page cache as before, a block at a time (a direct write waits for
// the disk), so the file grows as the run goes (`tail -f` on PATH.part). Bytes are staged in an
// aligned buffer and written as whole blocks, so that the file offset stays aligned and direct
// writes can start at any time; close() writes the tail. Where the file system refuses O_DIRECT,
// the file is written the ordinary way. Written as PATH.part and renamed when closed, as every
// output (ubot/core/output_files.h).
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

  // Appends `bytes` and writes the whole blocks staged; an append of kDirectBytes or more turns
  // direct writes on for the rest of the file. Throws ubot::Error on a write error (the file is
  // then removed).
  void append(const char* data, std::size_t bytes);
  // Writes what is staged, closes and gives the file its name; throws ubot::Error on failure.
  void close();
  bool direct() const { return direct_; }

  static constexpr std::size_t kBlock = 4096;
  static constexpr std::size_t kDirectBytes = 256 * 1024;

 private:
  void write_blocks(std::size_t bytes);
  [[noreturn]] void fail(const char* what, int error);
  std::string path_;
  int fd_ = -1;
  bool direct_ = false;
  bool direct_refused_ = false;  // the file system said no
  struct Free {
    void operator()(char* p) const;
  };
  std::unique_ptr<char[], Free> buffer_;
  std::size_t capacity_ = 0;
  std::size_t size_ = 0;
};

}  // namespace ubot
