// frames.jsonl at scale: many sensors' entries are formatted in pieces on the simulation's
// threads and the lines go to the file on a thread of their own (src/record/background_writer.h);
// the file must be the bytes one thread writes, in order, whatever the thread count.
#include "ubot/record/frames_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "../../src/record/background_writer.h"
#include "../../src/record/output_file.h"
#include "ubot/config/load_world.h"
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
  std::FILE* file = std::fopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr);
  std::string expected;
  {
    BackgroundWriter writer(file, path.string());
    for (int i = 0; i < 12; ++i) {
      // Alternating 1 MB buffers (written by the thread) and short ones (written at once).
      std::string buffer(i % 2 == 0 ? 1'000'000 : 10, static_cast<char>('a' + i));
      expected += buffer;
      writer.write(buffer);
      EXPECT_TRUE(buffer.empty());
    }
    writer.drain();
  }
  std::fclose(file);
  EXPECT_EQ(read_file(path), expected);
  fs::remove(path);
}

TEST(BackgroundWriter, AWriteErrorReachesTheProducer) {
  // /dev/full fails every write with ENOSPC once the stdio buffer is flushed: a 1 MB buffer
  // does at once.
  std::FILE* file = std::fopen("/dev/full", "wb");
  ASSERT_NE(file, nullptr);
  {
    BackgroundWriter writer(file, "/dev/full");
    std::string buffer(1'000'000, 'x');
    writer.write(buffer);
    EXPECT_THROW(writer.drain(), Error);
  }
  std::fclose(file);
}

}  // namespace
}  // namespace ubot
