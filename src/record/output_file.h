#pragma once
// The record writers' file handling: a write or close error is an ubot::Error naming the file.
#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "ubot/core/error.h"

namespace ubot {

inline std::FILE* open_output(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) throw Error(fmt::format("{}: cannot be written: {}", path, std::strerror(errno)));
  return file;
}

inline void write_output(std::FILE* file, const void* data, std::size_t bytes,
                         const std::string& path) {
  if (bytes > 0 && std::fwrite(data, 1, bytes, file) != bytes) {
    throw Error(fmt::format("{}: write failed: {}", path, std::strerror(errno)));
  }
}

// Flushes and closes `file` (then null); nothing when it is already null.
inline void close_output(std::FILE*& file, const std::string& path) {
  if (!file) return;
  const bool failed = std::fflush(file) != 0 || std::ferror(file);
  const int error = errno;
  std::fclose(file);
  file = nullptr;
  if (failed) throw Error(fmt::format("{}: write failed: {}", path, std::strerror(error)));
}

}  // namespace ubot
