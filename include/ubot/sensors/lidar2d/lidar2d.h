#pragma once
// 2D lidar (`lidar2d`, SPEC §2) and its FMCW variant (`fmcw_lidar2d`, SPEC §3), which adds a
// radial velocity per beam. Perception media (SPEC §8) cut beams at their entry point: such a
// beam is a hit (then the range_min rule and range noise as for surfaces) with intensity 0.
#include <memory>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "ubot/scene/scene.h"
#include "ubot/sensors/sensor.h"

namespace ubot {

// One scan. Angles are in the sensor frame (x forward, counter-clockwise positive).
struct LaserScan {
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();  // sensor pose in the world: x, y, yaw
  double z = 0.0;                                    // height of the scan plane
  std::vector<double> ranges;       // metres; range_max for no return, range_min in the blind zone
  std::vector<std::uint8_t> valid;  // hit with range in [range_min, range_max]
  std::vector<std::uint8_t> hit;    // the beam was blocked (valid hits and blind-zone hits)
  std::vector<float> intensities;   // 1 for a valid surface return, 0 otherwise (media: 0)
  std::vector<int> hit_object;      // id of the object hit, -1 for none (and for media cuts)
  // Index (into the step's media snapshots, SensorContext::media / Simulation::media()) of the
  // medium that cut the beam at its entry point, -1 for none.
  std::vector<int> hit_medium;
  std::vector<double> radial_velocity;  // fmcw_lidar2d only: m/s, positive = moving away
  // has_velocity only: the world-frame translational velocity [vx, vy] (m/s) of the object each
  // beam hit, as IR-SIM's velocity_xy (the object's, not the hit point's); 0 for no object.
  std::vector<Eigen::Vector2d> velocity;
};

// REP-117 / sensor_msgs/LaserScan-shaped view of a scan.
struct LaserScanMessage {
  float angle_min = 0, angle_max = 0, angle_increment = 0, time_increment = 0, scan_time = 0;
  float range_min = 0, range_max = 0;
  std::vector<float> ranges;
  std::vector<float> intensities;
};

class Lidar2d final : public Sensor {
 public:
  Lidar2d(const SensorModel& model, const ObjectModel& owner, int index, std::uint64_t world_seed);

  std::unique_ptr<Sensor> clone() const override { return std::make_unique<Lidar2d>(*this); }
  void copy_state_from(const Sensor& other) override {
    *this = same_type_as<Lidar2d>(other);  // Simulation::restore pairs sensors of one model
  }
  void io_own_state(StateIo& s) override;
  SensorRef ref() const override { return this; }
  const Lidar2dModel& params() const { return params_; }
  const LaserScan& scan() const { return scan_; }
  // Beam angles in the sensor frame: linspace(-R/2, R/2, N) for R < 2π, N distinct beams 2π/N
  // apart for a full circle (R ≥ 2π - 1e-6), the forward beam alone for N = 1.
  const std::vector<double>& angles() const { return fan_->angles(); }
  // Spacing between neighbouring beams (0 for a single beam).
  double angle_increment() const;

  // Range of beam i and whether it hit something (uBot-style access).
  double range(std::size_t i, bool* hit = nullptr) const;
  // Points of the valid beams, in the sensor frame.
  std::vector<Eigen::Vector2d> points() const;
  // LaserScan message view: finite ranges by default; with use_inf, REP 117 (+inf: no return,
  // -inf: too close to measure).
  LaserScanMessage to_message(bool use_inf = false) const;

 private:
  SampleStatus measure(const SensorContext& ctx) override;
  void cast(const SensorContext& ctx, const Eigen::Vector3d& pose);
  // This sample's beams' world yaws, made on first use (only media and noise need them).
  std::span<const double> beam_yaws();
  // Beam i's world direction, as cast() cast it.
  Eigen::Vector2d beam_direction(std::size_t i);
  void cut_by_media(const SensorContext& ctx, const Eigen::Vector3d& pose);
  // What the lidar reports for a return at `distance` (a surface's or a medium's).
  struct Reading {
    double range;
    bool hit, valid;
  };
  Reading read_return(double distance, bool noisy);
  void fill_ranges();           // no medium: every beam a miss, then the hits
  void fill_ranges_in_media();  // beams a medium may have cut first
  // buffers().hits with every beam written (cast() writes the hits only).
  const std::vector<scene::RayHit>& dense_hits();
  void fill_radial_velocity(const SensorContext& ctx, const Eigen::Vector3d& pose);
  void fill_hit_velocity(const SensorContext& ctx);

  Lidar2dModel params_;
  // The beam angles and their directions, shared by every lidar of this pattern.
  std::shared_ptr<const scene::FanTable> fan_;
  LaserScan scan_;
  // Working storage of one sample, rewritten by every sample before it is read: not state. One
  // set per thread, shared by every 2D lidar that samples there (buffers()): a fleet's
  // thousands of lidars then reuse a few cache-warm kilobytes instead of each streaming its own
  // through memory every step.
  struct Buffers {
    scene::FanTable::Heading heading;  // the scan's: beam i is cast along fan_->direction()
    bool noisy_yaws = false;           // whether beam i was cast at yaws[i] instead
    bool have_yaws = false;            // whether yaws holds this sample's beams' world yaws
    std::vector<double> yaws;
    std::vector<scene::RayHit> hits;       // the hits; the misses only once dense_hits() ran
    std::vector<std::uint64_t> hit_beams;  // bit i: beam i hit a surface
    bool hits_dense = false;
    std::vector<double> surface_distance;  // per beam, +inf for no surface hit
    media::MediaView media;                // this sample's cells near the sensor
    std::vector<double> media_distance;    // per beam: entry distance, +inf for none
    std::vector<int> media_cell;           // per beam: index into media.cells(), -1 for none
  };
  static Buffers& buffers();
};

}  // namespace ubot
