#pragma once
// A run's output folder (issue 16, item 6). When a run ends (normally, interrupted, or failing
// after it started writing) the files it wrote into the folder are listed in DIR/.ubot-outputs;
// the next run into the same folder first removes the files that list names, so no stale output
// of an earlier run (a camera image beyond this run's last, a map of another format) is mistaken
// for this one's. It also removes every `*.part` file in the folder (the temporary names of
// outputs being written, left by a killed run). While the run writes, each file it publishes is
// added to DIR/.ubot-outputs.part, the manifest's temporary name, before the file gets its
// name: a run killed with SIGKILL leaves that journal, and the next run removes what it lists
// too (camera images of the killed run never mix with the new run's). Other files ubot did not
// list are never touched. One run at a time: a run holds a lock on the folder, and a second run
// into it is refused with an error instead of removing the first one's files.
#include <cstdio>
#include <filesystem>
#include <string>

namespace ubot::app {

inline constexpr const char* kManifestName = ".ubot-outputs";

class OutputFolder {
 public:
  // Creates `dir`, checks that files can be created in it and removes the files of the previous
  // run listed in its manifest. An ubot::Error naming the folder if it cannot be written.
  explicit OutputFolder(std::filesystem::path dir);
  // Writes the manifest if write_manifest() was not called (a run ending by an exception).
  ~OutputFolder();
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  const std::filesystem::path& path() const { return dir_; }
  // Lists the files this process has written inside the folder (sorted, relative paths).
  void write_manifest();

 private:
  void lock();
  void remove_previous_outputs();
  void start_journal();
  void stop_journal() noexcept;
  std::filesystem::path dir_;
  std::FILE* journal_ = nullptr;
  bool written_ = false;
  int lock_fd_ = -1;  // the folder, flock'ed while the run lives (lock())
};

}  // namespace ubot::app
