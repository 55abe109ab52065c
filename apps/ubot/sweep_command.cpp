#include "sweep_command.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace ubot::app {
namespace {

namespace fs = std::filesystem;

// The build puts the package into <build>/python/ubot beside <build>/ubot. An installed ubot
// has no such folder and uses the package installed for the interpreter (pip, docs/python.md).
void put_build_tree_package_on_path() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return;
  const fs::path package_root = exe.parent_path() / "python";
  if (!fs::exists(package_root / "ubot" / "__init__.py", ec)) return;
  std::string path = package_root.string();
  if (const char* old = std::getenv("PYTHONPATH"); old != nullptr && *old != '\0') {
    path += ":";
    path += old;
  }
  setenv("PYTHONPATH", path.c_str(), 1);
}

}  // namespace

int run_sweep(const std::vector<std::string>& args) {
  put_build_tree_package_on_path();
  const char* env_python = std::getenv("UBOT_PYTHON");
  const std::string python =
      env_python != nullptr && *env_python != '\0' ? env_python : "/usr/bin/python3";
  std::vector<std::string> words = {python, "-m", "ubot.sweep"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  execv(python.c_str(), argv.data());
  std::fprintf(stderr, "ubot: error: cannot run %s for `ubot sweep`: %s\n", python.c_str(),
               std::strerror(errno));
  return 1;
}

}  // namespace ubot::app
