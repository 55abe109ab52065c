#include "object_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "behavior_reader.h"
#include "irsim_keys.h"
#include "physics_reader.h"
#include "ros2_reader.h"
#include "ubot/core/angles.h"
#include "ubot/core/numbers.h"
#include "ubot/core/pose3d.h"
#include "ubot/viz/plot_config.h"

namespace ubot::config {
namespace {

// IR-SIM's per-object keys. Everything in a group that is not one of these (or number,
// distribution, state, goal) is an error.
const char* const kObjectKeys[] = {
    "kinematics",  "shape",      "behavior",       "color",          "static",      "vel_min",
    "vel_max",     "acce",       "velocity",       "goal_threshold", "arrive_mode", "unobstructed",
    "fov",         "fov_radius", "name",           "plot",           "z",           "height",
    "description", "group",      "group_name",     "roll",           "pitch",       "trajectory",
    "ros2",        "density",    "group_behavior", "state_dim"};

std::vector<Eigen::Vector2d> to_points(const std::vector<std::vector<double>>& raw) {
  std::vector<Eigen::Vector2d> points;
  for (const auto& p : raw) points.emplace_back(p[0], p[1]);
  return points;
}

// Twice the signed area: > 0 for counter-clockwise vertex order.
double signed_area2(const std::vector<Eigen::Vector2d>& v) {
  double a = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const auto& p = v[i];
    const auto& q = v[(i + 1) % v.size()];
    a += p.x() * q.y() - q.x() * p.y();
  }
  return a;
}

}  // namespace

ShapeModel read_shape_keys(Mapping& m, std::vector<std::string>& warnings, MeshCache& meshes,
                           RandomStream& shape_rng) {
  ShapeModel s;
  const std::string name =
      m.has("name") ? m.require("name").as_choice({"circle", "rectangle", "polygon", "linestring",
                                                   "box", "sphere", "cylinder", "mesh", "compound"})
                    : "circle";
  if (name == "box" || name == "sphere" || name == "cylinder" || name == "mesh") {
    read_solid_shape(m, name, s, meshes);
    return s;
  }
  if (name == "compound") {
    read_compound_shape(m, s, warnings, meshes, shape_rng);
    return s;
  }
  if (auto f = m.get("wheelbase")) s.wheelbase = f->as_non_negative();
  if (read_random_shape(m, name, s, shape_rng)) return s;
  accept_ignored_irsim_keys(m, KeyPlace::kShape, warnings);
  if (name == "circle") {
    s.kind = ShapeKind::kCircle;
    s.radius = m.positive("radius", 0.2);
    if (auto f = m.get("center")) {
      const auto c = f->as_numbers(2, 2);
      s.center = {c[0], c[1]};
    }
    if (s.wheelbase) s.center.x() += *s.wheelbase / 2.0;
  } else if (name == "rectangle") {
    s.kind = ShapeKind::kRectangle;
    s.length = m.positive("length", 1.0);
    s.width = m.positive("width", 1.0);
    const double x0 = s.wheelbase ? -(s.length - *s.wheelbase) / 2.0 : -s.length / 2.0;
    const double y0 = -s.width / 2.0;
    s.vertices = {{x0, y0}, {x0 + s.length, y0}, {x0 + s.length, y0 + s.width}, {x0, y0 + s.width}};
  } else if (name == "polygon") {
    s.kind = ShapeKind::kPolygon;
    if (auto f = m.get("vertices")) {
      s.vertices = to_points(f->as_points(3));
      if (std::abs(signed_area2(s.vertices)) < 1e-12) f->fail("the polygon has zero area");
    } else {
      s.vertices = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};  // IR-SIM's default square
    }
  } else {
    s.kind = ShapeKind::kLinestring;
    s.vertices = to_points(m.require("vertices").as_points(2));
  }
  return s;
}

