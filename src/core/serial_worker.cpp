#include "ubot/core/serial_worker.h"

#include <utility>

namespace ubot {

SerialWorker::SerialWorker(std::size_t depth) : depth_(depth), thread_([this] { run(); }) {}

SerialWorker::~SerialWorker() {
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return jobs_.empty() && !running_; });
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void SerialWorker::rethrow_locked() {
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void SerialWorker::submit(std::function<void()> job) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return jobs_.size() < depth_ || error_; });
  rethrow_locked();
  jobs_.push_back(std::move(job));
  lock.unlock();
  changed_.notify_all();
}

void SerialWorker::wait() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return (jobs_.empty() && !running_) || error_; });
  rethrow_locked();
}

void SerialWorker::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return !jobs_.empty() || stopping_; });
    if (jobs_.empty()) return;  // stopping
    std::function<void()> job = std::move(jobs_.front());
    jobs_.pop_front();
    running_ = true;
    lock.unlock();
    changed_.notify_all();  // a place in the queue is free
    std::exception_ptr error;
    try {
      job();
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    running_ = false;
    if (error) {
      error_ = error;
      jobs_.clear();  // what follows a failed job is not run
    }
    changed_.notify_all();
  }
}

}  // namespace ubot
