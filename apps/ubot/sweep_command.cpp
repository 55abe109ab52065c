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
fs::path own_executable() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe;
}

void put_build_tree_package_on_path(const fs::path& exe) {
  if (exe.empty()) return;
  std::error_code ec;
  const fs::path package_root = exe.parent_path() / "python";
  if (!fs::exists(package_root / "ubot" / "__init__.py", ec)) return;
  std::string path = package_root.string();
  if (const char* old = std::getenv("PYTHONPATH"); old != nullptr && *old != '\0') {
    path += ":";
    path += old;
  }
  setenv("PYTHONPATH", path.c_str(), 1);
}

// $UBOT_PYTHON; else the interpreter beside the command when pip installed it into an
// environment's bin/ (the one whose site-packages hold this ubot); else Debian's.
std::string sweep_interpreter(const fs::path& exe) {
  const char* env_python = std::getenv("UBOT_PYTHON");
  if (env_python != nullptr && *env_python != '\0') return env_python;
  std::error_code ec;
  if (!exe.empty()) {
    const fs::path beside = exe.parent_path() / "python3";
    if (fs::exists(exe.parent_path().parent_path() / "pyvenv.cfg", ec) && fs::exists(beside, ec))
      return beside.string();
  }
  return "/usr/bin/python3";
}

}  // namespace

int run_sweep(const std::vector<std::string>& args) {
  const fs::path exe = own_executable();
  put_build_tree_package_on_path(exe);
  const std::string python = sweep_interpreter(exe);
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
