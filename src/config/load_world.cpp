// World files: the top level, the `world` section, and the expansion of robot/obstacle groups
// (`number` + `distribution`) into single objects with IR-SIM's ids, names and states.
#include "ubot/config/load_world.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <numbers>
#include <set>

#include "grid_map_reader.h"
#include "irsim_keys.h"
#include "mapping_reader.h"
#include "object_reader.h"
#include "random_placement.h"
#include "resource_estimate.h"
#include "ros2_reader.h"
#include "ubot/core/angles.h"
#include "ubot/core/color.h"
#include "ubot/core/error.h"
#include "ubot/core/pose3d.h"
#include "ubot/core/random.h"
#include "ubot/mapping/mapping_config.h"
#include "ubot/media/medium_model.h"
#include "ubot/ros2/ros2_config.h"
#include "yaml_reader.h"

namespace ubot {
namespace {

using config::Field;
using config::Mapping;

// `fog_map` / `fog_map_resolution`: IR-SIM's fog of map (world/fog_map.h).
void read_fog_settings(Mapping& m, WorldSettings& w) {
  w.fog_map = m.boolean("fog_map", false);
  if (auto f = m.get("fog_map_resolution")) w.fog_map_resolution = f->as_positive();
}

// IR-SIM reads it stripped and in lower case ('External' is external).
StepMode read_step_mode(const Field& f) {
  std::string mode(f.scalar());
  std::transform(mode.begin(), mode.end(), mode.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  mode.erase(0, mode.find_first_not_of(" \t"));
  mode.erase(mode.find_last_not_of(" \t") + 1);
  if (mode == "internal") return StepMode::kInternal;
  if (mode == "external") return StepMode::kExternal;
  f.fail(fmt::format("must be 'internal' or 'external', got {}", quote_value(f.scalar())));
}

WorldSettings read_world_settings(const Field& field, const std::string& file,
                                  std::optional<StepMode> step_mode,
                                  std::optional<std::uint64_t>& seed,
                                  std::vector<std::string>& warnings) {
  WorldSettings w;
  Mapping m(field);
  w.name = m.string("name", std::filesystem::path(file).stem().string());
  w.height = m.positive("height", 10.0);
  w.width = m.positive("width", 10.0);
  // Time is int64 nanoseconds: a step of at least 1 µs is many ticks, and at most an hour keeps
  // 10^9 steps far from the int64 end (1e300 overflowed it, failing without a location).
  if (auto f = m.get("step_time")) {
    w.step_time = f->as_at_most(config::kMaxStepTime, "s");
    if (w.step_time < config::kMinStepTime) {
      f->fail(fmt::format("must be at least {:g} s, got {}", config::kMinStepTime, f->scalar()));
    }
  }
  if (auto f = m.get("sample_time")) {
    w.sample_time = f->as_at_most(config::kMaxStepTime, "s");
  } else {
    w.sample_time = w.step_time;
  }
  if (auto f = m.get("offset")) {
    const auto o = f->as_numbers(2, 2);
    w.offset = {o[0], o[1]};
  }
  if (auto f = m.get("collision_mode")) {
    const std::string mode =
        f->as_choice({"stop", "unobstructed", "unobstructed_obstacles", "reactive", "contact"});
    w.collision_mode = mode == "stop"           ? CollisionMode::kStop
                       : mode == "unobstructed" ? CollisionMode::kUnobstructed
                       : mode == "reactive"     ? CollisionMode::kReactive
                       : mode == "contact"      ? CollisionMode::kContact
                                                : CollisionMode::kUnobstructedObstacles;
  }
  if (auto f = m.get("contact_substeps")) {
    const std::int64_t n = f->as_integer();
    if (n < 1 || n > 1000) f->fail("contact_substeps must be an integer in [1, 1000]");
    w.contact_substeps = static_cast<int>(n);
  }
  if (auto f = m.get("friction")) w.friction = f->as_non_negative();
  if (auto f = m.get("restitution")) w.restitution = f->as_unit_interval();
  if (auto f = m.get("control_mode")) {
    w.control_mode = f->as_choice({"auto", "keyboard"});
    if (w.control_mode == "keyboard") {
      warnings.push_back(fmt::format(
          "{}: keyboard control: robots follow their behaviours until driven; with --live (or "
          "Simulation.serve) the page selects the first robot and IR-SIM's keys drive it",
          f->location()));
    }
  }
  if (auto f = m.get("step_mode")) w.step_mode = read_step_mode(*f);
  if (step_mode) w.step_mode = *step_mode;
  if (w.step_mode == StepMode::kExternal) {
    const std::optional<Field> f = m.get("step_mode");
    warnings.push_back(fmt::format(
        "{}: step_mode external{}: no object moves by itself; each step samples the sensors and "
        "sets the flags where set_state (Python: Simulation.set_state, ubot.irsim) puts them",
        f && !step_mode ? f->location() : file, step_mode ? " (the loader's option)" : ""));
  }
  if (auto f = m.get("seed")) {
    const std::int64_t s = f->as_integer();
    if (s < 0) f->fail("seed must not be negative");
    seed = static_cast<std::uint64_t>(s);
  }
  read_fog_settings(m, w);
  config::accept_ignored_irsim_keys(m, config::KeyPlace::kWorld, warnings);
  // IR-SIM options that only affect its matplotlib window or its own bookkeeping.
  for (const char* key : {"mdownsample", "plot", "status"}) m.ignore(key);
  m.ignore("obstacle_map");  // read with the seed known (grid_map_reader.h)
  m.finish();
  return w;
}

bool all_numbers(const Field& list) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list.item(i).is_number()) return false;
  }
  return true;
}