ShapeModel read_shape(const std::optional<Field>& field, std::vector<std::string>& warnings,
                      const std::string& owner, MeshCache& meshes, RandomStream& shape_rng) {
  if (!field) {
    ShapeModel s;
    warnings.push_back(
        fmt::format("{}: no shape given; using IR-SIM's default circle of radius 1", owner));
    s.radius = 1.0;
    return s;
  }
  Mapping m(*field);
  ShapeModel s = read_shape_keys(m, warnings, meshes, shape_rng);
  m.finish();
  return s;
}

namespace {

KinematicsModel read_kinematics(const std::optional<Field>& field,
                                std::vector<std::string>& warnings) {
  KinematicsModel k;
  if (!field) return k;
  Mapping m(*field);
  if (!m.has("name")) {
    m.finish();
    return k;
  }
  const Field name_field = m.require("name");
  k.kind = *kinematics_from_name(
      name_field.as_choice({"diff", "omni", "omni_angular", "acker", "static"}));
  k.noise = m.boolean("noise", false);
  // IR-SIM's noise coefficients: omni one per velocity component, omni_angular one per
  // component too (forward, lateral, yaw rate), diff and acker four.
  const std::size_t alpha_size = k.kind == KinematicsKind::kOmni          ? 2
                                 : k.kind == KinematicsKind::kOmniAngular ? 3
                                                                          : 4;
  if (auto f = m.get("alpha")) {
    k.alpha = f->as_numbers(alpha_size, alpha_size);
    for (std::size_t i = 0; i < k.alpha.size(); ++i) f->item(i).as_non_negative();
  } else {
    k.alpha = alpha_size == 4 ? std::vector<double>{0.03, 0, 0, 0.03}
                              : std::vector<double>(alpha_size, 0.03);
  }
  accept_ignored_irsim_keys(m, KeyPlace::kAnyKinematics, warnings);
  if (k.kind == KinematicsKind::kAcker) {
    k.wheelbase = m.positive("wheelbase", 1.0);  // the shape's wins (apply_shape_wheelbase)
    if (auto f = m.get("mode")) k.acker_steer_mode = f->as_choice({"steer", "angular"}) == "steer";
  } else {
    accept_ignored_irsim_keys(m, KeyPlace::kKinematics, warnings);
  }
  m.finish();
  return k;
}

// `key` of the mapping `field`, if both are present (read only to say where a value is).
std::optional<Field> key_of(const std::optional<Field>& field, std::string_view key) {
  if (!field || !field->is_map()) return std::nullopt;
  return Mapping(*field).get(key);
}

// IR-SIM 2.12.0's KinematicsFactory: an acker's kinematics take `kinematics.wheelbase` when it is
// given, else the wheelbase of its *shape* (`shape_wheelbase or 1.0`, so a shape wheelbase of 0
// or none means 1.0). The shape's wheelbase still places the body on the rear axle (its
// geometry) either way. (IR-SIM 2.10.2 refused both at once: the factory got `wheelbase` twice.)
void apply_shape_wheelbase(const std::optional<Field>& shape,
                           const std::optional<Field>& kinematics, ObjectModel& o,
                           std::vector<std::string>& warnings) {
  if (o.kinematics.kind != KinematicsKind::kAcker || !o.shape.wheelbase) return;
  if (key_of(kinematics, "wheelbase")) return;  // read into o.kinematics already: it wins
  if (*o.shape.wheelbase > 0.0) {
    o.kinematics.wheelbase = *o.shape.wheelbase;
    return;
  }
  const auto from_shape = key_of(shape, "wheelbase");
  warnings.push_back(
      fmt::format("{}: {}: 0 reads as no wheelbase (as in IR-SIM): the acker kinematics use 1.0",
                  from_shape->location(), from_shape->path()));
}

// IR-SIM 2.12.0's `color: cycle`: the group's objects take its palette's cycle in turn
// (irsim/config/palette_param.py, DEFAULT_CYCLE: Okabe-Ito, starting with the robot colour).
std::string cycle_color(int index) {
  static constexpr const char* kCycle[] = {"#009E73", "#0072B2", "#E69F00", "#CC79A7",
                                           "#56B4E9", "#D55E00", "#F0E442", "#117733"};
  return kCycle[static_cast<std::size_t>(index) % std::size(kCycle)];
}

BehaviorModel read_behavior(const std::optional<Field>& field, KinematicsKind kinematics,
                            std::vector<std::string>& warnings) {
  BehaviorModel b;
  if (!field) return b;
  Mapping m(*field);
  if (!m.has("name")) {
    m.finish();
    return b;
  }
  const Field name_field = m.require("name");
  b.name = name_field.as_string();
  b.where = name_field.where();
  const BuiltinBehavior* builtin = find_builtin_behavior(b.name);
  if (builtin && !builtin_behavior_available(b.name, kinematics)) {
    name_field.fail(fmt::format("behavior '{}' is available for diff and omni kinematics, not {}",
                                b.name, kinematics_name(kinematics)));
  }
  read_goal_keys(m, b);
  if (builtin) {
    builtin->read_keys(m, b, warnings);
  } else {
    // Not built in: a behaviour registered at run time (the Python module's). Whether one is
    // registered under the name is asked when the world is built, as for group behaviours.
    read_custom_params(m, *field, b.params);
  }
  m.finish();
  return b;
}

PlotModel read_plot(const std::optional<Field>& field, Role role) {
  PlotModel p;
  p.show_goal = role == Role::kRobot;
  if (!field) return p;
  Mapping m(*field);
  p.show_goal = m.boolean("show_goal", p.show_goal);
  p.show_trajectory = m.boolean("show_trajectory", false);
  p.show_trail = m.boolean("show_trail", false);
  p.show_fov = m.boolean("show_fov", false);
  p.show_arrow = m.boolean("show_arrow", false);
  p.show_sensor = m.boolean("show_sensor", true);
  p.arrow_length = m.non_negative("arrow_length", 0.0);
  if (auto f = m.get("obj_linestyle")) p.dashed = f->as_string() != "-";
  if (auto f = m.get("alpha")) p.alpha = f->as_non_negative();
  if (auto f = m.get("color")) p.color = f->as_color();
  // The rest are matplotlib keyword arguments that IR-SIM forwards to its plots; they have no
  // meaning here, so they are accepted as IR-SIM accepts them.
  for (const std::string& key : field->keys()) m.ignore(key);
  m.finish();
  return p;
}

BallisticModel read_ballistic(const Field& field) {
  Mapping m(field);
  BallisticModel b;
  b.position = m.require("position").as_vector3();
  b.velocity = read_vector3(m, "velocity");
  b.rpy = read_vector3(m, "rpy");
  b.angular_velocity = read_vector3(m, "angular_velocity");
  m.finish();
  return b;
}

std::vector<WaypointModel> read_waypoints(const Field& list) {
  if (!list.is_sequence() || list.size() < 2) list.fail("expected a list of at least 2 waypoints");
  std::vector<WaypointModel> waypoints;
  for (std::size_t i = 0; i < list.size(); ++i) {
    Mapping m(list.item(i));
    WaypointModel w;
    const Field t = m.require("t");
    w.t = t.as_non_negative();
    if (!waypoints.empty() && !(w.t > waypoints.back().t)) {
      t.fail(fmt::format("waypoint times must increase, got {} after {}", w.t, waypoints.back().t));
    }
    w.position = m.require("position").as_vector3();
    w.rpy = read_vector3(m, "rpy");
    m.finish();
    waypoints.push_back(w);
  }
  return waypoints;
}

TrajectoryModel read_trajectory(const Field& field) {
  Mapping m(field);
  TrajectoryModel t;
  const auto waypoints = m.get("waypoints");
  const auto ballistic = m.get("ballistic");
  const auto interpolation = m.get("interpolation");
  const auto loop = m.get("loop");
  if (waypoints && ballistic) ballistic->fail("give either waypoints or ballistic, not both");
  if (ballistic) {
    if (interpolation || loop) {
      (interpolation ? *interpolation : *loop)
          .fail("applies to waypoints, not to a ballistic flight");
    }
    t.ballistic = read_ballistic(*ballistic);
  } else if (waypoints) {
    t.waypoints = read_waypoints(*waypoints);
    if (interpolation && interpolation->as_choice({"cubic", "linear"}) == "linear") {
      t.interpolation = Interpolation::kLinear;
    }
    t.loop = loop && loop->as_bool();
    const WaypointModel &first = t.waypoints.front(), &last = t.waypoints.back();
    const double turn =
        rotation_angle(rotation_from_rpy(first.rpy).inverse() * rotation_from_rpy(last.rpy));
    if (t.loop && ((first.position - last.position).norm() > 1e-9 || turn > 1e-9)) {
      loop->fail("a looping trajectory must end where it starts (same position and rpy)");
    }
    if (t.loop && t.waypoints.size() < 3) loop->fail("a looping trajectory needs 3 waypoints");
  } else {
    field.fail("a trajectory needs `waypoints` or `ballistic`");
  }
  m.finish();
  return t;
}

// A per-component limit: one value per velocity component of the kinematics (omni_angular
// three, the others two).
std::vector<double> read_limit(const std::optional<Field>& field, std::vector<double> fallback) {
  if (!field) return fallback;
  return field->as_numbers(fallback.size(), fallback.size());
}

// IR-SIM's `state_dim` sizes the state vector of an object; ubot's state always has the
// kinematics' dimension (KinematicsModel::state_dim), so another value only gets a warning.
// Below the kinematics' minimum IR-SIM fails an assertion; so does this.
void read_state_dim(const std::optional<Field>& field, const KinematicsModel& k,
                    std::vector<std::string>& warnings) {
  if (!field) return;
  const std::int64_t dim = field->as_integer();
  const int minimum = k.kind == KinematicsKind::kAcker  ? 4
                      : k.kind == KinematicsKind::kOmni ? 2
                                                        : 3;
  if (dim < minimum) {
    field->fail(fmt::format("{} kinematics need a state_dim of at least {}, got {}",
                            kinematics_name(k.kind), minimum, dim));
  }
  if (dim != k.state_dim()) {
    warn_once(warnings, fmt::format("{}: {}: state_dim {} is accepted; ubot's {} state keeps its "
                                    "{} values",
                                    field->location(), field->path(), dim, kinematics_name(k.kind),
                                    k.state_dim()));
  }
}

}  // namespace

