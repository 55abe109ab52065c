// The run's sinks after a stop signal whose finishing budget is spent (ubot/core/stop.h): the
// records are closed whole, the pictures (world.png, the IMU plots, run.gif's later frames) are
// left out without a half file, and each sink says what it left out.
#include "ubot/outputs/run_sinks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>

#include "support/paths.h"
#include "ubot/config/load_world.h"
#include "ubot/core/stop.h"
#include "ubot/sim/simulation.h"

namespace ubot {
namespace {

namespace fs = std::filesystem;
using testing_support::source_path;

struct SpentBudget : ::testing::Test {
  void SetUp() override {
    clear_stop();
    out = fs::temp_directory_path() / ("ubot_sinks_" + std::to_string(getpid()));
    fs::remove_all(out);
    fs::create_directories(out);
  }
  void TearDown() override {
    clear_stop();
    fs::remove_all(out);
  }
  // Asks to stop and waits until the finishing budget is spent.
  static void spend_the_budget() {
    request_stop(SIGTERM);
    while (!finish_budget_spent()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  fs::path out;
};

TEST_F(SpentBudget, PicturesAreLeftOutAndSaidRecordsAreClosed) {
  Simulation sim(load_world(source_path("examples/imu_world.yaml")));
  auto imu = outputs::imu_outputs_sink(sim, out);
  auto pictures = outputs::pictures_sink(sim, out, {.gif = true, .png = true});
  auto frames = outputs::frames_sink(sim, out, 1);
  for (int k = 1; k <= 5; ++k) {
    sim.step();
    for (Sink* s : {imu.get(), pictures.get(), frames.get()}) s->on_step(sim, {k, k == 5});
  }
  spend_the_budget();
  for (Sink* s : {imu.get(), pictures.get(), frames.get()}) EXPECT_NO_THROW(s->on_finish(sim));

  EXPECT_TRUE(fs::exists(out / "frames.jsonl"));
  EXPECT_TRUE(fs::exists(out / "run.gif"));  // closed with the frames it had
  EXPECT_FALSE(fs::exists(out / "world.png"));
  EXPECT_FALSE(fs::exists(out / "world.png.part"));
  const std::vector<std::string> left_out = pictures->skipped();
  EXPECT_NE(std::find(left_out.begin(), left_out.end(), "world.png"), left_out.end());

  // The IMU's CSV is whole; its plot is not drawn, and the sink names it.
  std::size_t csvs = 0;
  for (const auto& entry : fs::recursive_directory_iterator(out)) {
    const std::string name = entry.path().filename().string();
    EXPECT_EQ(name.find(".part"), std::string::npos) << entry.path();
    if (entry.path().extension() == ".csv") ++csvs;
    if (entry.path().extension() == ".png") ADD_FAILURE() << "drawn: " << entry.path();
  }
  EXPECT_GE(csvs, 1u);
  EXPECT_EQ(imu->skipped().size(), csvs);
  for (const std::string& plot : imu->skipped()) {
    EXPECT_TRUE(plot.ends_with(".png")) << plot;
    EXPECT_NE(plot.find('/'), std::string::npos) << plot;  // <object>/<imu>.png
  }
}

TEST_F(SpentBudget, NothingIsLeftOutWithoutAStop) {
  Simulation sim(load_world(source_path("examples/imu_world.yaml")));
  auto imu = outputs::imu_outputs_sink(sim, out);
  auto pictures = outputs::pictures_sink(sim, out, {.gif = false, .png = true});
  sim.step();
  imu->on_step(sim, {1, true});
  pictures->on_step(sim, {1, true});
  imu->on_finish(sim);
  pictures->on_finish(sim);
  EXPECT_TRUE(fs::exists(out / "world.png"));
  EXPECT_TRUE(imu->skipped().empty());
  EXPECT_TRUE(pictures->skipped().empty());
}

}  // namespace
}  // namespace ubot