// numpy-style "values that describe several objects": a list of lists / mappings / strings is
// one value per object (padded with its last value, or truncated); anything else is shared by
// all objects (IR-SIM's convert_list_length). With `numbers_per_object` a list of numbers is one
// number per object too (IR-SIM 2.12.0's per_object, for mass, friction, restitution).
std::vector<Field> per_object(const Field& f, int n, std::vector<std::string>& warnings,
                              bool numbers_per_object = false) {
  std::vector<Field> out;
  const bool list_of_items =
      f.is_sequence() && f.size() > 0 && (numbers_per_object || !all_numbers(f));
  if (!list_of_items) return std::vector<Field>(static_cast<std::size_t>(n), f);
  const int given = static_cast<int>(f.size());
  if (given > n) {
    warnings.push_back(fmt::format(
        "{}: {}: {} values for {} object(s); the extra values are ignored (IR-SIM semantics: "
        "wrap several waypoints of one object in one more list)",
        f.location(), f.path(), given, n));
  }
  for (int i = 0; i < n; ++i)
    out.push_back(f.item(static_cast<std::size_t>(std::min(i, given - 1))));
  return out;
}

struct Placement {
  std::vector<std::vector<double>> states;
  std::vector<Field> state_fields;  // manual placement keeps the fields for messages
  std::vector<std::optional<Field>> goal_fields;
  std::vector<std::vector<double>> goals;  // generated goals (circle / random)
};

// `ground: true | false | {z: height}`: a ground plane (3D extension) at z (default 0).
// A colour as a name or hex string (as objects' `color`) or [r, g, b], each in [0, 1].
std::array<double, 3> read_rgb(const Field& field) {
  if (field.is_scalar()) {
    const Color c = *parse_color(field.as_color());
    return {c.r, c.g, c.b};
  }
  if (!field.is_sequence())
    field.fail("expected a colour name, \"#rrggbb\" or [r, g, b] in [0, 1]");
  field.as_numbers(3, 3);
  return {field.item(0).as_unit_interval(), field.item(1).as_unit_interval(),
          field.item(2).as_unit_interval()};
}

