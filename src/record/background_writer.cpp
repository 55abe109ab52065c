#include "background_writer.h"

#include <utility>

#include "direct_output.h"

namespace ubot {
namespace {

// Below this a buffer is written on the caller's thread (a hand-over costs a few µs of wake-ups;
// a write this small costs about as much).
constexpr std::size_t kBackgroundBytes = 256 * 1024;

}  // namespace

BackgroundWriter::BackgroundWriter(DirectOutput& file) : file_(file), thread_([this] { run(); }) {}

BackgroundWriter::~BackgroundWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void BackgroundWriter::wait_idle(std::unique_lock<std::mutex>& lock) {
  changed_.wait(lock, [this] { return !busy_; });
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void BackgroundWriter::write(std::string& buffer) {
  std::unique_lock lock(mutex_);
  wait_idle(lock);
  if (buffer.size() < kBackgroundBytes) {
    lock.unlock();
    file_.append(buffer.data(), buffer.size());
    buffer.clear();
    return;
  }
  pending_.swap(buffer);
  buffer.swap(spare_);
  busy_ = true;
  lock.unlock();
  changed_.notify_all();
}

void BackgroundWriter::drain() {
  std::unique_lock lock(mutex_);
  wait_idle(lock);
}

void BackgroundWriter::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return busy_ || stopping_; });
    if (!busy_) return;  // stopping, nothing left
    lock.unlock();
    std::exception_ptr error;
    try {
      file_.append(pending_.data(), pending_.size());
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    pending_.clear();
    spare_.swap(pending_);
    error_ = error;
    busy_ = false;
    changed_.notify_all();
  }
}

}  // namespace ubot
