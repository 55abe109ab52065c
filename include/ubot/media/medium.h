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

// The cells one sensor sample sees: from usable snapshots, the cells whose effective density
// reaches the sensor's threshold, with radii scaled by its radius scale. Empty when the sensor's
// smoke interference is off.
class MediaView {
 public:
  MediaView() = default;
  MediaView(std::span<const MediumSnapshot> snapshots, const SmokeSettings& settings);

  bool empty() const { return cells_.empty(); }
  std::size_t size() const { return cells_.size(); }

  // Entry distance of a ray into the nearest cell (0 inside one), +inf if none within
  // max_distance. `direction` must be unit length.
  double entry_distance(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
                        double max_distance) const;

  // The cells that can meet rays from `origin` within `max_distance` (a sensor's whole sample),
  // so per-ray work scales with the cells nearby, not with all cells of the world.
  MediaView culled(const Eigen::Vector3d& origin, double max_distance) const;

  struct Cell {
    Eigen::Vector3d center;
    double radius;  // scaled, clamped
    int snapshot;   // index of the snapshot it came from (tint lookup for cameras)
  };
  const std::vector<Cell>& cells() const { return cells_; }

 private:
  std::vector<Cell> cells_;
};

}  // namespace ubot::media