// `ground:` true / false or {z, color}: the plane's height, and its colour to RGB cameras.
std::optional<double> read_ground(const Field& field, Lighting& lighting) {
  if (field.is_scalar()) return field.as_bool() ? std::optional<double>(0.0) : std::nullopt;
  if (!field.is_map()) field.fail("expected true, false or a mapping {z: height, color: colour}");
  Mapping m(field);
  double z = 0.0;
  if (auto f = m.get("z")) z = f->as_finite();
  if (auto f = m.get("color")) lighting.ground = read_rgb(*f);
  m.finish();
  return z;
}

// `light: {direction, ambient, diffuse, sky}`: how RGB cameras shade (Lighting).
void read_light(const Field& field, Lighting& lighting) {
  if (!field.is_map()) field.fail("expected a mapping {direction, ambient, diffuse, sky}");
  Mapping m(field);
  if (auto f = m.get("direction")) {
    const Eigen::Vector3d d = f->as_vector3();
    if (!(d.norm() > 1e-9)) f->fail("expected a direction towards the light, not a zero vector");
    lighting.direction = d.normalized();
  }
  if (auto f = m.get("ambient")) lighting.ambient = f->as_unit_interval();
  if (auto f = m.get("diffuse")) lighting.diffuse = f->as_unit_interval();
  if (auto f = m.get("sky")) lighting.sky = read_rgb(*f);
  m.finish();
}

Eigen::Vector3d read_vector3(Mapping& m, std::string_view key, const Eigen::Vector3d& fallback) {
  const auto f = m.get(key);
  if (!f) return fallback;
  const auto v = f->as_numbers(2, 3);
  for (std::size_t k = 0; k < v.size(); ++k) f->item(k).as_finite();
  return {v[0], v[1], v.size() > 2 ? v[2] : fallback[2]};
}

class WorldLoader {
 public:
  WorldLoader(Field root, LoadOptions options)
      : root_(irsim_blocks(std::move(root))), options_(options) {}

  WorldModel load() {
    Mapping top(root_);
    model_.file = *root_.file();
    std::optional<std::uint64_t> yaml_seed;
    const Field world = top.get("world").value_or(Field::missing("world", root_));
    model_.world =
        read_world_settings(world, model_.file, options_.step_mode, yaml_seed, model_.warnings);
    model_.seed = options_.seed.value_or(yaml_seed.value_or(0));
    model_.world.host_behaviors = options_.host_behaviors;
    model_.grid = config::read_obstacle_map(world, model_.world, model_.seed);
    int group = 0;
    expected_objects_ = count_objects(top);
    config::check_memory_for_declared_objects(model_.file, expected_objects_,
                                              options_.memory_limit);
    if (auto robots = top.get("robot")) group = read_groups(*robots, Role::kRobot, 0);
    if (auto obstacles = top.get("obstacle")) read_groups(*obstacles, Role::kObstacle, group);
    // Before the simulation allocates images, point buffers and bodies.
    config::check_memory_estimate(model_, options_.memory_limit);
    top.ignore("gui");
    top.ignore("custom");  // IR-SIM 2.12.0: the user's own values, handed back untouched
    const auto mapping = top.get("mapping");
    const auto media = top.get("media");
    if (auto ground = top.get("ground")) model_.ground = read_ground(*ground, model_.lighting);
    if (auto light = top.get("light")) read_light(*light, model_.lighting);
    top.finish();
    check_unique_names();
    config::check_command_targets(model_.objects);
    if (mapping) model_.maps = config::read_mapping(*mapping, model_, model_.warnings);
    if (media) model_.media = config::read_media(*media, model_.objects);
    if (options_.on_document) options_.on_document(*root_.document());
    return std::move(model_);
  }

 private:
  // IR-SIM 2.12.0: a file shared with another simulator nests IR-SIM's blocks under `irsim:`,
  // and the rest of the file belongs to the other simulator.
  static Field irsim_blocks(Field root) {
    if (!root.is_map()) return root;
    std::optional<Field> nested = Mapping(root).get("irsim");
    return nested && nested->is_map() ? *nested : root;
  }

