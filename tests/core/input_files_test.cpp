#include "ubot/core/input_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "support/error_of.h"

namespace ubot {
namespace {

using testing_support::error_of;

TEST(InputFileStatus, SaysWhyAPathCannotBeRead) {
  const std::filesystem::path dir =
      std::filesystem::path(testing::TempDir()) / ("input_files_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "real.yaml") << "world: {}\n";
  std::filesystem::create_symlink("real.yaml", dir / "link.yaml");
  std::filesystem::create_symlink("loop.yaml", dir / "loop.yaml");
  EXPECT_TRUE(
      std::filesystem::is_regular_file(input_file_status((dir / "link.yaml").string(), "x")));
  EXPECT_EQ(
      error_of([&] { input_file_status((dir / "loop.yaml").string(), "file not found"); }),
      (dir / "loop.yaml").string() + ": a loop of symbolic links (each link leads to another)");
  // A loop on the way to the file too.
  EXPECT_EQ(
      error_of([&] { input_file_status((dir / "loop.yaml" / "w.yaml").string(), "missing"); }),
      (dir / "loop.yaml" / "w.yaml").string() +
          ": a loop of symbolic links (each link leads to another)");
  EXPECT_EQ(error_of([&] { input_file_status((dir / "none.yaml").string(), "no such mesh file"); }),
            (dir / "none.yaml").string() + ": no such mesh file");
  // A file where a folder should be: not there either.
  EXPECT_EQ(
      error_of([&] { input_file_status((dir / "real.yaml" / "w").string(), "file not found"); }),
      (dir / "real.yaml" / "w").string() + ": file not found");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ubot
