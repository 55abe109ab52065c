// The lidar3d type's frames.jsonl piece (compiled into the record library): its parameters and
// where its points are in points.bin.
#include "frames_fields.h"
#include "points_writer.h"
#include "ubot/record/frames_writer.h"
#include "ubot/sensors/lidar3d/lidar3d.h"
#include "ubot/sensors/lidar3d/lidar3d_sinks.h"

namespace ubot {
namespace {

// The lidar3d's parameters under their YAML names, its channel table and azimuth grid (column i
// at azimuth_min + i * azimuth_increment), and the file holding its points.
void write_lidar3d_parameters(JsonWriter& j, const Lidar3d& lidar) {
  const Lidar3dModel& p = lidar.params();
  const SensorCommon& c = lidar.model().common;
  j.key("frame_id").value(lidar.header().frame_id);
  j.key("preset");
  if (p.preset.empty()) {
    j.null();
  } else {
    j.value(p.preset);
  }
  j.key("channels").value(static_cast<std::int64_t>(lidar.channels()));
  j.key("vertical_angles").array(lidar.vertical_angles());
  j.key("angle_range").value(p.angle_range).key("columns").value(p.number);
  const std::vector<double>& az = lidar.azimuths();
  j.key("azimuth_min").value(az.front());
  j.key("azimuth_increment").value(az.size() > 1 ? az[1] - az[0] : 0.0);
  j.key("range_min").value(p.range_min).key("range_max").value(p.range_max);
  j.key("noise").value(c.noise).key("std").value(p.std);
  j.key("rotation_rate_hz").value(p.rotation_rate_hz);
  j.key("update_rate_hz").value(c.update_rate_hz.value_or(p.rotation_rate_hz));
  j.key("sweep_duration").value(lidar.sweep_duration());
  j.key("motion_distortion").value(p.motion_distortion);
  write_vector(j, "offset", p.offset);
  write_vector(j, "rpy", p.rpy);
  j.key("points_file").value(kPointsFile);
}

// A lidar3d sample: its sensor pose [x, y, z, qx, qy, qz, qw] at the stamp, and where its points
// are in points.bin.
void write_lidar3d(JsonWriter& j, const Lidar3d& lidar, PointsWriter& points) {
  const LidarSweep& s = lidar.sweep();
  const Eigen::Quaterniond& q = s.pose.orientation;
  const double origin[7] = {
      s.pose.position.x(), s.pose.position.y(), s.pose.position.z(), q.x(), q.y(), q.z(), q.w()};
  j.key("sweep_start").value(nanos_to_seconds(s.sweep_start));
  j.key("origin").array(origin);
  j.key("point_count").value(static_cast<std::uint64_t>(s.points.size()));
  j.key("points_offset").value(points.append(s.points));
}

}  // namespace

void write_frames_parameters(const FramesContext& f, const Lidar3d& s) {
  write_lidar3d_parameters(f.json, s);
  write_smoke(f.json, s.model().common.smoke);
}

void write_frames_sample(const FramesContext& f, const Lidar3d& s) {
  if (write_status(f.json, s.header())) write_lidar3d(f.json, s, *f.points);
}

}  // namespace ubot