  // The objects the robot and obstacle lists declare (each group's `number`, 1 when absent or
  // unreadable: the reading proper reports that), for the progress display's total.
  static std::uint64_t count_objects(Mapping& top) {
    std::uint64_t total = 0;
    for (const char* role : {"robot", "obstacle"}) {
      const auto list = top.get(role);
      if (!list) continue;
      const auto count = [](const Field& group) -> std::uint64_t {
        if (!group.is_map()) return 1;
        const auto n = Mapping(group).get("number");
        if (!n || !n->is_number()) return 1;
        const double v = std::strtod(std::string(n->scalar()).c_str(), nullptr);
        return v >= 1 && v <= 1e6 ? static_cast<std::uint64_t>(v) : 1;
      };
      if (list->is_sequence()) {
        for (std::size_t g = 0; g < list->size(); ++g) total += count(list->item(g));
      } else {
        total += count(*list);
      }
    }
    return total;
  }

  // Returns the next free group index.
  int read_groups(const Field& list, Role role, int first_group) {
    if (list.is_map()) {
      read_group(list, role, first_group);
      return first_group + 1;
    }
    if (!list.is_sequence()) list.fail("expected a list of object groups (or one mapping)");
    // One object per entry at least: no doubling copies of 100 000 objects' models.
    reserve_objects(model_.objects.size() + list.size());
    for (std::size_t g = 0; g < list.size(); ++g) {
      read_group(list.item(g), role, first_group + static_cast<int>(g));
    }
    return first_group + static_cast<int>(list.size());
  }

  // Room for `needed` objects, growing geometrically: an exact reserve per group would move
  // every model so far once per group (quadratic in a list of many groups with `number`).
  void reserve_objects(std::size_t needed) {
    const std::size_t capacity = model_.objects.capacity();
    if (needed > capacity) model_.objects.reserve(std::max(needed, 2 * capacity));
  }

  void read_group(const Field& field, Role role, int group) {
    Mapping m(field);
    if (!field.is_map()) field.fail("expected a mapping describing an object group");
    int number = 1;
    if (auto f = m.get("number")) {
      const std::int64_t n = f->as_integer();
      if (n < 1) f->fail(fmt::format("must be at least 1, got {}", n));
      if (n > 1000000) f->fail(fmt::format("is too large ({} objects)", n));
      number = static_cast<int>(n);
    }
    const Placement placement = place(m, number, role, group);
    reserve_objects(model_.objects.size() + static_cast<std::size_t>(number));
    config::ObjectReader reader(
        m, number, model_.warnings,
        [&](const Field& f, int n, bool numbers) {
          return per_object(f, n, model_.warnings, numbers);
        },
        meshes_);
    reader.set_world_seed(model_.seed);
    reader.set_physics_defaults(model_.world.friction, model_.world.restitution);
    for (int i = 0; i < number; ++i) {
      ObjectModel object = reader.read(i, role, group, static_cast<int>(model_.objects.size()));
      if (object.ros2->declared_at.empty()) {  // no ros2 section: the receiver is the robot's
        Ros2Model ros2 = *object.ros2;
        config::set_declared(ros2, field);
        object.ros2 = std::move(ros2);
      }
      if (object.trajectory) {
        place_on_trajectory(object, m);
        model_.objects.push_back(std::move(object));
        continue;
      }
      object.state = reader.read_state(
          placement.states[i],
          placement.state_fields.empty() ? nullptr : &placement.state_fields[i], object);
      if (!placement.goals.empty()) {
        object.goals = {placement.goals[i]};
      } else {
        object.goals = reader.read_goals(placement.goal_fields[i]);
      }
      model_.objects.push_back(std::move(object));
      if (options_.progress) {
        options_.progress("objects", model_.objects.size(),
                          std::max<std::uint64_t>(expected_objects_, model_.objects.size()));
      }
    }
    m.finish();
  }

