#include "output_folder.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <set>
#include <string_view>
#include <vector>

#include "ubot/core/error.h"
#include "ubot/core/output_files.h"
#include "ubot/sensors/camera/camera_images.h"

namespace ubot::app {
namespace {

// The journal's line naming its run (pid, start time), for the message of the run that removes
// a killed one's files.
constexpr const char* kRunLinePrefix = "# run:";

namespace fs = std::filesystem;

// `path` relative to `dir` when it lies inside it, else empty.
fs::path inside(const fs::path& dir, const fs::path& path) {
  const fs::path rel = fs::absolute(path).lexically_normal().lexically_relative(
      fs::absolute(dir).lexically_normal());
  if (rel.empty() || *rel.begin() == ".." || rel == ".") return {};
  return rel;
}

// A manifest line names a file inside the folder: relative, with no ".." (a hand-edited or
// hostile manifest cannot make ubot delete anything else).
bool safe_entry(const fs::path& rel) {
  if (rel.empty() || rel.is_absolute() || rel.has_root_name()) return false;
  return std::none_of(rel.begin(), rel.end(),
                      [](const fs::path& part) { return part == ".." || part == "."; });
}

// Whether every folder on the way from `dir` to `dir / rel` is a real folder, not a symbolic
// link (which could lead out of `dir`).
bool no_link_on_the_way(const fs::path& dir, const fs::path& rel) {
  fs::path at = dir;
  for (const fs::path& part : rel.parent_path()) {
    at /= part;
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(at, ec);
    if (ec || !fs::is_directory(status)) return false;  // a link's own status is not a folder
  }
  return true;
}

// Removes `file` if it is a file (or a symbolic link, not followed); never a folder. Whether it
// removed one.
bool remove_file(const fs::path& file) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(file, ec);
  if (ec || fs::is_directory(status) || !fs::exists(status)) return false;
  return fs::remove(file, ec);
}

// Removes the `*.part` files under `dir` (symbolic links to folders not followed): a killed run
// (SIGKILL, a power cut) leaves its outputs' temporary files and no manifest; the names are
// ubot's own (kPartialSuffix), so they are its to remove.
std::size_t remove_partial_files(const fs::path& dir) {
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  std::vector<fs::path> partial;
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    // A link named like a temporary file is removed itself (never its target): a writer would
    // follow it out of the folder. Links to folders are not followed (the iterator's default).
    if (name.size() > std::string_view(kPartialSuffix).size() && name.ends_with(kPartialSuffix) &&
        (it->is_symlink(ec) || it->is_regular_file(ec))) {
      partial.push_back(it->path());
    }
  }
  std::size_t removed = 0;
  for (const fs::path& p : partial) removed += remove_file(p);
  return removed;
}

// Refuses a folder in the kernel's file systems (/dev, /proc, /sys, links followed): as root,
// `--out /dev` wrote frames.jsonl, world.png and the manifest among the devices. /dev/shm is a
// memory file system users write runs to, and stays allowed.
void refuse_system_folder(const fs::path& dir) {
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(fs::absolute(dir), ec);
  if (ec) return;                      // create_output_dir says what is wrong with it
  auto top = std::next(real.begin());  // the part after "/"
  if (top == real.end()) return;
  if (*top == "dev" && std::next(top) != real.end() && *std::next(top) == "shm") return;
  for (const char* system : {"dev", "proc", "sys"}) {
    if (*top == system) {
      throw Error(
          fmt::format("{}: is under /{}, a folder of the kernel's, not one for outputs; "
                      "choose another --out",
                      dir.string(), system));
    }
  }
}

// Removes the files `list` (a manifest or a killed run's journal) names inside `dir`, and the
// folders that leaves empty; nothing when `list` does not exist. How many files it removed.
std::size_t remove_listed_files(const fs::path& dir, const fs::path& list) {
  std::ifstream in(list);
  if (!in) return 0;
  std::size_t removed = 0;
  std::set<fs::path> folders;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const fs::path rel = fs::path(line).lexically_normal();
    if (!safe_entry(rel) || !no_link_on_the_way(dir, rel)) continue;
    removed += remove_file(dir / rel);
    removed += remove_file(partial_path((dir / rel).string()));
    for (fs::path p = rel.parent_path(); !p.empty(); p = p.parent_path()) folders.insert(p);
  }
  in.close();
  // Deepest first, each only if now empty (fs::remove leaves a non-empty folder alone).
  for (auto it = folders.rbegin(); it != folders.rend(); ++it) {
    std::error_code ec;
    if (fs::is_directory(fs::symlink_status(dir / *it, ec))) fs::remove(dir / *it, ec);
  }
  return removed;
}

}  // namespace

OutputFolder::OutputFolder(fs::path dir) : dir_(std::move(dir)) {
  refuse_system_folder(dir_);
  create_output_dir(dir_);
  lock();
  // Before the check, whose probe is the journal's name: a killed run's journal is read first.
  remove_previous_outputs();
  check_writable((dir_ / kManifestName).string());
  start_journal();
}

