#include "ubot/core/output_files.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <utility>

#include "ubot/core/error.h"

namespace ubot {
namespace {

struct Published {
  std::mutex mutex;
  std::vector<std::string> paths;
  std::function<void(const std::string&)> journal;
};

Published& published() {
  static Published p;
  return p;
}

}  // namespace

std::string partial_path(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  const bool special = std::filesystem::exists(status) &&
                       !std::filesystem::is_regular_file(status) &&
                       !std::filesystem::is_directory(status);
  return special ? path : path + kPartialSuffix;
}

std::string partial_path_for_writing(const std::string& path) {
  const std::string partial = partial_path(path);
  if (partial != path) {
    std::error_code ec;
    if (std::filesystem::is_symlink(std::filesystem::symlink_status(partial, ec))) {
      std::filesystem::remove(partial, ec);
    }
  }
  return partial;
}

void publish_output(const std::string& path) {
  const std::string partial = partial_path(path);
  Published& p = published();
  const std::lock_guard lock(p.mutex);
  // Journaled before the rename: a kill between the two leaves a name without its file, never
  // a file without its name.
  if (p.journal) p.journal(path);
  if (partial != path && std::rename(partial.c_str(), path.c_str()) != 0) {
    const int error = errno;
    discard_output(path);
    throw Error(path + ": cannot be written: " + std::strerror(error));
  }
  p.paths.push_back(path);
}

void set_publish_journal(std::function<void(const std::string&)> journal) {
  Published& p = published();
  const std::lock_guard lock(p.mutex);
  p.journal = std::move(journal);
}

void discard_output(const std::string& path) noexcept {
  try {
    const std::string partial = partial_path(path);
    if (partial != path) std::remove(partial.c_str());
  } catch (...) {
    // Only allocation can throw here; a partial file left behind is the lesser harm.
  }
}

std::vector<std::string> published_outputs() {
  Published& p = published();
  const std::lock_guard lock(p.mutex);
  return p.paths;
}

void check_writable(const std::string& path) {
  const std::filesystem::path file(path);
  std::error_code ec;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
  if (ec) {
    throw Error(path + ": cannot be written: " + file.parent_path().string() + ": " + ec.message());
  }
  if (std::filesystem::is_directory(file, ec)) {
    throw Error(path + ": cannot be written: it is a directory");
  }
  const std::string probe = partial_path(path);
  if (probe == path) {  // a device or FIFO: opening a FIFO would wait for a reader
    if (access(path.c_str(), W_OK) != 0) {
      throw Error(path + ": cannot be written: " + std::strerror(errno));
    }
    return;
  }
  std::FILE* f = std::fopen(probe.c_str(), "wb");
  if (!f) throw Error(path + ": cannot be written: " + std::strerror(errno));
  std::fclose(f);
  std::remove(probe.c_str());
}

}  // namespace ubot
