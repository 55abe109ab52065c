// The lidar2d type's frames.jsonl piece (compiled into the record library): its parameters and its
// scan.
#include "frames_fields.h"
#include "ubot/record/frames_writer.h"
#include "ubot/sensors/lidar2d/lidar2d.h"
#include "ubot/sensors/lidar2d/lidar2d_sinks.h"

namespace ubot {
namespace {

void write_lidar_parameters(JsonWriter& j, const Lidar2d& lidar) {
  const Lidar2dModel& p = lidar.params();
  j.key("range_min")
      .value(p.range_min)
      .key("range_max")
      .value(p.range_max)
      .key("angle_range")
      .value(p.angle_range)
      .key("number")
      .value(p.number)
      .key("offset")
      .array(std::span<const double>(p.offset.data(), 3))
      .key("angles")
      .array(lidar.angles());
}

void write_lidar(JsonWriter& j, const Lidar2d& lidar) {
  const LaserScan& s = lidar.scan();
  j.key("origin").array(std::span<const double>(s.origin.data(), 3));
  j.key("ranges").array(s.ranges);
  j.key("valid").bool_array(s.valid);
  j.key("intensities").array(std::span<const float>(s.intensities));
  if (lidar.params().fmcw) j.key("radial_velocity").array(s.radial_velocity);
  if (lidar.params().has_velocity) {
    j.key("velocity").begin_array();
    for (const Eigen::Vector2d& v : s.velocity) j.array(std::span<const double>(v.data(), 2));
    j.end_array();
  }
}

}  // namespace

void write_frames_parameters(const FramesContext& f, const Lidar2d& s) {
  write_lidar_parameters(f.json, s);
  write_smoke(f.json, s.model().common.smoke);
}

void write_frames_sample(const FramesContext& f, const Lidar2d& s) {
  if (write_status(f.json, s.header())) write_lidar(f.json, s);
}

}  // namespace ubot
