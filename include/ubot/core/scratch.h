#pragma once
// Scratch<T>: working storage an object reuses between calls (a sensor's rays and hits of one
// sample), which every call overwrites before it reads it. It is not the object's state, so
// copying the object leaves it out: a copy starts with an empty T, and an assignment keeps the
// target's own storage. Sensor snapshots (Sensor::clone, copy_state_from) then neither allocate
// nor copy megabytes of buffers that the next sample rewrites anyway (docs/determinism.md).
#include <utility>

namespace ubot {

template <class T>
class Scratch {
 public:
  Scratch() = default;
  Scratch(const Scratch& /*other*/) {}
  Scratch(Scratch&& other) noexcept : value_(std::move(other.value_)) {}
  Scratch& operator=(const Scratch& /*other*/) { return *this; }
  Scratch& operator=(Scratch&& other) noexcept {
    value_ = std::move(other.value_);
    return *this;
  }
  ~Scratch() = default;

  T& operator*() { return value_; }
  const T& operator*() const { return value_; }
  T* operator->() { return &value_; }
  const T* operator->() const { return &value_; }

 private:
  T value_{};
};

}  // namespace ubot
