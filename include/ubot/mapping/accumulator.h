#pragma once
// MapAccumulator: accumulates scanner points into a PointMap while a simulation runs (SPEC §11).
//
// Input is generic: a batch of world-frame points (double) from one scanner, with intensities,
// the scanner's position and its range_max. Any sensor plugs in with one adapter that builds a
// PointBatch (see sim_mapper.h for lidar2d).
//
// Threading and determinism: add() hands a batch to one insertion worker and returns; at most
// one batch is in flight, so add() first waits for the previous batch to be inserted. Batches
// are therefore inserted one after the other in the order they were added, exactly as a
// synchronous insert would do them: the map is identical whatever the thread timing. flush()
// blocks until every added batch is in the map; it precedes every read, save and stop.
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <Eigen/Core>

#include "ubot/mapping/point_map.h"

namespace ubot::mapping {

// Points farther than this many range_max from their scanner are dropped (SPEC §11 guard).
inline constexpr double kMaxRangeFactor = 1.5;

struct PointBatch {
  int scanner = 0;                                     // index into the accumulator's scanners
  Eigen::Vector3d origin_W = Eigen::Vector3d::Zero();  // scanner position at the sample
  double range_max = 0.0;                              // metres
  std::vector<Eigen::Vector3d> points_W;               // world frame
  std::vector<std::uint16_t> intensities;              // LAS scale; empty = all 0
};

struct ScannerStats {
  std::string name;  // e.g. "robot_0/lidar2d_0"
  std::uint64_t batches = 0;
  std::uint64_t points = 0;       // points received
  std::uint64_t dropped_far = 0;  // beyond 1.5 × range_max
};

struct AccumulatorStats {
  std::string name;
  std::size_t points = 0;  // points in the map
  Bounds bounds;
  std::uint64_t received = 0;     // points received from every scanner
  std::uint64_t dropped_far = 0;  // dropped by the range guard
  std::size_t memory_bytes = 0;
  PointMapCounters counters;  // inserted / merged / replaced / rejected, re-bounds, ...
  std::vector<ScannerStats> scanners;
};

class MapAccumulator {
 public:
  using Log = std::function<void(const std::string&)>;
  // `scanners` names the batch sources (PointBatch::scanner indexes it). With `threaded` false
  // batches are inserted inside add() (the reference for the determinism tests). `warn`
  // receives the range guard's warnings (from the worker thread).
  MapAccumulator(std::string name, PointMap map, std::vector<std::string> scanners,
                 bool threaded = true, Log warn = {});
  ~MapAccumulator();  // flushes and stops the worker
  MapAccumulator(const MapAccumulator&) = delete;
  MapAccumulator& operator=(const MapAccumulator&) = delete;

  const std::string& name() const { return name_; }
  const std::vector<std::string>& scanner_names() const { return scanner_names_; }

  void add(PointBatch batch);
  void flush();
  // The map with every added batch inserted (flushes first).
  const PointMap& map();
  AccumulatorStats stats();

 private:
  void insert(const PointBatch& batch);
  void work();

  std::string name_;
  std::vector<std::string> scanner_names_;
  Log warn_;
  PointMap map_;
  std::vector<ScannerStats> scanners_;
  std::vector<MapPoint> scratch_;
  std::uint64_t dropped_far_ = 0;
  std::uint64_t next_warning_ = 1;  // warn at the 1st, 10th, 100th, ... dropped point

  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<PointBatch> pending_;  // handed over, not yet taken by the worker
  bool busy_ = false;                  // the worker is inserting a batch
  bool stop_ = false;
  std::thread worker_;
};

}  // namespace ubot::mapping