  // A trajectory object starts at its trajectory's pose at time 0 and has no goal; the world
  // moves it (world/trajectory.h).
  static void place_on_trajectory(ObjectModel& o, Mapping& m) {
    for (const char* key : {"state", "goal", "distribution"}) {
      if (auto f = m.get(key)) {
        f->fail(fmt::format("'{}' does not apply to an object that follows a trajectory", key));
      }
    }
    const TrajectoryModel& t = *o.trajectory;
    const Eigen::Vector3d p = t.ballistic ? t.ballistic->position : t.waypoints.front().position;
    const Eigen::Vector3d rpy = t.ballistic ? t.ballistic->rpy : t.waypoints.front().rpy;
    o.state = {p.x(), p.y(), planar_yaw(rotation_from_rpy(rpy))};
    o.goals.clear();
  }

  // A group that no draws could place min_distance apart is refused at once (issue 27): IR-SIM
  // would make 1000 draws for each object that does not fit, minutes for a large group, and
  // then place them overlapping anyway.
  static void check_room(const Field& distribution, const Eigen::Vector3d& low,
                         const Eigen::Vector3d& high, int number, double min_distance) {
    if (!(min_distance > 0.0)) return;
    const double most = config::max_points_apart(low, high, min_distance);
    if (number > most) {
      distribution.fail(fmt::format(
          "{} objects cannot be placed min_distance {:g} m apart in range_low..range_high "
          "({:g} m x {:g} m holds at most {:.0f}); lower number or min_distance, or widen the "
          "range",
          number, min_distance, high.x() - low.x(), high.y() - low.y(), std::floor(most)));
    }
    // Well beyond the jamming limit random draws can only end in refuse_full below, after 1000
    // draws for every object near the jam: say so now. The margin covers the objects placed
    // crowded on the way there (a 294 m square jams at about 60 600 apart and is found full at
    // about 70 000 placed, 1.15 x).
    const double jammed = config::max_points_by_random_draws(low, high, min_distance);
    if (number > 1.3 * jammed + 100) {
      distribution.fail(fmt::format(
          "{} objects cannot be drawn at random min_distance {:g} m apart in range_low.."
          "range_high ({:g} m x {:g} m): random draws jam at about {:.0f} (54.7 % of the range "
          "covered); lower number or min_distance, widen the range, or place them with another "
          "distribution",
          number, min_distance, high.x() - low.x(), high.y() - low.y(), std::floor(jammed)));
    }
  }

  [[noreturn]] static void refuse_full(const Field& distribution, const config::RandomPoints& r,
                                       int number, double min_distance) {
    distribution.fail(fmt::format(
        "the range is full: after {} of {} objects ({} of them too close to another), 100 in a "
        "row found no spot min_distance {:g} m from the others in 1000 draws each; lower number "
        "or min_distance, or widen the range",
        r.points.size(), number, r.crowded, min_distance));
  }

  // Objects kept where IR-SIM keeps them, after 1000 draws too close to another: said once.
  void warn_if_crowded(const Field& distribution, int crowded_states, int crowded_goals, int number,
                       double min_distance) {
    if (crowded_states == 0 && crowded_goals == 0) return;
    model_.warnings.push_back(fmt::format(
        "{}: {} of {} states and {} of {} goals are closer than min_distance {:g} m to another: "
        "no free spot in 1000 draws, placed there anyway (as IR-SIM does)",
        distribution.location(), crowded_states, number, crowded_goals, number, min_distance));
  }

