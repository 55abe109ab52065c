#pragma once
// Perception media (SPEC §8): smoke-like volumes made of spherical cells that cut lidar beams
// at their entry point and tint camera pixels. A medium hands sensors a snapshot per sample;
// a sensor looks at the snapshots through its own settings (threshold, radius scale).
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "ubot/media/medium_model.h"

namespace ubot::media {

// What one medium looks like at one sample. Inactive or empty snapshots are ignored.
struct MediumSnapshot {
  bool active = true;
  std::string medium_type = "smoke";  // a name; sensors do not read it
  Tint tint;
  std::vector<MediumCell> cells;
  // Id of the world object this medium belongs to (attached media, legacy tagged objects), so
  // that an object found by several discovery paths counts once; -1 for none.
  int source_object = -1;
  std::string name;  // for outputs and messages; sensors do not read it
  // Non-empty for snapshots found through the legacy tag path: the object tag that made this
  // medium. Only sensors whose smoke_volume_tag equals it see the snapshot.
  std::string legacy_tag;
  bool usable() const { return active && !cells.empty(); }
};

// Distance along the ray origin + t * direction (direction unit length) at which it enters the
// sphere (center, radius): 0 when the origin is inside or on it, +inf when the ray misses it or
// enters beyond max_distance.
double entry_distance(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
                      const Eigen::Vector3d& center, double radius,
                      double max_distance = std::numeric_limits<double>::infinity());

// A horizontal fan of rays (a 2D lidar scan) from `origin`, in the plane z = origin.z(): ray i
// points at world yaw yaws[i], which lies within `jitter` radians of the nominal grid
// first_yaw + i * step (step: the spacing of neighbouring rays; 0 with a single ray). Ray i
// looks for cells no farther than limits[i] (e.g. its surface hit), or max_distance when
// `limits` is empty.
struct HorizontalFan {
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  std::span<const double> yaws;
  double first_yaw = 0.0;
  double step = 0.0;
  double jitter = 0.0;
  double max_distance = std::numeric_limits<double>::infinity();
  std::span<const double> limits;
};

// The cells one sensor sample sees: from usable snapshots, the cells whose effective density
// reaches the sensor's threshold, with radii scaled by its radius scale. Snapshots of the legacy
// tag path count only for a sensor whose smoke_volume_tag is theirs. Empty when the sensor's
// smoke interference is off.
class MediaView {
 public:
  MediaView() = default;
  MediaView(std::span<const MediumSnapshot> snapshots, const SmokeSettings& settings);
  // The same view, culled while it is built: only the cells that can meet rays from `origin`
  // within `max_distance` (equal to MediaView(snapshots, settings).culled(origin, max_distance)).
  MediaView(std::span<const MediumSnapshot> snapshots, const SmokeSettings& settings,
            const Eigen::Vector3d& origin, double max_distance);

  bool empty() const { return cells_.empty(); }
  std::size_t size() const { return cells_.size(); }

  // Entry distance of a ray into the nearest cell (0 inside one), +inf if none within
  // max_distance. `direction` must be unit length.
  double entry_distance(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
                        double max_distance) const;

  // The cells that can meet rays from `origin` within `max_distance` (a sensor's whole sample),
  // so per-ray work scales with the cells nearby, not with all cells of the world.
  MediaView culled(const Eigen::Vector3d& origin, double max_distance) const;

  // Entry distances of a whole fan at once: distance[i] is exactly
  // entry_distance(origin, (cos yaws[i], sin yaws[i], 0), limit of ray i) and cell[i] the index
  // (into cells()) of the cell entered first, -1 for none. Each cell is tested only against the
  // rays within the bearing interval it subtends from the origin, so the cost grows with the
  // (cell, ray) pairs that can meet, not with cells x rays.
  void fan_entry_distances(const HorizontalFan& fan, std::span<double> distance,
                           std::span<int> cell) const;

  struct Cell {
    Eigen::Vector3d center;
    double radius;  // scaled, clamped
    int snapshot;   // index of the snapshot it came from (tint lookup for cameras)
    int index;      // index of the cell in that snapshot's cells (e.g. its velocity)
  };
  const std::vector<Cell>& cells() const { return cells_; }

 private:
  std::vector<Cell> cells_;
};

}  // namespace ubot::media