// An exclusive flock(2) on the folder itself, held until the process ends: a second run into
// the same folder would remove this one's files (remove_previous_outputs) and write over them.
// The kernel drops the lock when the process dies, SIGKILL included, so it never goes stale.
void OutputFolder::lock() {
  lock_fd_ = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock_fd_ < 0) {
    throw Error(fmt::format("{}: cannot be opened: {}", dir_.string(), std::strerror(errno)));
  }
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) == 0) return;
  const int error = errno;
  ::close(lock_fd_);
  lock_fd_ = -1;
  if (error == EWOULDBLOCK) {
    throw Error(
        fmt::format("{}: another ubot run is writing its outputs into this folder; give "
                    "this run another --out, or wait for that one to end",
                    dir_.string()));
  }
  throw Error(fmt::format("{}: cannot be locked: {}", dir_.string(), std::strerror(error)));
}

OutputFolder::~OutputFolder() {
  if (!written_) {
    try {
      write_manifest();
    } catch (const std::exception&) {
      // Nothing to report from a destructor: the run's own error is on its way.
    }
    stop_journal();
  }
  if (lock_fd_ >= 0) ::close(lock_fd_);  // last: the lock guards the manifest too
}

// "pid 123, started 2026-12-07 12:20:01 UTC": the run a journal's "# run:" line names, or "".
static std::string journal_run(const fs::path& journal) {
  std::ifstream in(journal);
  std::string line;
  for (int i = 0; i < 4 && std::getline(in, line); ++i) {
    if (line.rfind(kRunLinePrefix, 0) == 0 && line.size() < 200) {
      return line.substr(std::strlen(kRunLinePrefix) + 1);
    }
  }
  return "";
}

void OutputFolder::remove_previous_outputs() {
  const fs::path manifest = dir_ / kManifestName;
  // The journal first: it is a `.part` file, which remove_partial_files removes.
  const fs::path journal = partial_path(manifest.string());
  const bool killed = fs::exists(fs::symlink_status(journal));
  const std::string run = killed ? journal_run(journal) : "";
  const std::size_t published = remove_listed_files(dir_, journal);
  remove_listed_files(dir_, manifest);  // the last finished run's: replaced, as documented
  std::size_t partial = remove_partial_files(dir_);
  if (killed && partial > 0) --partial;  // the journal itself
  remove_file(manifest);
  if (killed || partial > 0) {
    // Not this run's doing, and files the user may have wanted to look at: said once, on stderr.
    std::fprintf(stderr,
                 "ubot: %s: an earlier run into this folder did not finish (killed%s%s); removed "
                 "the %zu files it had written and %zu unfinished .part files\n",
                 dir_.string().c_str(), run.empty() ? "" : ": ", run.c_str(), published, partial);
  }
}

void OutputFolder::start_journal() {
  const std::string journal = partial_path_for_writing((dir_ / kManifestName).string());
  journal_ = std::fopen(journal.c_str(), "w");
  if (!journal_) {
    throw Error(fmt::format("{}: cannot be written: {}", journal, std::strerror(errno)));
  }
  std::fputs(
      "# The files a `ubot run` still running or killed has written here; the next run into "
      "this folder removes them first.\n",
      journal_);
  // Which run: the next one names it when it removes these files.
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char started[32];
  std::strftime(started, sizeof started, "%Y-%m-%d %H:%M:%S UTC", &utc);
  std::fprintf(journal_, "%s pid %ld, started %s\n", kRunLinePrefix, static_cast<long>(::getpid()),
               started);
  std::fflush(journal_);
  set_publish_journal([dir = dir_, file = journal_](const std::string& path) {
    const fs::path rel = inside(dir, path);
    if (rel.empty()) return;  // an output elsewhere (--mcap /tmp/x.mcap) is not this folder's
    // One line, flushed: the kernel has it even if the process is killed a moment later.
    std::fprintf(file, "%s\n", rel.generic_string().c_str());
    std::fflush(file);
  });
}

void OutputFolder::stop_journal() noexcept {
  set_publish_journal({});
  if (journal_) std::fclose(journal_);
  journal_ = nullptr;
}

void OutputFolder::write_manifest() {
  written_ = true;
  stop_journal();  // the manifest replaces it, under its name
  std::set<std::string> files;
  for (const std::string& path : published_outputs()) {
    const fs::path rel = inside(dir_, path);
    if (!rel.empty()) files.insert(rel.generic_string());
  }
  const std::string manifest = (dir_ / kManifestName).string();
  {
    std::ofstream out(partial_path_for_writing(manifest), std::ios::binary | std::ios::trunc);
    out << "# The files the last `ubot run` wrote here; the next run into this folder removes "
           "them first.\n";
    for (const std::string& f : files) out << f << '\n';
    out.close();
    if (!out) {
      discard_output(manifest);
      throw Error(manifest + ": cannot be written");
    }
  }
  publish_output(manifest);
}

}  // namespace ubot::app
