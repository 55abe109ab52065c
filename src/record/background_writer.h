#pragma once
// Writes a record file's large buffers on a thread of its own (a SerialWorker), one buffer
// behind the producer: the step's thread formats step k+1 while step k goes to the file. A
// 1000-robot frames.jsonl line is 5.6 MB, and handing it to the kernel took longer than
// formatting it. Small buffers (a small world's line) are written at once on the caller's
// thread: waking a thread for them would cost more than the write.
#include <string>

#include "ubot/core/serial_worker.h"

namespace ubot {

class DirectOutput;

class BackgroundWriter {
 public:
  // Writes to `file` (owned by the caller, who closes it after drain()).
  explicit BackgroundWriter(DirectOutput& file) : file_(file), worker_(1) {}

  // Appends `buffer` to the file, in call order. `buffer` is taken (it comes back empty, with
  // the capacity of an earlier buffer, so the producer does not reallocate). Throws the
  // ubot::Error of an earlier buffer's failed write.
  void write(std::string& buffer);
  // Returns once every buffer is in the file (what it stages aside); throws the first write
  // error.
  void drain() { worker_.wait(); }

 private:
  DirectOutput& file_;
  std::string pending_;  // being written by the worker until the next wait()
  SerialWorker worker_;  // last: its job (which uses pending_) ends before pending_ goes
};

}  // namespace ubot
