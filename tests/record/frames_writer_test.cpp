// frames.jsonl at scale: many sensors' entries are formatted in pieces on the simulation's
// threads and the lines go to the file on a thread of their own (src/record/background_writer.h);
// the file must be the bytes one thread writes, in order, whatever the thread count.
#include "ubot/record/frames_writer.h"

#include <gtest/gtest.h>

#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "../../src/record/background_writer.h"
#include "../../src/record/direct_output.h"
#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/core/output_files.h"
#include "ubot/sim/simulation.h"

namespace ubot {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// 150 robots with lidars (5 pieces of 32 entries), written for `steps` steps.
std::string frames_of(int threads, int steps, const fs::path& dir) {
  std::string yaml = "world: {width: 60, height: 60, step_time: 0.1}\nrobot:\n";
  yaml +=
      "  - number: 150\n"
      "    distribution: {name: random, range_low: [1, 1, -3], range_high: [59, 59, 3]}\n"
      "    kinematics: {name: diff}\n"
      "    shape: {name: circle, radius: 0.2}\n"
      "    behavior: {name: dash, wander: true, range_low: [1, 1, -3], range_high: [59, 59, 3]}\n"
      "    sensors: [{name: lidar2d, range_max: 8, number: 90}]\n";
  Simulation sim(load_world_from_string(yaml, "frames.yaml", {.seed = 3}), {.threads = threads});
  const fs::path path = dir / ("frames_" + std::to_string(threads) + ".jsonl");
  FramesWriter writer(path.string(), sim);
  for (int k = 0; k < steps; ++k) {
    sim.step();
    writer.write_step(sim);
  }
  writer.close();
  return read_file(path);
}

TEST(FramesWriter, ManySensorsGiveTheSameBytesWhateverTheThreads) {
  const fs::path dir = fs::temp_directory_path() / ("ubot_frames_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string one = frames_of(1, 4, dir);
  const std::string four = frames_of(4, 4, dir);
  fs::remove_all(dir);
  EXPECT_EQ(one, four);
  // Header and 4 step lines, each whole; the sensors of a step in object order.
  std::istringstream lines(one);
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    ++count;
    if (count == 1) continue;
    std::size_t at = 0;
    for (int id = 0; id < 150; ++id) {
      const std::string entry = "{\"object_id\":" + std::to_string(id) + ",\"index\":0,";
      const std::size_t found = line.find(entry, at);
      ASSERT_NE(found, std::string::npos) << "step line " << count - 1 << ", object " << id;
      at = found + entry.size();
    }
    EXPECT_EQ(line.find("}{"), std::string::npos);  // no missing comma between pieces
    EXPECT_EQ(line.find(",,"), std::string::npos);
  }
  EXPECT_EQ(count, 5);
}

TEST(BackgroundWriter, LargeAndSmallBuffersReachTheFileInOrder) {
  const fs::path path = fs::temp_directory_path() / ("ubot_bg_" + std::to_string(getpid()));
  std::string expected;
  {
    DirectOutput file(path.string());
    BackgroundWriter writer(file);
    for (int i = 0; i < 12; ++i) {
      // Alternating 1 MB buffers (written by the thread) and short ones (written at once).
      std::string buffer(i % 2 == 0 ? 1'000'000 : 10, static_cast<char>('a' + i));
      expected += buffer;
      writer.write(buffer);
      EXPECT_TRUE(buffer.empty());
    }
    writer.drain();
    file.close();
  }
  EXPECT_EQ(read_file(path), expected);
  fs::remove(path);
}

TEST(DirectOutput, AnySizeReachesTheFileWholeUnderItsName) {
  // Whole blocks go past the page cache, the tail through it; sizes around the block and the
  // flush size, and a file of one short line (the tail only).
  const fs::path path = fs::temp_directory_path() / ("ubot_direct_" + std::to_string(getpid()));
  for (const std::size_t size :
       {std::size_t{0}, std::size_t{17}, DirectOutput::kBlock - 1, DirectOutput::kBlock,
        DirectOutput::kDirectBytes + 1, 5 * DirectOutput::kDirectBytes + 4097}) {
    std::string expected;
    {
      DirectOutput file(path.string());
      EXPECT_TRUE(fs::exists(partial_path(path.string())));
      std::size_t written = 0;
      int piece = 0;
      while (written < size) {  // pieces of varied lengths, each a different letter
        const std::size_t n =
            std::min(size - written, static_cast<std::size_t>(1000 + 7919 * piece % 300000));
        const std::string bytes(n, static_cast<char>('a' + piece++ % 26));
        file.append(bytes.data(), bytes.size());
        expected += bytes;
        written += n;
      }
      file.close();
    }
    EXPECT_FALSE(fs::exists(partial_path(path.string())));
    EXPECT_EQ(read_file(path), expected) << size << " bytes";
  }
  fs::remove(path);
}

TEST(DirectOutput, SmallLinesGoThroughThePageCacheABlockAtATimeLargeOnesPastIt) {
  // A small world's lines reach the file a block at a time, as the run goes (tail -f on the
  // .part file sees them); a large line turns direct writes on.
  const fs::path path = fs::temp_directory_path() / ("ubot_blocks_" + std::to_string(getpid()));
  const std::string part = partial_path(path.string());
  DirectOutput file(path.string());
  const std::string line(1000, 'l');
  for (int i = 0; i < 5; ++i) file.append(line.data(), line.size());
  EXPECT_FALSE(file.direct());
  EXPECT_EQ(fs::file_size(part), DirectOutput::kBlock);  // 5000 bytes staged: one whole block
  const std::string large(DirectOutput::kDirectBytes + 10, 'L');
  file.append(large.data(), large.size());
  EXPECT_EQ(fs::file_size(part) % DirectOutput::kBlock, 0u);
  EXPECT_GE(fs::file_size(part), 5000 + large.size() - DirectOutput::kBlock);
  file.close();
  EXPECT_EQ(fs::file_size(path), 5000 + large.size());
  fs::remove(path);
}

TEST(DirectOutput, OnTmpfsTooTheFileIsWhole) {
  // tmpfs takes O_DIRECT from Linux 6.6 on; before, open(2) says EINVAL and the file is opened
  // the ordinary way. Either way the bytes are the same.
  if (!fs::is_directory("/dev/shm")) GTEST_SKIP() << "no /dev/shm";
  const fs::path path = fs::path("/dev/shm") / ("ubot_tmpfs_" + std::to_string(getpid()));
  const std::string bytes(3 * DirectOutput::kDirectBytes + 123, 'q');
  {
    DirectOutput file(path.string());
    file.append(bytes.data(), bytes.size());
    file.close();
  }
  EXPECT_EQ(read_file(path), bytes);
  fs::remove(path);
}

TEST(DirectOutput, AWriteErrorIsAnErrorNamingTheFileAndLeavesNoFile) {
  // A file-size limit makes write(2) fail with EFBIG (SIGXFSZ ignored), as a full disk would
  // with ENOSPC.
  const fs::path path = fs::temp_directory_path() / ("ubot_efbig_" + std::to_string(getpid()));
  rlimit before{};
  getrlimit(RLIMIT_FSIZE, &before);
  const auto previous = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = before;
  small.rlim_cur = 1 << 20;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  try {
    DirectOutput file(path.string());
    const std::string bytes(3 << 20, 'x');
    file.append(bytes.data(), bytes.size());
    file.close();
    ADD_FAILURE() << "no error past the file-size limit";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
  setrlimit(RLIMIT_FSIZE, &before);
  std::signal(SIGXFSZ, previous);
  EXPECT_FALSE(fs::exists(partial_path(path.string())));
  EXPECT_FALSE(fs::exists(path));
}

}  // namespace
}  // namespace ubot
