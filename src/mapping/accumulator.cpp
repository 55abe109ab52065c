#include "ubot/mapping/accumulator.h"

#include <fmt/format.h>

#include "ubot/core/error.h"

namespace ubot::mapping {

MapAccumulator::MapAccumulator(std::string name, PointMap map, std::vector<std::string> scanners,
                               bool threaded, Log warn)
    : name_(std::move(name)),
      scanner_names_(std::move(scanners)),
      warn_(std::move(warn)),
      map_(std::move(map)) {
  for (const std::string& s : scanner_names_) scanners_.push_back({.name = s});
  if (threaded) worker_ = std::thread([this] { work(); });
}

MapAccumulator::~MapAccumulator() {
  if (!worker_.joinable()) return;
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !pending_ && !busy_; });
    stop_ = true;
  }
  changed_.notify_all();
  worker_.join();
}

void MapAccumulator::add(PointBatch batch) {
  if (batch.scanner < 0 || batch.scanner >= static_cast<int>(scanners_.size())) {
    throw Error(fmt::format("map '{}': batch from unknown scanner {}", name_, batch.scanner));
  }
  if (!worker_.joinable()) {
    insert(batch);
    return;
  }
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !pending_ && !busy_; });  // at most one batch in flight
    pending_ = std::move(batch);
  }
  changed_.notify_all();
}

void MapAccumulator::flush() {
  if (!worker_.joinable()) return;
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return !pending_ && !busy_; });
}

const PointMap& MapAccumulator::map() {
  flush();
  return map_;
}

AccumulatorStats MapAccumulator::stats() {
  flush();
  AccumulatorStats s;
  s.name = name_;
  s.points = map_.size();
  s.bounds = map_.bounds();
  s.dropped_far = dropped_far_;
  s.memory_bytes = map_.memory_bytes();
  s.counters = map_.counters();
  s.scanners = scanners_;
  for (const ScannerStats& sc : scanners_) s.received += sc.points;
  return s;
}

void MapAccumulator::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return pending_ || stop_; });
    if (!pending_) return;  // stop requested and nothing left
    PointBatch batch = std::move(*pending_);
    pending_.reset();
    busy_ = true;
    lock.unlock();
    insert(batch);
    lock.lock();
    busy_ = false;
    changed_.notify_all();
  }
}

void MapAccumulator::insert(const PointBatch& batch) {
  ScannerStats& scanner = scanners_[batch.scanner];
  ++scanner.batches;
  scanner.points += batch.points_W.size();
  const double limit = kMaxRangeFactor * batch.range_max;
  const double limit2 = limit * limit;
  scratch_.clear();
  std::uint64_t dropped = 0;
  Eigen::Vector3d farthest = Eigen::Vector3d::Zero();
  for (std::size_t i = 0; i < batch.points_W.size(); ++i) {
    const Eigen::Vector3d& p = batch.points_W[i];
    if (!((p - batch.origin_W).squaredNorm() <= limit2)) {  // NaN counts as too far
      if (dropped++ == 0) farthest = p;
      continue;
    }
    scratch_.push_back({p, batch.intensities.empty() ? std::uint16_t{0} : batch.intensities[i]});
  }
  if (dropped > 0) {
    scanner.dropped_far += dropped;
    dropped_far_ += dropped;
    if (dropped_far_ >= next_warning_) {
      while (next_warning_ <= dropped_far_) next_warning_ *= 10;
      if (warn_) {
        warn_(fmt::format(
            "map '{}': {}: dropped {} point(s) farther than 1.5 x range_max ({} m) from the "
            "scanner at [{:.3f}, {:.3f}, {:.3f}], e.g. [{:.3f}, {:.3f}, {:.3f}] ({} dropped so "
            "far; "
            "next warning at {})",
            name_, scanner.name, dropped, limit, batch.origin_W.x(), batch.origin_W.y(),
            batch.origin_W.z(), farthest.x(), farthest.y(), farthest.z(), dropped_far_,
            next_warning_));
      }
    }
  }
  map_.insert(scratch_);
}

}  // namespace ubot::mapping
