#include "ubot/record/frames_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "output_file.h"
#include "points_writer.h"
#include "ubot/core/error.h"
#include "ubot/media/medium_model.h"
#include "ubot/record/camera_images.h"
#include "ubot/sensors/camera.h"
#include "ubot/sensors/imu.h"
#include "ubot/sensors/lidar2d.h"
#include "ubot/sensors/lidar3d.h"

namespace ubot {
namespace {

void write_point(JsonWriter& j, const Eigen::Vector2d& p) {
  const double xy[2] = {p.x(), p.y()};
  j.array(xy);
}

void write_vector(JsonWriter& j, std::string_view key, const Eigen::Vector3d& v) {
  j.key(key).array(std::span<const double>(v.data(), 3));
}

// A 3D shape's own keys, as in the world file (a mesh also gives its triangle count).
void write_solid(JsonWriter& j, const SolidModel& s) {
  j.key("solid").begin_object().key("name").value(solid_name(s.kind));
  switch (s.kind) {
    case SolidKind::kBox:
      write_vector(j, "size", s.size);
      break;
    case SolidKind::kSphere:
      j.key("radius").value(s.radius);
      break;
    case SolidKind::kCylinder:
      j.key("radius").value(s.radius).key("height").value(s.height);
      break;
    case SolidKind::kMesh:
      j.key("file").value(s.file);
      write_vector(j, "scale", s.scale);
      write_vector(j, "rpy", s.rpy);
      j.key("triangles").value(static_cast<std::uint64_t>(s.mesh->triangles.size()));
      break;
  }
  j.end_object();
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
  if (s.solid) write_solid(j, *s.solid);
  j.end_object();
}

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

// The IMU's parameters under their YAML names; the noise σ are per sample at the configured
// rate (converted from the densities when those were given).
void write_imu_parameters(JsonWriter& j, const Imu& imu) {
  const ImuModel& p = imu.params();
  const SensorCommon& c = imu.model().common;
  const double dt = 1.0 / c.update_rate_hz.value_or(kImuDefaultRateHz);
  j.key("frame_id").value(imu.header().frame_id);
  j.key("update_rate_hz").value(c.update_rate_hz.value_or(kImuDefaultRateHz));
  j.key("enabled").value(c.enabled).key("noise").value(c.noise);
  j.key("seed").value(c.seed.value_or(kImuDefaultSeed));
  write_vector(j, "offset", p.offset);
  write_vector(j, "rpy", p.rpy);
  j.key("accelerometer_noise_std").value(imu.processor().accelerometer_sigma(dt));
  j.key("gyroscope_noise_std").value(imu.processor().gyroscope_sigma(dt));
  if (p.accelerometer_noise_density) {
    j.key("accelerometer_noise_density").value(*p.accelerometer_noise_density);
  }
  if (p.gyroscope_noise_density) {
    j.key("gyroscope_noise_density").value(*p.gyroscope_noise_density);
  }
  write_vector(j, "accelerometer_bias", p.accelerometer_bias);
  write_vector(j, "gyroscope_bias", p.gyroscope_bias);
  j.key("accelerometer_bias_random_walk_std").value(p.accelerometer_bias_random_walk_std);
  j.key("gyroscope_bias_random_walk_std").value(p.gyroscope_bias_random_walk_std);
  j.key("low_pass").value(p.low_pass).key("low_pass_cutoff_hz").value(p.low_pass_cutoff_hz);
  j.key("clamp").value(p.clamp);
  j.key("max_linear_acceleration").value(p.max_linear_acceleration);
  j.key("max_angular_velocity").value(p.max_angular_velocity);
  j.key("teleport_distance").value(p.teleport_distance);
  j.key("teleport_angle_deg").value(p.teleport_angle_deg);
  j.key("max_sample_dt").value(p.max_sample_dt);
}

constexpr const char* kPointsFile = "points.bin";

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

// A camera's parameters under their YAML names, its resolved intrinsics, its frames and where
// its images go (relative to frames.jsonl).
void write_camera_parameters(JsonWriter& j, const Simulation& sim, const Camera& camera) {
  const CameraModel& p = camera.params();
  const SensorCommon& c = camera.model().common;
  j.key("frame_id").value(camera.header().frame_id);
  j.key("optical_frame_id").value(camera.optical_frame_id());
  j.key("width").value(p.width).key("height").value(p.height);
  j.key("fx").value(p.fx).key("fy").value(p.fy).key("cx").value(p.cx).key("cy").value(p.cy);
  j.key(p.depth ? "min_depth" : "near_clip").value(p.min_depth);
  j.key(p.depth ? "max_depth" : "far_clip").value(p.max_depth);
  j.key("update_rate_hz");
  if (c.update_rate_hz) {
    j.value(*c.update_rate_hz);
  } else {
    j.null();  // every step
  }
  write_vector(j, "offset", p.offset);
  write_vector(j, "rpy", p.rpy);
  if (p.depth) {
    j.key("noise").value(c.noise).key("std").value(p.std);
    j.key("image_format").value("png16_mm");
  } else {
    const media::Tint& t = p.smoke_interference_tint;
    const double tint[3] = {t.r, t.g, t.b};
    j.key("smoke_interference_tint").array(tint);
    j.key("smoke_interference_opacity_scale").value(p.smoke_interference_opacity_scale);
    j.key("max_smoke_interference_opacity").value(p.max_smoke_interference_opacity);
    j.key("preview_distance").value(p.preview_distance);
    j.key("media_occlusion").value(p.media_occlusion);
    j.key("image_format").value("png_rgba8");
  }
  const std::string first = camera_image_file(sim, camera);
  j.key("image_dir").value(first.substr(0, first.rfind('/')));
}

// A camera sample: its link pose [x, y, z, qx, qy, qz, qw] at the stamp, its image file and the
// number of pixels a medium changed.
void write_camera(JsonWriter& j, const Simulation& sim, const Camera& camera) {
  const CameraImage& img = camera.image();
  const Eigen::Quaterniond& q = img.pose.orientation;
  const double origin[7] = {img.pose.position.x(),
                            img.pose.position.y(),
                            img.pose.position.z(),
                            q.x(),
                            q.y(),
                            q.z(),
                            q.w()};
  j.key("origin").array(origin);
  j.key("image").value(camera_image_file(sim, camera));
  j.key("medium_pixels").value(img.medium_pixels);
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
  for (const MediumModel& medium : *m.media) {
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
      .value(sim.world().seed())  // the model's, or Simulation::reset's
      .key("step_time")
      .value(m.world.step_time)
      .key("ground");
  if (m.ground) {
    j.value(*m.ground);
  } else {
    j.null();
  }
  j.key("objects").begin_array();
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
        .array(o.state)
        .key("z")
        .value(o.z)
        .key("height");
    if (o.height) {
      j.value(*o.height);
    } else {
      j.null();  // reaches every 2D scan plane (3D sensors: 1 m)
    }
    if (!o.tags.empty()) {  // legacy smoke volumes (SPEC §8)
      j.key("tags").begin_array();
      for (const std::string& t : o.tags) j.value(t);
      j.end_array().key("density").value(o.density);
    }
    j.end_object();
  }
  j.end_array().key("sensors").begin_array();
  for (const auto& sensor : sim.sensors()) {
    j.begin_object()
        .key("object_id")
        .value(sensor->object_id())
        .key("index")
        .value(sensor->index())
        .key("name")
        .value(sensor->model().common.name)
        .key("type")
        .value(sensor->model().type_name());
    visit_sensor(*sensor, Overloaded{
                              [&](const Lidar2d& s) {
                                write_lidar_parameters(j, s);
                                write_smoke(j, s.model().common.smoke);
                              },
                              [&](const Imu& s) { write_imu_parameters(j, s); },
                              [&](const Lidar3d& s) {
                                write_lidar3d_parameters(j, s);
                                write_smoke(j, s.model().common.smoke);
                              },
                              [&](const Camera& s) {
                                write_camera_parameters(j, sim, s);
                                write_smoke(j, s.model().common.smoke);
                              },
                          });
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
  j.key("valid").bool_array(s.valid);
  j.key("intensities").array(std::span<const float>(s.intensities));
  if (lidar.params().fmcw) j.key("radial_velocity").array(s.radial_velocity);
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

void write_imu_data(JsonWriter& j, const ImuSample& s) {
  const Eigen::Quaterniond& q = s.orientation;
  const double xyzw[4] = {q.x(), q.y(), q.z(), q.w()};
  j.key("orientation").array(xyzw);
  write_vector(j, "angular_velocity", s.angular_velocity);
  write_vector(j, "linear_acceleration", s.linear_acceleration);
  write_vector(j, "angular_velocity_variance", s.angular_velocity_variance);
  write_vector(j, "linear_acceleration_variance", s.linear_acceleration_variance);
}

// The entry's own fields are the step's last sample; `samples` lists every sample of the step
// (several when the IMU is faster than the world), in time order.
void write_imu(JsonWriter& j, const Imu& imu) {
  write_imu_data(j, imu.data());
  j.key("samples").begin_array();
  for (const ImuReading& r : imu.step_samples()) {
    const FrameHeader& h = r.header;
    j.begin_object().key("sequence").value(h.sequence);
    j.key("stamp").value(nanos_to_seconds(h.stamp));
    j.key("valid").value(h.valid).key("status").value(sample_status_name(h.status));
    write_imu_data(j, r.data);
    j.end_object();
  }
  j.end_array();
}

// A sample's status; whether its data follow (not for a disabled sensor).
bool write_status(JsonWriter& j, const FrameHeader& h) {
  j.key("status").value(sample_status_name(h.status));
  return !h.disabled();
}

// The ids an object with a field of view detects this step (SPEC §10); nothing for the others.
void write_fov_detected(JsonWriter& j, const ObjectModel& m, const std::vector<int>& seen) {
  if (m.fov && m.fov_radius) j.key("fov_detected").array(std::span<const int>(seen));
}

}  // namespace

FramesWriter::FramesWriter(const std::string& path, const Simulation& sim) : path_(path) {
  // points.bin first: if it cannot be opened, frames.jsonl is not left open behind the throw.
  if (std::ranges::any_of(sim.sensors(),
                          [](const auto& s) { return s->kind() == SensorKind::kLidar3d; })) {
    points_ = std::make_unique<PointsWriter>(
        (std::filesystem::path(path).parent_path() / kPointsFile).string());
  }
  file_ = open_output(path);
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
  const std::vector<std::vector<int>> detections = w.fov_detections();
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
        .value(s.stop);
    write_fov_detected(json_, w.object_model(id), detections[id]);
    json_.end_object();
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
        .value(nanos_to_seconds(h.stamp));
    visit_sensor(sensor, Overloaded{
                             [&](const Lidar2d& s) {
                               if (write_status(json_, h)) write_lidar(json_, s);
                             },
                             [&](const Imu& s) {
                               json_.key("valid").value(h.valid);  // the IMU's statuses vary
                               if (write_status(json_, h)) write_imu(json_, s);
                             },
                             [&](const Lidar3d& s) {
                               if (write_status(json_, h)) write_lidar3d(json_, s, *points_);
                             },
                             [&](const Camera& s) {
                               if (write_status(json_, h)) write_camera(json_, sim, s);
                             },
                         });
    json_.end_object();
  }
  json_.end_array();
  if (!sim.media().empty()) write_media(json_, sim.media());
  json_.end_object();
  write_line();
}

void FramesWriter::write_line() {
  json_.str().push_back('\n');
  write_output(file_, json_.str().data(), json_.str().size(), path_);
  json_.clear();
}

void FramesWriter::close() {
  if (points_) points_->close();
  close_output(file_, path_);
}

}  // namespace ubot
