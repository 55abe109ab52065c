#include "page_json.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "ubot/core/json_writer.h"
#include "ubot/core/time.h"
#include "ubot/sensors/registered_sensors.h"

namespace ubot::live {
namespace {

// Positions to 10 µm: the page picks objects in pixels, and the frame stays small.
constexpr int kDecimals = 5;

void point(JsonWriter& w, const Eigen::Vector2d& p) {
  w.begin_array().value_rounded(p.x(), kDecimals).value_rounded(p.y(), kDecimals).end_array();
}

void pose(JsonWriter& w, const Eigen::Vector3d& p) {
  w.begin_array()
      .value_rounded(p.x(), kDecimals)
      .value_rounded(p.y(), kDecimals)
      .value_rounded(p.z(), kDecimals)
      .end_array();
}

void shape(JsonWriter& w, const render::Shape& s) {
  w.begin_object();
  if (s.kind == render::Shape::Kind::kCircle) {
    w.key("c");
    point(w, s.center);
    w.key("r").value_rounded(s.radius, kDecimals);
  } else {
    w.key("p").begin_array();
    for (const Eigen::Vector2d& v : s.vertices)
      w.value_rounded(v.x(), kDecimals).value_rounded(v.y(), kDecimals);
    w.end_array();
    w.key("closed").value(s.kind == render::Shape::Kind::kPolygon);
  }
  w.end_object();
}

// Where an object is, for the page to pick it by a click and outline the selected one (it draws
// the object itself from /ubot/markers).
void object(JsonWriter& w, const render::ObjectDrawing& o) {
  w.begin_object().key("id").value(o.tag).key("shape");
  shape(w, o.shape);
  if (o.pose) {
    w.key("pose");
    pose(w, *o.pose);
  }
  w.end_object();
}

const char* kinematics_label(const ObjectModel& m) { return kinematics_name(m.kinematics.kind); }

// What the page shows of a selected object: its state and its sensors' latest readings.
void detail(JsonWriter& w, const Simulation& sim, int id) {
  const World& world = sim.world();
  const ObjectModel& m = world.object_model(id);
  const ObjectState& s = world.object(id);
  w.begin_object().key("id").value(id).key("name").value(m.name);
  w.key("role").value(role_name(m.role)).key("kinematics").value(kinematics_label(m));
  w.key("state").array(s.state);
  w.key("velocity").begin_array().value(s.velocity.x()).value(s.velocity.y()).end_array();
  w.key("goal");
  if (s.goals.empty()) {
    w.null();
  } else {
    w.array(s.goals.front());
  }
  w.key("arrive").value(s.arrive).key("collision").value(s.collision).key("stop").value(s.stop);
  w.key("sensors").begin_array();
  for (const auto& sensor : sim.sensors()) {
    if (sensor->object_id() != id) continue;
    w.begin_object()
        .key("name")
        .value(sensor->model().common.name)
        .key("type")
        .value(sensor->model().type_name())
        .key("valid")
        .value(sensor->header().valid);
    const std::optional<std::size_t> count =
        visit_sensor(*sensor, [](const auto& x) { return viz::beam_count(x); });
    if (count) {
      const render::BeamsDrawing b =
          visit_sensor(*sensor, [](const auto& x) { return viz::sensor_beams(x); });
      // The scan as the page's polar plot wants it: range and bearing in the body frame.
      w.key("scan").begin_array();
      const double heading = s.state.size() > 2 ? s.state[2] : 0.0;
      const std::size_t stride = std::max<std::size_t>(1, b.end_points.size() / 720);
      for (std::size_t i = 0; i < b.end_points.size(); i += stride) {
        const Eigen::Vector2d d = b.end_points[i] - b.origin;
        w.value_rounded(std::atan2(d.y(), d.x()) - heading, kDecimals)
            .value_rounded(d.norm(), kDecimals);
      }
      w.end_array();
    }
    w.end_object();
  }
  w.end_array().end_object();
}

}  // namespace

std::string page_world_json(const Simulation& sim, const viz::RunDrawing& drawing,
                            const std::vector<std::string>& cmd_vel) {
  const World& world = sim.world();
  const render::Drawing d = drawing.draw(sim, {.sensors = false, .trajectories = false});
  JsonWriter w;
  w.begin_object().key("name").value(world.model().world.name);
  w.key("bounds")
      .begin_array()
      .value(d.x_min)
      .value(d.y_min)
      .value(d.width)
      .value(d.height)
      .end_array();
  w.key("stepTime").value(world.step_time());
  w.key("controlMode").value(world.model().world.control_mode);
  w.key("objects").begin_array();
  for (std::size_t id = 0; id < world.size(); ++id) {
    const ObjectModel& m = world.object_model(static_cast<int>(id));
    w.begin_object().key("id").value(static_cast<int>(id)).key("name").value(m.name);
    w.key("role").value(role_name(m.role)).key("kinematics").value(kinematics_label(m));
    w.key("static").value(m.is_static);
    if (id < cmd_vel.size() && !cmd_vel[id].empty()) {
      w.key("cmdVel").value(cmd_vel[id]);
      w.key("velMin").array(m.vel_min).key("velMax").array(m.vel_max);
    }
    w.end_object();
  }
  w.end_array();
  w.key("static").begin_array();
  for (const render::ObjectDrawing& o : d.objects) {
    if (viz::never_moves(world, o.tag)) object(w, o);  // sent once, with the world
  }
  w.end_array();
  w.end_object();
  return std::move(w.str());
}

std::string page_frame_json(const Simulation& sim, const viz::RunDrawing& drawing,
                            const FrameStatus& status) {
  const World& world = sim.world();
  const render::Drawing d = drawing.draw(sim, {.sensors = false, .trajectories = false});
  JsonWriter w;
  w.begin_object();
  w.key("t").value(nanos_to_seconds(world.time_ns())).key("step").value(world.step_count());
  w.key("paused").value(status.paused).key("speed").value(status.speed);
  w.key("sps").value(std::round(status.steps_per_second * 10) / 10);
  w.key("rtf").value(std::round(status.realtime_factor * 100) / 100);
  w.key("clients").value(static_cast<std::uint64_t>(status.clients));
  w.key("done").value(world.done());
  w.key("objects").begin_array();
  for (const render::ObjectDrawing& o : d.objects) {
    if (!viz::never_moves(world, o.tag)) object(w, o);
  }
  w.end_array();
  w.key("flags").begin_array();  // per object: 1 collision, 2 arrived, 4 stopped
  for (std::size_t id = 0; id < world.size(); ++id) {
    const ObjectState& s = world.object(static_cast<int>(id));
    w.value((s.collision ? 1 : 0) | (s.arrive ? 2 : 0) | (s.stop ? 4 : 0));
  }
  w.end_array();
  w.key("detail").begin_array();
  for (const int id : status.selected) {
    if (id >= 0 && id < static_cast<int>(world.size())) detail(w, sim, id);
  }
  w.end_array();
  w.end_object();
  return std::move(w.str());
}

}  // namespace ubot::live