ObjectReader::ObjectReader(Mapping& group, int number, std::vector<std::string>& warnings,
                           const PerObject& per_object, MeshCache& meshes)
    : warnings_(warnings), meshes_(meshes), number_(number) {
  accept_ignored_irsim_keys(group, KeyPlace::kObject, warnings);
  for (const char* key : kObjectKeys) {
    if (auto f = group.get(key)) values_.emplace(key, per_object(*f, number, false));
  }
  for (const char* key : kPhysicsKeys) {
    // IR-SIM 2.12.0's _PER_OBJECT_NUMBERS: `mass: [0.5, 2]` is one number per object.
    if (auto f = group.get(key)) values_.emplace(key, per_object(*f, number, true));
  }
  sensors_ = group.get("sensors");
  tags_ = group.get("tags");
}

std::optional<Field> ObjectReader::value(const std::string& key, int index) const {
  const auto it = values_.find(key);
  if (it == values_.end()) return std::nullopt;
  const Field& f = it->second[static_cast<std::size_t>(index)];
  if (f.is_null()) return std::nullopt;
  return f;
}

std::vector<std::string> ObjectReader::read_tags(int index) const {
  // One tag or a list of tags shared by the group, or a list of such lists, one per object
  // (padded with the last). Not split like other lists: [a, b] means two tags, not one each.
  if (!tags_) return {};
  auto read = [](const Field& f) -> std::vector<std::string> {
    if (f.is_scalar()) return {f.as_string()};
    if (!f.is_sequence()) f.fail("expected a tag or a list of tags");
    std::vector<std::string> tags;
    for (std::size_t i = 0; i < f.size(); ++i) tags.push_back(f.item(i).as_string());
    return tags;
  };
  // (Fields are not reassigned: assigning a yaml-cpp node would overwrite the document.)
  if (tags_->is_sequence() && tags_->size() > 0 && tags_->item(0).is_sequence()) {
    return read(tags_->item(std::min<std::size_t>(index, tags_->size() - 1)));
  }
  return read(*tags_);
}

