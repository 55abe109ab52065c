#pragma once
// One thread that runs the jobs it is given, in order, beside the caller: a record's encoding
// (run.gif's frames: painting, palette mapping, LZW) overlaps the next step instead of adding to
// it. At most `depth` jobs wait; submit() blocks beyond that, so memory stays bounded when the
// encoder is slower than the steps. The output is the same bytes as running the jobs in place:
// they run one after another, in submission order.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace ubot {

class SerialWorker {
 public:
  explicit SerialWorker(std::size_t depth = 2);
  // Waits for the jobs submitted; an error they threw is dropped (call wait() to see it).
  ~SerialWorker();
  SerialWorker(const SerialWorker&) = delete;
  SerialWorker& operator=(const SerialWorker&) = delete;

  // Queues `job`. Once a job has thrown, later jobs are dropped and submit() and wait() rethrow
  // its exception (once).
  void submit(std::function<void()> job);
  // Returns when every job submitted has run; rethrows the first exception one threw.
  void wait();

 private:
  void run();
  void rethrow_locked();
  std::size_t depth_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> jobs_;
  bool running_ = false;  // a job is out of the queue, running
  bool stopping_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace ubot
