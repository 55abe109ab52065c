#pragma once
// Writes a record file's large buffers on a thread of its own, one buffer behind the producer:
// the step's thread formats step k+1 while step k goes to the kernel. A 1000-robot frames.jsonl
// line is 5.6 MB, and handing it to the kernel (page-cache copies, dirty-page throttling) took
// longer than formatting it. Small buffers (a small world's line) are written at once on the
// caller's thread: waking a thread for them would cost more than the write.
#include <condition_variable>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

namespace ubot {

class DirectOutput;

class BackgroundWriter {
 public:
  // Writes to `file` (owned by the caller, who closes it after drain()).
  explicit BackgroundWriter(DirectOutput& file);
  ~BackgroundWriter();
  BackgroundWriter(const BackgroundWriter&) = delete;
  BackgroundWriter& operator=(const BackgroundWriter&) = delete;

  // Appends `buffer` to the file, in call order. `buffer` is taken (it comes back empty, with
  // the capacity of an earlier buffer, so the producer does not reallocate). Throws the
  // ubot::Error of an earlier buffer's failed write.
  void write(std::string& buffer);
  // Returns once every buffer is in the file (what it stages aside); throws the first write
  // error.
  void drain();

 private:
  void run();
  void wait_idle(std::unique_lock<std::mutex>& lock);
  DirectOutput& file_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::string pending_;  // being written by the thread while busy_
  std::string spare_;    // the last buffer written, empty, handed back to the producer
  bool busy_ = false;
  bool stopping_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace ubot
