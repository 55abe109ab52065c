#pragma once
// PointMap: a sparse voxel-block point map (SPEC §11). Points are deduplicated at a fixed
// resolution: the first point that lands in a voxel is kept (or, with the `brighter` policy, the
// brightest one), and the map grows as a hash of 8x8x8-voxel blocks.
//
// Coordinates. The map has one double-precision world origin, fixed when the map is made and
// never changed (a const member). A stored point is its voxel's integer key relative to that
// origin plus a 16-bit sub-voxel position. World -> local and local -> world conversions are
// pure functions of the origin, the resolution and the stored integers, evaluated at the moment
// of use: there is no translation that internal re-organisation (new blocks, growing extents,
// the hash table moving blocks, storage reallocating) could leave stale, so a point inserted at
// world position p reads back, probes and saves at p (within resolution / 131072) at any
// distance from the origin. This is the design answer to the "ghost cloud" postmortem, where a
// cached insert translation went stale after the store re-centred itself.
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include <Eigen/Core>

namespace ubot::mapping {

// Which point a voxel keeps when several land in it.
enum class DedupPolicy {
  kFirst,     // the first point wins
  kBrighter,  // a later point replaces the kept one when its intensity is strictly higher
};
const char* policy_name(DedupPolicy policy);

// A point in world coordinates (metres). Intensity uses LAS's 16-bit scale; colour is 16-bit
// RGB, kept only by maps (and files) that carry colour.
struct MapPoint {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  std::uint16_t intensity = 0;
  std::array<std::uint16_t, 3> rgb{0, 0, 0};
};

// Axis-aligned world bounds; empty while min > max.
struct Bounds {
  Eigen::Vector3d min = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity());
  Eigen::Vector3d max = Eigen::Vector3d::Constant(-std::numeric_limits<double>::infinity());
  bool empty() const { return !(min.x() <= max.x()); }
  void add(const Eigen::Vector3d& p) {
    min = min.cwiseMin(p);
    max = max.cwiseMax(p);
  }
};

struct PointMapOptions {
  double resolution = 0.05;  // voxel edge, metres (dedup distance)
  DedupPolicy policy = DedupPolicy::kFirst;
  bool color = false;  // keep RGB per point
};

// Running counters of what happened to inserted points and to the store itself.
struct PointMapCounters {
  std::uint64_t inserted = 0;     // points offered to insert()
  std::uint64_t merged = 0;       // landed in an occupied voxel (kept point unchanged)
  std::uint64_t replaced = 0;     // landed in an occupied voxel and replaced a dimmer point
  std::uint64_t rejected = 0;     // non-finite, or too far from the origin for the key range
  std::uint64_t blocks = 0;       // 8³ blocks allocated
  std::uint64_t rebounds = 0;     // times the block extents grew (re-bounding)
  std::uint64_t rehashes = 0;     // times the block hash grew and moved every block entry
  std::uint64_t relocations = 0;  // times the block storage moved to new memory
};

// Result of a box query.
struct ProbeResult {
  std::uint64_t count = 0;        // points inside the box (bounds inclusive)
  std::vector<MapPoint> samples;  // the first `max_samples` of them, in storage order
};

class PointMap {
 public:
  // `origin_W` is the fixed world origin of the local frame. Throws ubot::Error for a
  // resolution outside [1e-4, 1000] m or a non-finite origin.
  PointMap(const Eigen::Vector3d& origin_W, PointMapOptions options = {});
  ~PointMap();
  PointMap(PointMap&&) noexcept;
  PointMap(const PointMap&) = delete;
  PointMap& operator=(const PointMap&) = delete;

  const Eigen::Vector3d& origin() const { return origin_W_; }
  double resolution() const { return resolution_; }
  DedupPolicy policy() const { return policy_; }
  bool has_color() const { return color_; }
  // Largest |p - origin| per axis the key range holds (points beyond are rejected).
  double reach() const;

  // Inserts one point; returns true when it occupied a new voxel. Never throws: non-finite
  // and out-of-reach points are counted as rejected.
  bool insert(const MapPoint& p);
  void insert(std::span<const MapPoint> points);

  std::size_t size() const { return size_; }  // occupied voxels = stored points
  // Bounds of every point ever kept (running; with `brighter`, a replaced point's position
  // stays inside them).
  const Bounds& bounds() const { return bounds_; }
  const PointMapCounters& counters() const { return counters_; }
  // Heap bytes held by the store (blocks, slots, hash table).
  std::size_t memory_bytes() const;

  // Points inside the box centre ± half_extent (per axis, inclusive).
  ProbeResult probe(const Eigen::Vector3d& center, double half_extent,
                    std::size_t max_samples) const;
  // Every stored point in storage order (blocks in creation order, voxels in z-y-x order).
  void for_each(const std::function<void(const MapPoint&)>& visit) const;
  std::vector<MapPoint> points() const;

 private:
  struct Impl;
  struct LocalPoint;
  void to_local(const MapPoint& p, LocalPoint& l) const;
  bool place(const LocalPoint& l, const MapPoint& p);

  const Eigen::Vector3d origin_W_;  // const: the local frame can never move
  const double resolution_;
  const double inverse_resolution_;
  const DedupPolicy policy_;
  const bool color_;
  std::size_t size_ = 0;
  Bounds bounds_;
  PointMapCounters counters_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ubot::mapping
