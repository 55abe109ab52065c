// SerialWorker (ubot/core/serial_worker.h): jobs run in submission order on another thread, an
// error reaches the caller and drops what follows it, and at most `depth` jobs wait.
#include "ubot/core/serial_worker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

namespace ubot {
namespace {

TEST(SerialWorker, RunsJobsInOrderOnAnotherThread) {
  std::vector<int> order;
  std::thread::id ran_on;
  SerialWorker worker(3);
  for (int i = 0; i < 100; ++i) {
    worker.submit([&order, &ran_on, i] {
      ran_on = std::this_thread::get_id();
      order.push_back(i);
    });
  }
  worker.wait();
  ASSERT_EQ(order.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(order[i], i);
  EXPECT_NE(ran_on, std::this_thread::get_id());
}

TEST(SerialWorker, AnErrorReachesTheCallerAndDropsTheJobsAfterIt) {
  SerialWorker worker(8);
  std::atomic<int> ran{0};
  std::atomic<bool> go{false};
  worker.submit([&] {
    while (!go) std::this_thread::yield();
    throw std::runtime_error("disk full");
  });
  worker.submit([&] { ++ran; });  // queued behind the failing job
  go = true;
  EXPECT_THROW(worker.wait(), std::runtime_error);
  EXPECT_EQ(ran, 0);
  // Reported once; the worker takes jobs again.
  worker.submit([&] { ++ran; });
  worker.wait();
  EXPECT_EQ(ran, 1);
}

TEST(SerialWorker, SubmitWaitsWhenDepthJobsAreQueued) {
  SerialWorker worker(1);
  std::atomic<bool> release{false};
  worker.submit([&] {
    while (!release) std::this_thread::yield();
  });
  worker.submit([] {});  // waits in the queue (depth 1) while the first runs
  std::atomic<bool> third_queued{false};
  std::thread producer([&] {
    worker.submit([] {});
    third_queued = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(third_queued);  // blocked: one running, one waiting
  release = true;
  producer.join();
  EXPECT_TRUE(third_queued);
  worker.wait();
}

TEST(SerialWorker, TheDestructorWaitsForTheJobs) {
  std::atomic<int> ran{0};
  {
    SerialWorker worker;
    for (int i = 0; i < 10; ++i) {
      worker.submit([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        ++ran;
      });
    }
  }
  EXPECT_EQ(ran, 10);
}

}  // namespace
}  // namespace ubot
