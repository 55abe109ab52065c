#include "ubot/record/frames_writer.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "ubot/core/error.h"
#include "ubot/sensors/lidar2d.h"

namespace ubot {
namespace {

void write_point(JsonWriter& j, const Eigen::Vector2d& p) {
  const double xy[2] = {p.x(), p.y()};
  j.array(xy);
}

void write_shape(JsonWriter& j, const ShapeModel& s) {
  j.begin_object().key("name").value(shape_name(s.kind));
  if (s.kind == ShapeKind::kCircle) {
    j.key("radius").value(s.radius).key("center");
    write_point(j, s.center);
  } else {
    if (s.kind == ShapeKind::kRectangle)
      j.key("length").value(s.length).key("width").value(s.width);
    j.key("vertices").begin_array();
    for (const auto& v : s.vertices) write_point(j, v);
    j.end_array();
  }
  j.end_object();
}

void write_smoke(JsonWriter& j, const media::SmokeSettings& smoke) {
  j.key("smoke")
      .begin_object()
      .key("enable_smoke_interference")
      .value(smoke.enable_smoke_interference)
      .key("smoke_density_threshold")
      .value(smoke.smoke_density_threshold)
      .key("smoke_cell_radius_scale")
      .value(smoke.smoke_cell_radius_scale)
      .key("smoke_volume_tag")
      .value(smoke.smoke_volume_tag)
      .end_object();
}

void write_declared_media(JsonWriter& j, const WorldModel& m) {
  j.key("media").begin_array();
  for (const MediumModel& medium : m.media) {
    j.begin_object()
        .key("name")
        .value(medium.name)
        .key("medium_type")
        .value(medium.medium_type)
        .key("attach");
    if (medium.attach >= 0) {
      j.value(m.objects[medium.attach].name);
    } else {
      j.null();
    }
    j.key("cells")
        .value(static_cast<std::int64_t>(medium.cells.size()))
        .key("keyframes")
        .value(static_cast<std::int64_t>(medium.keyframes.size()))
        .end_object();
  }
  j.end_array();
}

// This step's media snapshots: cells as [x, y, z, radius, density, edge_factor].
void write_media(JsonWriter& j, std::span<const media::MediumSnapshot> media) {
  j.key("media").begin_array();
  for (const media::MediumSnapshot& s : media) {
    j.begin_object()
        .key("name")
        .value(s.name)
        .key("medium_type")
        .value(s.medium_type)
        .key("active")
        .value(s.active)
        .key("cells")
        .begin_array();
    for (const media::MediumCell& c : s.cells) {
      const double cell[6] = {c.position.x(), c.position.y(), c.position.z(),
                              c.radius,       c.density,      c.edge_factor};
      j.array(cell);
    }
    j.end_array().end_object();
  }
  j.end_array();
}

void write_header(JsonWriter& j, const Simulation& sim) {
  const WorldModel& m = sim.world().model();
  j.begin_object()
      .key("ubot")
      .value(UBOT_VERSION)
      .key("world")
      .value(m.file)
      .key("seed")
      .value(m.seed)
      .key("step_time")
      .value(m.world.step_time)
      .key("objects")
      .begin_array();
  for (const ObjectModel& o : m.objects) {
    j.begin_object()
        .key("id")
        .value(o.id)
        .key("name")
        .value(o.name)
        .key("role")
        .value(role_name(o.role))
        .key("shape");
    write_shape(j, o.shape);
    j.key("kinematics")
        .value(kinematics_name(o.kinematics.kind))
        .key("static")
        .value(o.is_static)
        .key("unobstructed")
        .value(o.unobstructed)
        .key("state")
        .array(o.state);
    if (!o.tags.empty()) {  // legacy smoke volumes (SPEC §8)
      j.key("tags").begin_array();
      for (const std::string& t : o.tags) j.value(t);
      j.end_array().key("density").value(o.density);
    }
    j.end_object();
  }
  j.end_array().key("sensors").begin_array();
  for (const auto& sensor : sim.sensors()) {
    const auto& lidar = static_cast<const Lidar2d&>(*sensor);
    const Lidar2dModel& p = lidar.params();
    j.begin_object()
        .key("object_id")
        .value(sensor->object_id())
        .key("index")
        .value(sensor->index())
        .key("name")
        .value(sensor->model().common.name)
        .key("type")
        .value(sensor->model().type_name())
        .key("range_min")
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
    write_smoke(j, sensor->model().common.smoke);
    j.end_object();
  }
  j.end_array();
  write_declared_media(j, m);
  j.end_object();
}

void write_lidar(JsonWriter& j, const Lidar2d& lidar) {
  const LaserScan& s = lidar.scan();
  j.key("origin").array(std::span<const double>(s.origin.data(), 3));
  j.key("ranges").array(s.ranges);
  j.key("valid").begin_array();
  for (const std::uint8_t v : s.valid) j.value(v != 0);
  j.end_array();
  j.key("intensities").begin_array();
  for (const float v : s.intensities) j.value(static_cast<double>(v));
  j.end_array();
  if (lidar.params().fmcw) j.key("radial_velocity").array(s.radial_velocity);
}

}  // namespace

FramesWriter::FramesWriter(const std::string& path, const Simulation& sim) : path_(path) {
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) {
    throw Error(fmt::format("{}: cannot be written: {}", path, std::strerror(errno)));
  }
  write_header(json_, sim);
  write_line();
}

FramesWriter::~FramesWriter() {
  if (file_) std::fclose(file_);
}

void FramesWriter::write_step(const Simulation& sim) {
  const World& w = sim.world();
  json_.begin_object()
      .key("step")
      .value(w.step_count())
      .key("time")
      .value(nanos_to_seconds(w.time_ns()))
      .key("objects")
      .begin_array();
  for (int id = 0; id < static_cast<int>(w.size()); ++id) {
    const ObjectState& s = w.object(id);
    json_.begin_object()
        .key("id")
        .value(id)
        .key("state")
        .array(s.state)
        .key("velocity")
        .array(std::span<const double>(s.velocity.data(), 2))
        .key("collision")
        .value(s.collision)
        .key("arrive")
        .value(s.arrive)
        .key("stop")
        .value(s.stop)
        .end_object();
  }
  json_.end_array().key("sensors").begin_array();
  for (const int i : sim.sampled()) {
    const Sensor& sensor = *sim.sensors()[i];
    const FrameHeader& h = sensor.header();
    json_.begin_object()
        .key("object_id")
        .value(sensor.object_id())
        .key("index")
        .value(sensor.index())
        .key("type")
        .value(sensor.model().type_name())
        .key("sequence")
        .value(h.sequence)
        .key("stamp")
        .value(nanos_to_seconds(h.stamp))
        .key("status")
        .value(h.status);
    if (h.status != "Disabled") write_lidar(json_, static_cast<const Lidar2d&>(sensor));
    json_.end_object();
  }
  json_.end_array();
  if (!sim.media().empty()) write_media(json_, sim.media());
  json_.end_object();
  write_line();
}

void FramesWriter::write_line() {
  json_.str().push_back('\n');
  if (std::fwrite(json_.str().data(), 1, json_.str().size(), file_) != json_.str().size()) {
    throw Error(fmt::format("{}: write failed: {}", path_, std::strerror(errno)));
  }
  json_.clear();
}

void FramesWriter::close() {
  if (!file_) return;
  const bool failed = std::fflush(file_) != 0 || std::ferror(file_);
  const int error = errno;
  std::fclose(file_);
  file_ = nullptr;
  if (failed) throw Error(fmt::format("{}: write failed: {}", path_, std::strerror(error)));
}

}  // namespace ubot
