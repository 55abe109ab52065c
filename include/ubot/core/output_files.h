#pragma once
// Safe output files (issue 16, item 6): every writer writes PATH under the temporary name
// PATH.part in the same folder and renames it to PATH once complete (rename(2) within a folder
// is atomic), so a file under its final name is always whole; a run that dies or fails leaves
// `.part` files, never a truncated output under a real name. The process keeps the list of the
// files it published (`ubot run` writes it as the output folder's manifest).
#include <functional>
#include <string>
#include <vector>

namespace ubot {

inline constexpr const char* kPartialSuffix = ".part";

// Where PATH is written until complete: PATH + ".part", or PATH itself when it exists and is
// neither a regular file nor a folder (a device such as /dev/null, a FIFO): nothing to replace.
std::string partial_path(const std::string& path);

// partial_path(path) for a writer about to create it: a symbolic link planted under that name
// is removed first (the link, never its target), so the writer cannot be led out of its folder.
std::string partial_path_for_writing(const std::string& path);

// Renames partial_path(path) to `path` (replacing an older file) and records `path`; an
// ubot::Error naming `path` if the rename fails.
void publish_output(const std::string& path);

// Calls `journal` with each path publish_output() is given, just before it renames the file into
// place (under the lock that orders publications), so that a process killed later has left a
// record of every file it published; an empty function stops it. `ubot run` journals into its
// output folder (apps/ubot/output_folder.h). `journal` must not throw.
void set_publish_journal(std::function<void(const std::string&)> journal);

// Removes partial_path(path), if any (a write that failed); never throws.
void discard_output(const std::string& path) noexcept;

// Every path publish_output() was given by this process, in order (thread-safe).
std::vector<std::string> published_outputs();

// Throws an ubot::Error naming `path` unless a file can be created there (its folder created
// first): the check made before a run's first step for outputs written only at its end.
void check_writable(const std::string& path);

}  // namespace ubot
