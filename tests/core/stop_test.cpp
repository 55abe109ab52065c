// The stop request (ubot/core/stop.h): the first signal wins, the finishing budget runs down
// from it, and clear_stop forgets it.
#include "ubot/core/stop.h"

#include <gtest/gtest.h>

#include <csignal>
#include <thread>

namespace ubot {
namespace {

struct StopRequest : ::testing::Test {
  void SetUp() override { clear_stop(); }
  void TearDown() override { clear_stop(); }
};

TEST_F(StopRequest, NoneUntilRequestedThenTheFirstSignalWins) {
  EXPECT_EQ(stop_requested(), 0);
  EXPECT_NO_THROW(throw_if_stop_requested());
  EXPECT_EQ(finish_time_left_ns(), kFinishBudgetNs);
  EXPECT_FALSE(finish_budget_spent());
  request_stop(SIGTERM);
  request_stop(SIGINT);
  EXPECT_EQ(stop_requested(), SIGTERM);
  try {
    throw_if_stop_requested();
    FAIL() << "no Stopped thrown";
  } catch (const Stopped& s) {
    EXPECT_EQ(s.signal, SIGTERM);
  }
}

TEST_F(StopRequest, TheFinishingBudgetRunsDownFromTheRequest) {
  request_stop(SIGINT);
  const std::int64_t first = finish_time_left_ns();
  EXPECT_LE(first, kFinishBudgetNs);
  EXPECT_GT(first, kFinishBudgetNs - 500'000'000);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_LE(finish_time_left_ns(), first - 20'000'000);
  EXPECT_FALSE(finish_budget_spent());
  EXPECT_LT(kFinishBudgetNs, kStopBudgetNs);  // room to close the files after the budget
}

TEST_F(StopRequest, ClearStopForgetsTheRequest) {
  request_stop(SIGINT);
  clear_stop();
  EXPECT_EQ(stop_requested(), 0);
  EXPECT_EQ(finish_time_left_ns(), kFinishBudgetNs);
  request_stop(SIGTERM);
  EXPECT_EQ(stop_requested(), SIGTERM);
}

}  // namespace
}  // namespace ubot
