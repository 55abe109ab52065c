#include "ubot/record/frames_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "background_writer.h"
#include "direct_output.h"
#include "frames_fields.h"
#include "output_file.h"
#include "points_writer.h"
#include "ubot/core/error.h"
#include "ubot/media/medium_model.h"
#include "ubot/sensors/registered_sensors.h"

namespace ubot {
namespace {

void write_point(JsonWriter& j, const Eigen::Vector2d& p) {
  const double xy[2] = {p.x(), p.y()};
  j.array(xy);
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

// The applied command in the kinematics' frame: omni_angular's three components, else two.
void write_velocity(JsonWriter& j, const ObjectModel& m, const ObjectState& s) {
  if (m.kinematics.kind == KinematicsKind::kOmniAngular) {
    const double v[3] = {s.velocity[0], s.velocity[1], s.yaw_rate};
    j.array(std::span<const double>(v, 3));
  } else {
    j.array(std::span<const double>(s.velocity.data(), 2));
  }
}

void write_shape(JsonWriter& j, const ShapeModel& s) {
  if (!s.parts.empty()) {  // compound: its parts, in the body frame
    j.begin_object().key("name").value("compound").key("parts").begin_array();
    for (const ShapeModel& part : s.parts) write_shape(j, part);
    j.end_array().end_object();
    return;
  }
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

void write_header(JsonWriter& j, const Simulation& sim, PointsWriter* points) {
  const FramesContext f{j, sim, points};
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
    visit_sensor(*sensor, [&](const auto& s) { write_frames_parameters(f, s); });
    j.end_object();
  }
  j.end_array();
  write_declared_media(j, m);
  j.end_object();
}

// The ids an object with a field of view detects this step (SPEC §10); nothing for the others.
void write_fov_detected(JsonWriter& j, const ObjectModel& m, const std::vector<int>& seen) {
  if (m.fov && m.fov_radius) j.key("fov_detected").array(std::span<const int>(seen));
}

}  // namespace

void write_vector(JsonWriter& j, std::string_view key, const Eigen::Vector3d& v) {
  j.key(key).array(std::span<const double>(v.data(), 3));
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

// A sample's status; whether its data follow (not for a disabled sensor).
bool write_status(JsonWriter& j, const FrameHeader& h) {
  j.key("status").value(sample_status_name(h.status));
  return !h.disabled();
}

std::string frames_header_json(const Simulation& sim) {
  JsonWriter json;
  write_header(json, sim, nullptr);  // the header names points.bin without writing to it
  return json.str();
}

FramesWriter::FramesWriter(const std::string& path, const Simulation& sim) : path_(path) {
  // points.bin first: if it cannot be opened, frames.jsonl is not left open behind the throw.
  if (std::ranges::any_of(sim.sensors(),
                          [](const auto& s) { return sensor_if<Lidar3d>(*s) != nullptr; })) {
    points_ = std::make_unique<PointsWriter>(
        (std::filesystem::path(path).parent_path() / kPointsFile).string());
  }
  file_ = std::make_unique<DirectOutput>(path);
  background_ = std::make_unique<BackgroundWriter>(*file_);
  write_header(json_, sim, points_.get());
  write_line();
}

FramesWriter::~FramesWriter() {
  background_.reset();  // the thread ends before its file closes
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
  const std::vector<std::vector<int>>& detections = w.fov_detections();
  for (int id = 0; id < static_cast<int>(w.size()); ++id) {
    const ObjectState& s = w.object(id);
    json_.begin_object().key("id").value(id).key("state").array(s.state).key("velocity");
    write_velocity(json_, w.object_model(id), s);
    json_.key("collision")
        .value(s.collision)
        .key("arrive")
        .value(s.arrive)
        .key("stop")
        .value(s.stop);
    write_fov_detected(json_, w.object_model(id), detections[id]);
    if (w.contact_mode()) write_contact_reading(json_.key("contact"), w.contact(id));
    json_.end_object();
  }
  json_.end_array().key("sensors").begin_array();
  write_sensor_entries(sim);
  json_.end_array();
  if (!sim.media().empty()) write_media(json_, sim.media());
  if (w.fog().enabled()) {
    json_.key("fog").begin_object().key("explored_ratio").value(w.fog().explored_ratio());
    json_.end_object();
  }
  json_.end_object();
  write_line();
}

// The step's sensor entries. Many (1000 robots' scans: 6 ms of formatting a step) are formatted
// in pieces on the simulation's threads and joined in order, so the line is the same bytes; a
// lidar3d's entry appends to points.bin as it is written, so a world with one stays in order on
// this thread.
void FramesWriter::write_sensor_entries(const Simulation& sim) {
  const std::vector<int>& sampled = sim.sampled();
  constexpr std::size_t kEntriesPerPiece = 32;
  const std::size_t pieces = (sampled.size() + kEntriesPerPiece - 1) / kEntriesPerPiece;
  if (points_ || pieces < 2) {
    for (const int i : sampled) write_sensor_entry(json_, sim, i);
    return;
  }
  if (pieces_.size() < pieces) pieces_.resize(pieces);
  sim.parallel_for(pieces, [&](std::size_t p) {
    JsonWriter& piece = pieces_[p];
    piece.clear();
    const std::size_t end = std::min(sampled.size(), (p + 1) * kEntriesPerPiece);
    for (std::size_t k = p * kEntriesPerPiece; k < end; ++k) {
      write_sensor_entry(piece, sim, sampled[k]);
    }
  });
  for (std::size_t p = 0; p < pieces; ++p) json_.elements(pieces_[p].str());
}

void FramesWriter::write_sensor_entry(JsonWriter& json, const Simulation& sim, int index) {
  const Sensor& sensor = *sim.sensors()[index];
  const FrameHeader& h = sensor.header();
  json.begin_object()
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
  const FramesContext f{json, sim, points_.get()};
  visit_sensor(sensor, [&](const auto& s) { write_frames_sample(f, s); });
  json.end_object();
}

void FramesWriter::write_line() {
  json_.str().push_back('\n');
  background_->write(json_.str());
  json_.clear();
}

void FramesWriter::close() {
  if (points_) points_->close();
  if (background_) background_->drain();
  file_->close();
}

}  // namespace ubot
