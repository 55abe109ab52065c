#pragma once
// The record writers' file handling: a write or close error is an ubot::Error naming the file.
// A file is written as PATH.part and renamed to PATH when closed (ubot/core/output_files.h).
#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "ubot/core/error.h"
#include "ubot/core/output_files.h"

namespace ubot {

inline std::FILE* open_output(const std::string& path) {
  std::FILE* file = std::fopen(partial_path_for_writing(path).c_str(), "wb");
  if (!file) throw Error(fmt::format("{}: cannot be written: {}", path, std::strerror(errno)));
  return file;
}

inline void write_output(std::FILE* file, const void* data, std::size_t bytes,
                         const std::string& path) {
  if (bytes > 0 && std::fwrite(data, 1, bytes, file) != bytes) {
    throw Error(fmt::format("{}: write failed: {}", path, std::strerror(errno)));
  }
}

// Flushes and closes `file` (then null) and gives it its final name; nothing when it is already
// null. A failed write leaves no file behind.
inline void close_output(std::FILE*& file, const std::string& path) {
  if (!file) return;
  const bool failed = std::fflush(file) != 0 || std::ferror(file);
  const int error = errno;
  const bool closed = std::fclose(file) == 0;
  file = nullptr;
  if (failed || !closed) {
    discard_output(path);
    throw Error(fmt::format("{}: write failed: {}", path, std::strerror(failed ? error : errno)));
  }
  publish_output(path);
}

}  // namespace ubot
