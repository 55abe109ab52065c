#pragma once
// Temporary directories and files for the grid-map tests (the pid in every name: ctest runs
// tests in parallel).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace ubot::grid_test {

// A fresh directory /tmp/ubot_grid_<pid>_<name>, removed by the destructor.
class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("ubot_grid_" + std::to_string(::getpid()) + "_" + name)) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::string write(const std::string& name, const std::string& bytes) const {
    std::ofstream(file(name), std::ios::binary) << bytes;
    return file(name);
  }

 private:
  std::filesystem::path path_;
};

}  // namespace ubot::grid_test