std::vector<SensorModel> ObjectReader::read_group_sensors() const {
  if (!sensors_read_) {
    const std::size_t before = warnings_.size();
    std::vector<SensorModel> sensors = read_sensors(*sensors_, warnings_);
    sensors_read_ = SensorsRead{std::move(sensors), {warnings_.begin() + before, warnings_.end()}};
    return sensors_read_->sensors;
  }
  warnings_.insert(warnings_.end(), sensors_read_->warnings.begin(), sensors_read_->warnings.end());
  return sensors_read_->sensors;
}

ObjectModel ObjectReader::read(int index, Role role, int group, int id) const {
  ObjectModel o;
  o.id = id;
  o.role = role;
  o.group = group;
  if (auto f = value("group", index)) o.group = static_cast<int>(f->as_integer());
  o.name = fmt::format("{}_{}", role_name(role), id);
  if (auto f = value("name", index)) o.name = f->as_string();
  if (auto f = value("group_name", index)) f->as_string();
  if (auto f = value("description", index)) f->as_string();

  RandomStream shape_rng(stream_seed(world_seed_, o.name + "/shape"));
  o.shape = read_shape(value("shape", index), warnings_, o.name, meshes_, shape_rng);
  o.kinematics = read_kinematics(value("kinematics", index), warnings_);
  apply_shape_wheelbase(value("shape", index), value("kinematics", index), o, warnings_);
  read_state_dim(value("state_dim", index), o.kinematics, warnings_);
  o.behavior = read_behavior(value("behavior", index), o.kinematics.kind, warnings_);
  o.group_behavior = read_group_behavior(value("group_behavior", index), o.kinematics.kind, number_,
                                         value("behavior", index) ? nullptr : &o.behavior);
  o.is_static = o.kinematics.kind == KinematicsKind::kNone;
  if (auto f = value("static", index)) o.is_static = f->as_bool() || o.is_static;
  if (auto f = value("unobstructed", index)) o.unobstructed = f->as_bool();

  const std::size_t vel_dim = static_cast<std::size_t>(o.kinematics.velocity_dim());
  o.vel_min = read_limit(value("vel_min", index), std::vector<double>(vel_dim, -1.0));
  o.vel_max = read_limit(value("vel_max", index), std::vector<double>(vel_dim, 1.0));
  for (std::size_t k = 0; k < vel_dim; ++k) {
    if (o.vel_min[k] > o.vel_max[k]) {
      value("vel_min", index)
          .value_or(*value("vel_max", index))
          .fail(fmt::format("vel_min[{}] = {} exceeds vel_max[{}] = {}", k, o.vel_min[k], k,
                            o.vel_max[k]));
    }
  }
  o.acce = read_limit(value("acce", index), std::vector<double>(vel_dim, kInf));
  if (auto f = value("acce", index)) {
    for (std::size_t k = 0; k < vel_dim; ++k) {
      if (!(o.acce[k] >= 0.0)) f->item(k).fail("must not be negative");
    }
  }
  o.velocity = read_limit(value("velocity", index), std::vector<double>(vel_dim, 0.0));
  if (auto f = value("goal_threshold", index)) o.goal_threshold = f->as_non_negative();
  if (auto f = value("arrive_mode", index)) {
    o.arrive_mode =
        f->as_choice({"position", "state"}) == "state" ? ArriveMode::kState : ArriveMode::kPosition;
  }
  if (auto f = value("z", index)) o.z = f->as_finite();
  if (auto f = value("roll", index)) o.roll = f->as_finite();
  if (auto f = value("pitch", index)) o.pitch = f->as_finite();
  if (auto f = value("trajectory", index)) {
    // The trajectory alone moves and places the object.
    for (const char* key : {"kinematics", "behavior", "static", "z", "roll", "pitch"}) {
      if (auto g = value(key, index)) {
        g->fail(fmt::format("'{}' does not apply to an object that follows a trajectory", key));
      }
    }
    o.trajectory = read_trajectory(*f);
    o.is_static = false;
  }
  if (auto f = value("height", index)) o.height = f->as_positive();
  if (const auto& solid = o.shape.solid) {  // a 3D shape carries its own vertical extent
    if (auto f = value("height", index)) {
      f->fail(fmt::format("does not apply to a {} shape (its size gives its height)",
                          solid_name(solid->kind)));
    }
    if (solid->kind != SolidKind::kMesh) o.height = solid->top();
  }
  if (auto f = value("color", index)) {
    o.color = f->is_scalar() && f->scalar() == "cycle" ? cycle_color(index) : f->as_color();
  }
  if (auto f = value("density", index)) {
    o.density = f->as_unit_interval();
  }
  o.tags = read_tags(index);
  o.physics = read_physics([&](const char* key) { return value(key, index); }, o.shape);
  if (default_friction_ && !value("friction", index)) o.physics.friction = *default_friction_;
  if (default_restitution_ && !value("restitution", index)) {
    o.physics.restitution = *default_restitution_;
  }
  o.plot = read_plot(value("plot", index), role);

  if (sensors_) o.sensors = read_group_sensors();
  if (auto f = value("ros2", index); f && role != Role::kRobot) {
    f->fail("the ROS 2 bridge publishes and drives robots only");
  }
  o.ros2 = read_ros2(value("ros2", index));
  // IR-SIM: an object without an explicit field of view borrows its first lidar's.
  if (auto f = value("fov", index)) {
    o.fov = std::fmod(f->as_positive(), 2.0 * kPi);
  }
  if (auto f = value("fov_radius", index)) o.fov_radius = f->as_positive();
  for (const SensorModel& s : o.sensors) {
    if (const auto* lidar = std::get_if<Lidar2dModel>(&s.params)) {
      if (!o.fov) o.fov = lidar->angle_range;
      if (!o.fov_radius) o.fov_radius = lidar->range_max;
      break;
    }
    if (const auto* lidar = std::get_if<Lidar3dModel>(&s.params)) {
      if (!o.fov) o.fov = lidar->angle_range;
      if (!o.fov_radius) o.fov_radius = lidar->range_max;
      break;
    }
  }
  return o;
}

