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

namespace ubot::media {

struct Tint {
  double r = 0.55, g = 0.55, b = 0.55;
};

// One spherical cell, in world coordinates (metres).
struct MediumCell {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  double radius = 1.5;       // below kMinRadius counts as kMinRadius
  double density = 0.0;      // 0..1
  double edge_factor = 1.0;  // 0..1, attenuates the density towards the medium's edge
  // How fast the cell moves (m/s, world frame). Only Doppler sensors read it: an FMCW beam cut
  // by this cell reports this velocity's radial component relative to the sensor. Zero: still
  // smoke.
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();

  static constexpr double kMinRadius = 0.01;
  double effective_density() const { return density * edge_factor; }
  double effective_radius() const { return radius < kMinRadius ? kMinRadius : radius; }
};

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

// A sensor's smoke properties (SPEC §8; the same on every lidar and camera).
struct SmokeSettings {
  bool enable_smoke_interference = true;
  double smoke_density_threshold = 0.05;  // cells with effective density below are ignored
  double smoke_cell_radius_scale = 1.0;   // at least kMinRadiusScale
  std::string smoke_volume_tag = "AgentSensor.SmokeVolume";  // legacy path; "" disables it

  static constexpr double kMinRadiusScale = 0.01;
  double radius_scale() const {
    return smoke_cell_radius_scale < kMinRadiusScale ? kMinRadiusScale : smoke_cell_radius_scale;
  }
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
