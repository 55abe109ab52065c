#include "ubot/sim/simulation.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <typeinfo>

#include <fmt/format.h>

#include "snapshot_data.h"
#include "ubot/core/error.h"
#include "ubot/core/phase_clock.h"
#include "ubot/scene/grid_caster.h"
#include "ubot/sensors/registered_sensors.h"

namespace ubot {
namespace {

// Height of objects without an explicit one as 3D sensors see them (SPEC §1).
constexpr double kDefault3dHeight = 1.0;

// `z`: the object's base height now (its model z, or its trajectory's height). `height`: its
// extrusion when the model has none (unset: unbounded, reaching every 2D scan plane).
scene::BodyGeometry body_geometry(const ObjectModel& m, const WorldShape& shape, double z,
                                  std::optional<double> height) {
  scene::BodyGeometry g;
  if (shape.circle) {
    g.kind = scene::ShapeKind::kCircle;
    g.center = shape.center;
    g.radius = shape.radius;
  } else {
    g.kind = shape.closed ? scene::ShapeKind::kPolygon : scene::ShapeKind::kPolyline;
    g.vertices = shape.vertices;
  }
  if (const std::optional<double> h = m.height ? m.height : height) {
    g.z_min = z;
    g.z_max = z + *h;
  }
  return g;
}

// The grid map's cells span [0, height] (unset: unbounded, like a heightless object).
std::shared_ptr<const scene::GridCaster> grid_caster(const GridMap& g,
                                                     std::optional<double> height) {
  const double inf = std::numeric_limits<double>::infinity();
  return std::make_shared<const scene::GridCaster>(g.nx, g.ny, g.origin, g.cell, g.occupied_rows(),
                                                   height ? 0.0 : -inf, height ? *height : inf);
}

// What a ray cast sees of a planar shape: the shape, or each part of a compound one.
std::vector<const WorldShape*> visible_parts(const WorldShape& shape) {
  if (shape.parts.empty()) return {&shape};
  std::vector<const WorldShape*> parts;
  for (const WorldShape& part : shape.parts) parts.push_back(&part);
  return parts;
}

// Objects a ray-cast sees as a sphere or a mesh (the other 3D shapes are extrusions).
bool is_solid_body(const ObjectModel& m) {
  return m.shape.solid &&
         (m.shape.solid->kind == SolidKind::kSphere || m.shape.solid->kind == SolidKind::kMesh);
}

Eigen::Vector3d sphere_center(const World& world, int id) {
  const SolidModel& s = *world.object_model(id).shape.solid;
  const WorldShape& shape = world.shape(id);
  return {shape.center.x(), shape.center.y(), world.base_z(id) + s.radius};
}

Eigen::Isometry3d mesh_pose(const World& world, int id) {
  const Pose3d p = world.pose3d(id);
  Eigen::Isometry3d x = Eigen::Isometry3d::Identity();
  x.linear() = p.orientation.toRotationMatrix();
  x.translation() = p.position;
  return x;
}

// A snapshot ready for a provider: defaults, with the cell storage of earlier steps kept.
void reset_snapshot(media::MediumSnapshot& s) {
  s.active = true;
  s.medium_type = "smoke";
  s.tint = {};
  s.cells.clear();
  s.source_object = -1;
  s.name.clear();
  s.legacy_tag.clear();
}

// The legacy path's one cell: the object's bounding circle, at its base height (mid-height when
// it has one), moving rigidly with it.
void legacy_snapshot(const World& world, int id, const std::string& tag,
                     media::MediumSnapshot& out) {
  const ObjectModel& m = world.object_model(id);
  const std::vector<double>& state = world.object(id).state;
  const ShapeModel::Circle circle = m.shape.bounding_circle();
  const double c = std::cos(state[2]), s = std::sin(state[2]);
  const Eigen::Vector2d r(c * circle.center.x() - s * circle.center.y(),
                          s * circle.center.x() + c * circle.center.y());
  const Eigen::Vector2d v = world.velocity_xy(id);
  const double w = world.angular_velocity(id);
  out.name = m.name;
  out.source_object = id;
  out.legacy_tag = tag;
  media::MediumCell& cell = out.cells.emplace_back();
  cell.position = {state[0] + r.x(), state[1] + r.y(),
                   world.base_z(id) + (m.height ? *m.height / 2.0 : 0.0)};
  cell.radius = circle.radius;
  cell.density = m.density;
  cell.velocity = {v.x() - w * r.y(), v.y() + w * r.x(), 0.0};
}

std::unique_ptr<Sensor> make_sensor(const SensorModel& s, const ObjectModel& owner, int index,
                                    std::uint64_t seed) {
  // One alternative per registered type (sensor_types.h): its parameters TModel make a T.
#define UBOT_MAKE_SENSOR(T)                            \
  [&](const T##Model&) -> std::unique_ptr<Sensor> {    \
    return std::make_unique<T>(s, owner, index, seed); \
  },
  return std::visit(Overloaded{UBOT_SENSOR_TYPES(UBOT_MAKE_SENSOR)}, s.params);
#undef UBOT_MAKE_SENSOR
}

// The thread count is checked here, where TBB gets it, so that every caller (the CLI, the Python
// module, VectorEnv, a C++ user) is refused the same way instead of crashing inside TBB.
int checked_threads(int n) {
  if (n < 0 || n > kMaxThreads)
    throw Error(fmt::format("threads: expected a whole number from 0 to {} (0 = all cores), got {}",
                            kMaxThreads, n));
  return n;
}

}  // namespace

struct Simulation::Threads {
  explicit Threads(int n) : arena(n > 0 ? n : tbb::task_arena::automatic) {}
  tbb::task_arena arena;
};

Simulation::Simulation(WorldModel model, SimulationOptions options)
    : Simulation(std::make_shared<const WorldModel>(std::move(model)), options) {}

Simulation::Simulation(std::shared_ptr<const WorldModel> model, SimulationOptions options)
    : world_(model, model->seed),
      options_(options),
      scene_(std::make_unique<scene::Scene>()),
      threads_(std::make_unique<Threads>(checked_threads(options.threads))) {
  make_sensors(world_.seed());
  build_scene();
  share_threads_with_world();
  for (const MediumModel& m : *world_.model().media) {
    providers_.push_back(std::make_unique<media::DeclaredMedium>(m));
  }
  declared_providers_ = providers_.size();
  std::set<std::string> tags;  // the legacy tags any sensor looks for
  for (const auto& sensor : sensors_) {
    const media::SmokeSettings& smoke = sensor->model().common.smoke;
    if (smoke.enable_smoke_interference && !smoke.smoke_volume_tag.empty()) {
      tags.insert(smoke.smoke_volume_tag);
    }
  }
  for (const ObjectModel& o : world_.model().objects) {
    for (const std::string& tag : o.tags) {
      if (tags.contains(tag)) tagged_.emplace_back(o.id, tag);
    }
  }
}

void Simulation::add_medium_provider(std::unique_ptr<media::MediumProvider> provider) {
  added_at_start_.push_back(provider->clone());
  providers_.push_back(std::move(provider));
}

Simulation::~Simulation() = default;

// The sensors of every object, in object then list order, their streams derived from `seed`,
// each having observed the world at its current time.
void Simulation::make_sensors(std::uint64_t seed) {
  sensors_.clear();
  for (const ObjectModel& o : world_.model().objects) {
    for (std::size_t i = 0; i < o.sensors.size(); ++i) {
      sensors_.push_back(make_sensor(o.sensors[i], o, static_cast<int>(i), seed));
    }
  }
  track_motion_for_sensors();
  for (const auto& sensor : sensors_) sensor->observe(world_, world_.time_ns());
}

// Large steps move objects on these threads too (World::set_parallel_for: same result). A new
// world (reset) is told again.
void Simulation::share_threads_with_world() {
  if (options_.threads != 1 && threads_->arena.max_concurrency() > 1) {
    world_.set_parallel_for([this](std::size_t n, const std::function<void(std::size_t)>& body) {
      parallel_for(n, body);
    });
  }
}

// Only a sensor that samples inside steps asks the world where its object was within a step.
void Simulation::track_motion_for_sensors() {
  std::vector<bool> tracked(world_.size(), false);
  for (const auto& sensor : sensors_) {
    if (sensor->samples_inside_steps())
      tracked[static_cast<std::size_t>(sensor->object_id())] = true;
  }
  world_.track_motion_within_steps(tracked);
}

std::int64_t SimulationSnapshot::step_count() const { return data_ ? data_->world.step_count : 0; }

std::uint64_t SimulationSnapshot::seed() const { return data_ ? data_->world.seed : 0; }

void Simulation::reset(std::uint64_t seed) {
  world_ = World(world_.shared_model(), seed);
  share_threads_with_world();
  track_motion_for_sensors();
  // Fresh sensors' state copied into the existing ones: the sensors stay the same objects (as
  // restore keeps them), and their outputs keep their storage, so a view of an output (the
  // Python module's numpy arrays) still points at live memory.
  std::size_t k = 0;
  for (const ObjectModel& o : world_.model().objects) {
    for (std::size_t i = 0; i < o.sensors.size(); ++i, ++k) {
      sensors_[k]->copy_state_from(*make_sensor(o.sensors[i], o, static_cast<int>(i), seed));
    }
  }
  for (const auto& sensor : sensors_) sensor->observe(world_, world_.time_ns());
  for (std::size_t i = declared_providers_; i < providers_.size(); ++i) {
    const auto& start = added_at_start_[i - declared_providers_];
    if (start) providers_[i]->copy_state_from(*start);
  }
  sampled_.clear();
  media_count_ = 0;
  refit_scenes();
}

void Simulation::reseed(std::uint64_t seed) {
  world_.reseed(seed);
  for (const auto& sensor : sensors_) sensor->reseed(seed);
}

SimulationSnapshot Simulation::snapshot() const {
  auto data = std::make_shared<SimulationSnapshot::Data>();
  data->model = world_.shared_model();
  data->world = world_.state();
  data->sensors.reserve(sensors_.size());
  for (const auto& sensor : sensors_) data->sensors.push_back(sensor->clone());
  // Declared media are stateless (their snapshot depends only on time and world): only the
  // providers added with add_medium_provider carry state worth copying.
  for (std::size_t i = declared_providers_; i < providers_.size(); ++i) {
    data->providers.push_back(providers_[i]->clone());
    if (!data->providers.back()) {
      throw Error(
          fmt::format("{}: cannot snapshot the simulation: medium provider {} (added "
                      "with add_medium_provider) does not implement clone()",
                      world_.model().file, i));
    }
  }
  data->sampled = sampled_;
  data->media.assign(media_.begin(), media_.begin() + static_cast<std::ptrdiff_t>(media_count_));
  SimulationSnapshot snapshot;
  snapshot.data_ = std::move(data);
  return snapshot;
}

void Simulation::restore(const SimulationSnapshot& snapshot) {
  const SimulationSnapshot::Data* data = snapshot.data_.get();
  if (data == nullptr) throw Error("restore: the snapshot is empty (default-constructed)");
  if (data->model != world_.shared_model()) {
    throw Error(fmt::format(
        "restore: the snapshot is of another world model ({}) than this simulation's ({}); "
        "snapshots move only between simulations of the same shared WorldModel",
        data->model->file, world_.model().file));
  }
  // The snapshot holds the added providers only (same model: same declared ones).
  const std::size_t added = providers_.size() - declared_providers_;
  if (data->providers.size() != added) {
    throw Error(
        fmt::format("restore: the snapshot has {} added medium providers, this simulation {}",
                    data->providers.size(), added));
  }
  for (std::size_t i = 0; i < added; ++i) {
    const media::MediumProvider& mine = *providers_[declared_providers_ + i];
    const media::MediumProvider& theirs = *data->providers[i];
    if (typeid(mine) != typeid(theirs)) {
      throw Error(fmt::format("restore: medium provider {} is of another type than the snapshot's",
                              declared_providers_ + i));
    }
  }
  world_.set_state(data->world);
  for (std::size_t i = 0; i < sensors_.size(); ++i) sensors_[i]->copy_state_from(*data->sensors[i]);
  for (std::size_t i = 0; i < added; ++i) {
    providers_[declared_providers_ + i]->copy_state_from(*data->providers[i]);
  }
  sampled_ = data->sampled;
  if (media_.size() < data->media.size()) media_.resize(data->media.size());
  std::copy(data->media.begin(), data->media.end(), media_.begin());
  media_count_ = data->media.size();
  refit_scenes();
}

void Simulation::teleport(int id, std::span<const double> state) {
  world_.teleport(id, state);
  refit_scenes();
}

void Simulation::set_goals(int id, std::vector<std::vector<double>> goals) {
  world_.set_goals(id, std::move(goals));
}

void Simulation::refit_scenes() {
  update_scene(*scene_, std::nullopt, body_of_object_);
  if (scene3d_) update_scene(*scene3d_, kDefault3dHeight, body3d_of_object_);
}

void Simulation::build_scene() {
  fill_scene(*scene_, std::nullopt, body_of_object_);
  // 3D sensors need a scene of their own when some object has no explicit height: there it is
  // 1 m tall, while 2D scans still see it from below to above their plane.
  const bool any_3d =
      std::any_of(sensors_.begin(), sensors_.end(), [](const auto& s) { return s->casts_in_3d(); });
  const bool any_heightless = std::any_of(
      world_.model().objects.begin(), world_.model().objects.end(),
      [](const ObjectModel& m) { return !m.unobstructed && !m.height && !is_solid_body(m); });
  if (any_3d && (any_heightless || world_.model().grid)) {
    scene3d_ = std::make_unique<scene::Scene>();
    fill_scene(*scene3d_, kDefault3dHeight, body3d_of_object_);
  }
}

void Simulation::fill_scene(scene::Scene& scene, std::optional<double> height,
                            std::vector<std::vector<scene::BodyId>>& bodies) {
  // Unobstructed objects are invisible to sensors (IR-SIM's lidar skips them).
  bodies.assign(world_.size(), {});
  std::map<const TriangleMesh*, scene::Scene::MeshId> meshes;
  for (int id = 0; id < static_cast<int>(world_.size()); ++id) {
    const ObjectModel& m = world_.object_model(id);
    if (m.unobstructed) continue;
    const bool dynamic = !m.is_static;
    if (!is_solid_body(m)) {
      for (const WorldShape* part : visible_parts(world_.shape(id))) {
        bodies[id].push_back(
            scene.add_body(body_geometry(m, *part, world_.base_z(id), height), dynamic, id));
      }
    } else if (m.shape.solid->kind == SolidKind::kSphere) {
      bodies[id] = {
          scene.add_sphere(sphere_center(world_, id), m.shape.solid->radius, dynamic, id)};
    } else {
      const auto [it, added] = meshes.try_emplace(m.shape.solid->mesh.get(), 0);
      if (added) it->second = scene.add_mesh(m.shape.solid->mesh);
      bodies[id] = {scene.add_mesh_body(it->second, mesh_pose(world_, id), dynamic, id)};
    }
  }
  // The ground and the grid map belong to no object: rays that hit them report object -1.
  if (world_.model().ground) scene.set_ground(*world_.model().ground, -1);
  if (const auto& grid = world_.model().grid) scene.set_grid(grid_caster(*grid, height), -1);
  scene.commit();
}

void Simulation::update_scene(scene::Scene& scene, std::optional<double> height,
                              const std::vector<std::vector<scene::BodyId>>& bodies) {
  bool moved = false;
  for (int id = 0; id < static_cast<int>(world_.size()); ++id) {
    const ObjectModel& m = world_.object_model(id);
    if (bodies[id].empty() || m.is_static) continue;
    if (!is_solid_body(m)) {
      const std::vector<const WorldShape*> parts = visible_parts(world_.shape(id));
      for (std::size_t k = 0; k < parts.size(); ++k) {
        scene.update_body(bodies[id][k], body_geometry(m, *parts[k], world_.base_z(id), height));
      }
    } else if (m.shape.solid->kind == SolidKind::kSphere) {
      scene.update_sphere(bodies[id].front(), sphere_center(world_, id));
    } else {
      scene.update_mesh_body(bodies[id].front(), mesh_pose(world_, id));
    }
    moved = true;
  }
  if (moved) scene.commit();
}

void Simulation::step(std::span<const Command> commands) {
  StepTimings* t = timings_ ? &*timings_ : nullptr;
  {
    const PhaseClock clock(t ? &t->world_ns : nullptr);
    world_.step(commands);
  }
  {
    const PhaseClock clock(t ? &t->scene_ns : nullptr);
    refit_scenes();
    for (const auto& sensor : sensors_) sensor->observe(world_, world_.time_ns());
    collect_media();
  }
  {
    const PhaseClock clock(t ? &t->sensors_ns : nullptr);
    sample_sensors();
  }
  if (world_.fog().enabled()) {
    const PhaseClock clock(t ? &t->fog_ns : nullptr);
    reveal_fog();
  }
  if (t) ++t->steps;
}

void Simulation::set_timing(bool on) {
  world_.set_timing(on);
  if (on) {
    timings_.emplace();
  } else {
    timings_.reset();
  }
}

StepTimings Simulation::timings() const {
  StepTimings t = timings_.value_or(StepTimings{});
  t.behaviors_ns = world_.behavior_ns();
  return t;
}

void Simulation::reveal_fog() {
  // IR-SIM's world.step(objects) after the sensors: each object's first lidar reveals along its
  // beams; an object without one, its field of view.
  std::vector<const Lidar2d*> lidar(world_.size(), nullptr);
  for (const auto& sensor : sensors_) {
    const Lidar2d* l = sensor_if<Lidar2d>(*sensor);
    if (l && !lidar[sensor->object_id()]) lidar[sensor->object_id()] = l;
  }
  FogMap& fog = world_.fog();
  for (int id = 0; id < static_cast<int>(world_.size()); ++id) {
    const ObjectModel& m = world_.object_model(id);
    if (const Lidar2d* l = lidar[id]) {
      if (l->header().valid) fog.reveal_from_lidar(l->scan().origin, l->angles(), l->scan().ranges);
    } else if (m.fov && m.fov_radius) {
      const std::vector<double>& s = world_.object(id).state;
      fog.reveal_fov({s[0], s[1], s[2]}, *m.fov, *m.fov_radius);
    }
  }
}

bool Simulation::sample_now(std::size_t i) {
  sensors_[i]->sample({world_, *scene_, world_.time_ns(), media(), scene3d_.get()});
  return sensors_[i]->header().valid;
}

void Simulation::collect_media() {
  const media::MediumQuery query{world_.time_ns(), world_};
  media_count_ = 0;
  auto next = [&]() -> media::MediumSnapshot& {
    if (media_count_ == media_.size()) media_.emplace_back();
    media::MediumSnapshot& s = media_[media_count_++];
    reset_snapshot(s);
    return s;
  };
  std::vector<int>& claimed = claimed_;  // objects a provider speaks for: not collected by tag
  claimed.clear();
  for (const auto& provider : providers_) {
    media::MediumSnapshot& s = next();
    if (provider->source_object() >= 0) claimed.push_back(provider->source_object());
    if (!provider->snapshot(query, s)) {
      --media_count_;  // nothing this time
      continue;
    }
    if (s.source_object >= 0) claimed.push_back(s.source_object);
    s.legacy_tag.clear();
  }
  for (const auto& [id, tag] : tagged_) {
    if (std::find(claimed.begin(), claimed.end(), id) != claimed.end()) continue;
    legacy_snapshot(world_, id, tag, next());
  }
}

void Simulation::parallel_for(std::size_t n, const std::function<void(std::size_t)>& body) const {
  if (options_.threads == 1 || n <= 1) {
    for (std::size_t i = 0; i < n; ++i) body(i);
    return;
  }
  threads_->arena.execute([&] { tbb::parallel_for(std::size_t{0}, n, body); });
}

void Simulation::sample_sensors() {
  const Nanos now = world_.time_ns();
  sampled_.clear();
  for (int i = 0; i < static_cast<int>(sensors_.size()); ++i) {
    if (sensors_[i]->due(now)) sampled_.push_back(i);
  }
  // Every sensor is visited, due or not: sample_step also empties the step's sample lists.
  const SensorContext ctx{world_, *scene_, now, media(), scene3d_.get()};
  // One thread or one sensor: no arena to enter (what a VectorEnv's many small simulations,
  // each stepped by one worker, save per step).
  if (options_.threads == 1 || sensors_.size() <= 1) {
    for (const auto& sensor : sensors_) sensor->sample_step(ctx);
    return;
  }
  threads_->arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, sensors_.size(),
                      [&](std::size_t i) { sensors_[i]->sample_step(ctx); });
  });
}

}  // namespace ubot