std::vector<double> ObjectReader::read_state(const std::vector<double>& raw, const Field* field,
                                             const ObjectModel& object) const {
  const std::size_t dim = static_cast<std::size_t>(object.kinematics.state_dim());
  std::vector<double> state = raw;
  for (std::size_t k = 0; k < state.size(); ++k) {
    if (!std::isfinite(state[k])) {
      if (field) field->item(k).fail("must be a finite number");
    }
  }
  if (state.size() > dim) {
    if (object.role == Role::kRobot) {
      warnings_.push_back(fmt::format("{}: state has {} values; {} kinematics uses the first {}",
                                      field ? field->location() : object.name, state.size(),
                                      kinematics_name(object.kinematics.kind), dim));
    }
    state.resize(dim);
  }
  state.resize(dim, 0.0);
  return state;
}

std::vector<std::vector<double>> ObjectReader::read_goals(const std::optional<Field>& goal) const {
  if (!goal) return {{1.0, 9.0, 0.0}};
  auto read_one = [](const Field& f) {
    std::vector<double> g = f.as_numbers(2, 4);
    for (std::size_t k = 0; k < g.size(); ++k) {
      if (!std::isfinite(g[k])) f.item(k).fail("must be a finite number");
    }
    g.resize(3, 0.0);
    return g;
  };
  if (goal->is_sequence() && goal->size() > 0 && goal->item(0).is_sequence()) {
    std::vector<std::vector<double>> goals;
    for (std::size_t i = 0; i < goal->size(); ++i) goals.push_back(read_one(goal->item(i)));
    return goals;
  }
  return {read_one(*goal)};
}

}  // namespace ubot::config
