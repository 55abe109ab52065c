// Safe output files (issue 16, item 6): PATH.part until complete, then renamed.
#include "ubot/core/output_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include "ubot/core/error.h"

namespace ubot {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(testing::TempDir()) / (name + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(OutputFiles, AFileAppearsUnderItsNameOnlyWhenPublished) {
  const fs::path dir = fresh_dir("ubot-output-files-");
  const std::string path = (dir / "a.txt").string();
  EXPECT_EQ(partial_path(path), path + ".part");
  std::ofstream(partial_path(path)) << "new";
  EXPECT_FALSE(fs::exists(path));
  publish_output(path);
  EXPECT_EQ(read(path), "new");
  EXPECT_FALSE(fs::exists(path + ".part"));
  const std::vector<std::string> published = published_outputs();
  EXPECT_NE(std::find(published.begin(), published.end(), path), published.end());
  // Publishing replaces an older file in one rename.
  std::ofstream(partial_path(path)) << "newer";
  publish_output(path);
  EXPECT_EQ(read(path), "newer");
  fs::remove_all(dir);
}

TEST(OutputFiles, TheJournalHearsOfEachFileBeforeItAppearsUntilItIsStopped) {
  // Issue 27, item 4: `ubot run` journals each published file so the next run can remove the
  // files of one that was killed; the journal is called before the rename, so never too late.
  const fs::path dir = fresh_dir("ubot-output-journal-");
  const std::string a = (dir / "a.png").string(), b = (dir / "b.png").string();
  std::vector<std::pair<std::string, bool>> heard;  // path, and whether it existed yet
  set_publish_journal([&](const std::string& p) { heard.emplace_back(p, fs::exists(p)); });
  std::ofstream(partial_path(a)) << "a";
  publish_output(a);
  set_publish_journal({});
  std::ofstream(partial_path(b)) << "b";
  publish_output(b);
  ASSERT_EQ(heard.size(), 1u);
  EXPECT_EQ(heard[0].first, a);
  EXPECT_FALSE(heard[0].second);
  EXPECT_TRUE(fs::exists(a));
  EXPECT_TRUE(fs::exists(b));
  fs::remove_all(dir);
}

TEST(OutputFiles, ADiscardedWriteLeavesNothingAndAMissingPartIsAnError) {
  const fs::path dir = fresh_dir("ubot-output-discard-");
  const std::string path = (dir / "b.bin").string();
  std::ofstream(partial_path(path)) << "half";
  discard_output(path);
  EXPECT_FALSE(fs::exists(partial_path(path)));
  EXPECT_FALSE(fs::exists(path));
  try {
    publish_output(path);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot be written: No such file or directory");
  }
  fs::remove_all(dir);
}

TEST(OutputFiles, DevicesAndFifosAreWrittenInPlace) {
  // Renaming over /dev/full would replace the device with a regular file.
  EXPECT_EQ(partial_path("/dev/null"), "/dev/null");
  EXPECT_EQ(partial_path("/dev/full"), "/dev/full");
  const fs::path dir = fresh_dir("ubot-output-fifo-");
  const std::string fifo = (dir / "f").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(partial_path(fifo), fifo);
  check_writable(fifo);  // does not wait for a reader
  fs::remove_all(dir);
}

TEST(OutputFiles, CheckWritableCreatesTheFolderAndNamesWhatFails) {
  const fs::path dir = fresh_dir("ubot-output-check-");
  check_writable((dir / "x" / "y" / "m.las").string());
  EXPECT_TRUE(fs::is_directory(dir / "x" / "y"));
  EXPECT_TRUE(fs::is_empty(dir / "x" / "y"));  // the probe is removed
  try {
    check_writable((dir / "x").string());
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              (dir / "x").string() + ": cannot be written: it is a directory");
  }
  EXPECT_THROW(check_writable("/proc/ubot-no/m.las"), Error);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ubot
