#pragma once
// 3D spinning lidar (`lidar3d`, SPEC §4): channels at fixed vertical angles fire together, column
// by column, while the head turns counter-clockwise (seen from above) through `angle_range`
// around the sensor's x axis at `rotation_rate_hz`. Output: the XYZIRT points of the sweep in
// the sensor frame, and the same points in the world frame (for mapping).
//
// Timing: a sweep ends at the sample's stamp. Column i (azimuth a_i, ascending) fires at
// time(i) = (a_i - a_0) / (2π · rotation_rate_hz) after the sweep's start, which is the stamp
// minus time(last column); a point's `time` is its column's time(i). With motion_distortion,
// column i is cast from the sensor's pose at its firing time (interpolated between the world's
// step poses: positions linearly, orientations by slerp) and its points are expressed in the
// sensor frame of that moment, as a real spinning lidar reports them: the cloud read in one frame
// is then skewed by the motion, and deskewing (LIO-SAM, FAST-LIO) with the per-point time undoes
// it. Without it every column is cast from the pose at the stamp (the time offsets still describe
// the sweep).
//
// Per ray (ranges as lidar2d, SPEC §2): no return, or a return closer than range_min (blocked,
// not measured), or one pushed beyond range_max by noise, gives no point. Range noise N(0, std)
// applies to returns when `noise` is on. Perception media (SPEC §8): a ray entering a cell no
// farther than the surface it hits is cut there, and yields a point at the entry distance with
// intensity 0 when that distance is within [range_min, range_max]; surfaces have intensity 1.
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "ubot/core/pose3d.h"
#include "ubot/core/scratch.h"
#include "ubot/media/medium.h"
#include "ubot/scene/scene.h"
#include "ubot/sensors/sensor.h"

namespace ubot {

// One point, XYZIRT: the record of points.bin and the fields of the ROS PointCloud2 (24 bytes,
// little-endian; offsets x 0, y 4, z 8, intensity 12, ring 16, time 20).
struct LidarPoint {
  float x = 0, y = 0, z = 0;  // metres, sensor frame at the column's firing time
  float intensity = 0;        // 1: surface; 0: cut by a medium at its entry point
  std::uint16_t ring = 0;     // channel, 0 = lowest vertical angle (Velodyne / LIO-SAM order)
  std::uint16_t pad = 0;
  float time = 0;  // s since the sweep's start
};
static_assert(sizeof(LidarPoint) == 24);

// One sweep. Points are the valid returns, column by column, channels ascending in each column.
struct LidarSweep {
  Pose3d pose;            // sensor pose in the world at the stamp (the sweep's end)
  Nanos sweep_start = 0;  // stamp - time of the last column
  std::vector<LidarPoint> points;
  std::vector<Eigen::Vector3d> points_world;  // the same points in the world frame
  std::vector<int> hit_object;  // per point: the object hit, -1 for media cuts and the ground
  std::vector<int> hit_medium;  // per point: index of the medium (this step's snapshots), or -1
};

class Lidar3d final : public Sensor {
 public:
  Lidar3d(const SensorModel& model, const ObjectModel& owner, int index, std::uint64_t world_seed);

  bool casts_in_3d() const override { return true; }
  std::unique_ptr<Sensor> clone() const override { return std::make_unique<Lidar3d>(*this); }
  void copy_state_from(const Sensor& other) override {
    *this = same_type_as<Lidar3d>(other);  // Simulation::restore pairs sensors of one model
  }
  void io_own_state(StateIo& s) override;
  SensorRef ref() const override { return this; }
  const Lidar3dModel& params() const { return params_; }
  const LidarSweep& sweep() const { return sweep_; }

  std::size_t channels() const { return elevations_.size(); }
  std::size_t columns() const { return azimuths_.size(); }
  // Vertical angle of each ring (rad, ascending) and azimuth of each column (rad, sensor frame).
  const std::vector<double>& vertical_angles() const { return elevations_; }
  const std::vector<double>& azimuths() const { return azimuths_; }
  // Seconds from the sweep's start to column i's firing; sweep_duration() is the last column's.
  double column_time(std::size_t i) const { return column_times_[i]; }
  double sweep_duration() const { return column_times_.back(); }
  // The sensor's mounting pose on its object's body frame.
  const Pose3d& mount() const { return mount_; }

  // Records the sensor's pose after every world step (motion distortion only).
  void observe(const World& world, Nanos t) override;

 private:
  SampleStatus measure(const SensorContext& ctx) override;
  Pose3d pose_at(Nanos t, const Pose3d& now) const;
  void place_columns(const SensorContext& ctx);
  void build_rays();
  void cut_by_media(const SensorContext& ctx);
  void fill_points();

  Lidar3dModel params_;
  Pose3d mount_;
  std::vector<double> elevations_, azimuths_, column_times_;
  std::vector<double> cos_el_, sin_el_, cos_az_, sin_az_;
  LidarSweep sweep_;
  // The sensor's recent world poses (time, pose), oldest first: motion distortion only.
  std::deque<std::pair<Nanos, Pose3d>> history_;
  // Working storage of one sample, rewritten by every sample before it is read: per column its
  // origin and orientation, per ray (column major) the ray, its surface hit, and its media
  // entry. Not state: clones and restores leave it out (Scratch).
  struct Buffers {
    std::vector<Eigen::Vector3d> column_origin;
    std::vector<Eigen::Matrix3d> column_rotation;
    std::vector<scene::Ray> rays;
    std::vector<scene::RayHit> hits;
    media::MediaView media;
    std::vector<double> media_distance;
    std::vector<int> media_cell;
  };
  Scratch<Buffers> scratch_;
};

}  // namespace ubot