  Placement place(Mapping& m, int number, Role role, int group) {
    Placement p;
    const auto distribution = m.get("distribution");
    std::string name = "manual";
    std::optional<Mapping> d;
    if (distribution) {
      d.emplace(*distribution);
      name = d->require("name").as_choice({"manual", "random", "circle"});
      if (auto f = d->get("3d"); f && f->as_bool()) {
        f->fail("3D state generation is not implemented (IR-SIM raises NotImplementedError)");
      }
      config::accept_ignored_irsim_keys(*d, config::KeyPlace::kDistribution, model_.warnings);
    }
    const auto state = m.get("state");
    const auto goal = m.get("goal");
    const WorldSettings& w = model_.world;
    if (name == "manual") {
      if (state) {
        p.state_fields = per_object(*state, number, model_.warnings);
        for (const Field& f : p.state_fields) p.states.push_back(f.as_numbers(2, 4));
      } else {
        p.states.assign(number, {1.0, 1.0, 0.0});
      }
      if (goal) {
        for (const Field& f : per_object(*goal, number, model_.warnings))
          p.goal_fields.push_back(f);
      } else {
        p.goal_fields.assign(number, std::nullopt);
      }
    } else if (name == "circle") {
      const double radius = d->positive("radius", std::min(w.width, w.height) / 2.0 - 0.5);
      Eigen::Vector2d center(w.offset.x() + w.width / 2.0, w.offset.y() + w.height / 2.0);
      if (auto c = d->get("center")) {
        const auto v = c->as_numbers(2, 3);
        center = {c->item(0).as_finite(), c->item(1).as_finite()};  // .inf placed robots at inf
        if (v.size() > 2) c->item(2).as_finite();
      }
      for (int i = 0; i < number; ++i) {
        const double theta = 2.0 * kPi * i / number;
        p.states.push_back({center.x() + radius * std::cos(theta),
                            center.y() + radius * std::sin(theta), theta - kPi});
        p.goals.push_back({center.x() - radius * std::cos(theta),
                           center.y() - radius * std::sin(theta), theta - kPi});
      }
    } else {  // random
      const Eigen::Vector3d low =
          read_vector3(*d, "range_low", {w.offset.x() + 0.5, w.offset.y() + 0.5, -kPi});
      const Eigen::Vector3d high = read_vector3(
          *d, "range_high", {w.offset.x() + w.width - 0.5, w.offset.y() + w.height - 0.5, kPi});
      for (int k = 0; k < 3; ++k) {
        if (!(low[k] <= high[k])) distribution->fail("range_low must not exceed range_high");
      }
      const double min_distance = d->non_negative("min_distance", 1.0);
      check_room(*distribution, low, high, number, min_distance);
      RandomStream rng(
          stream_seed(model_.seed, fmt::format("distribution/{}/{}", role_name(role), group)));
      config::RandomPoints states = config::random_points(rng, low, high, number, min_distance);
      if (states.full) refuse_full(*distribution, states, number, min_distance);
      config::RandomPoints goals = config::random_points(rng, low, high, number, min_distance);
      if (goals.full) refuse_full(*distribution, goals, number, min_distance);
      warn_if_crowded(*distribution, states.crowded, goals.crowded, number, min_distance);
      p.states = std::move(states.points);
      p.goals = std::move(goals.points);
    }
    if (d) d->finish();
    if (name != "manual") {
      if (state) m.ignore("state");
      if (goal) m.ignore("goal");
    }
    return p;
  }

  void check_unique_names() {
    std::set<std::string> seen;
    for (const ObjectModel& o : model_.objects) {
      if (!seen.insert(o.name).second) {
        throw Error(
            ErrorLocation(model_.file),
            fmt::format("object name {} is used twice; names must be unique", quote_value(o.name)));
      }
    }
  }

  Field root_;
  LoadOptions options_;
  std::uint64_t expected_objects_ = 0;  // for progress only
  WorldModel model_;
  config::MeshCache meshes_;
};

}  // namespace

WorldModel load_world(const std::string& path, const LoadOptions& options) {
  config::ParseProgress parsing = nullptr;
  if (options.progress) {
    parsing = [&](std::uint64_t done, std::uint64_t total) {
      options.progress("parsing", done, total);
    };
  }
  return WorldLoader(config::load_yaml_file(path, parsing), options).load();
}

WorldModel load_world_from_string(const std::string& yaml, const std::string& name,
                                  const LoadOptions& options) {
  return WorldLoader(config::parse_yaml(yaml, name), options).load();
}

}  // namespace ubot
