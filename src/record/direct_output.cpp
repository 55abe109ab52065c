#include "direct_output.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "ubot/core/error.h"
#include "ubot/core/output_files.h"

namespace ubot {
namespace {

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

// write(2) until done: a direct write may be short, a signal may interrupt it.
bool write_all(int fd, const char* data, std::size_t bytes) {
  while (bytes > 0) {
    const ssize_t n = ::write(fd, data, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    bytes -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

void DirectOutput::Free::operator()(char* p) const { std::free(p); }

DirectOutput::DirectOutput(std::string path) : path_(std::move(path)) {
  fd_ = ::open(partial_path_for_writing(path_).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
               0666);
  if (fd_ < 0) throw Error(fmt::format("{}: cannot be written: {}", path_, std::strerror(errno)));
  capacity_ = kDirectBytes;
  buffer_.reset(static_cast<char*>(std::aligned_alloc(kBlock, capacity_)));
  if (!buffer_) fail("out of memory", ENOMEM);
}

DirectOutput::~DirectOutput() {
  if (fd_ >= 0) ::close(fd_);  // a run that failed elsewhere: PATH.part stays, as it was
}

void DirectOutput::fail(const char* what, int error) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  discard_output(path_);
  throw Error(fmt::format("{}: {}: {}", path_, what, std::strerror(error)));
}

void DirectOutput::append(const char* data, std::size_t bytes) {
  if (fd_ < 0) throw Error(path_ + ": written after close");
  if (size_ + bytes > capacity_) {  // grow, keeping the alignment (a line longer than 2 MiB)
    const std::size_t capacity = round_up(2 * (size_ + bytes), kBlock);
    std::unique_ptr<char[], Free> grown(static_cast<char*>(std::aligned_alloc(kBlock, capacity)));
    if (!grown) fail("out of memory", ENOMEM);
    std::memcpy(grown.get(), buffer_.get(), size_);
    buffer_ = std::move(grown);
    capacity_ = capacity;
  }
  std::memcpy(buffer_.get() + size_, data, bytes);
  size_ += bytes;
  if (bytes >= kDirectBytes && !direct_ && !direct_refused_) {
    // The offset is a whole number of blocks (only whole blocks were written): direct writes
    // may start here. tmpfs before Linux 6.6 and some others say EINVAL: stay as we are.
    direct_ = ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) | O_DIRECT) == 0;
    direct_refused_ = !direct_;
  }
  if (size_ >= kBlock) write_blocks(size_ / kBlock * kBlock);
}

// Writes the first `bytes` (whole blocks) and moves the rest to the front.
void DirectOutput::write_blocks(std::size_t bytes) {
  if (!write_all(fd_, buffer_.get(), bytes)) {
    // A file system that took O_DIRECT but wants other alignments says EINVAL (nothing
    // was written): go on through the page cache.
    const bool retry =
        direct_ && errno == EINVAL && ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_DIRECT) == 0;
    direct_ = direct_ && !retry;
    direct_refused_ = direct_refused_ || retry;
    if (!retry || !write_all(fd_, buffer_.get(), bytes)) fail("write failed", errno);
  }
  std::memmove(buffer_.get(), buffer_.get() + bytes, size_ - bytes);
  size_ -= bytes;
}

void DirectOutput::close() {
  if (fd_ < 0) return;
  write_blocks(size_ / kBlock * kBlock);
  // The tail is not a whole block: written through the page cache.
  if (direct_ && size_ > 0 && ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_DIRECT) != 0) {
    fail("write failed", errno);
  }
  if (size_ > 0) write_blocks(size_);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    discard_output(path_);
    throw Error(fmt::format("{}: write failed: {}", path_, std::strerror(errno)));
  }
  publish_output(path_);
}

}  // namespace ubot
