#include "ubot/sim/simulation.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "ubot/sensors/imu.h"
#include "ubot/sensors/lidar2d.h"

namespace ubot {
namespace {

// `z`: the object's base height now (its model z, or its trajectory's height).
scene::BodyGeometry body_geometry(const ObjectModel& m, const WorldShape& shape, double z) {
  scene::BodyGeometry g;
  if (shape.circle) {
    g.kind = scene::ShapeKind::kCircle;
    g.center = shape.center;
    g.radius = shape.radius;
  } else {
    g.kind = shape.closed ? scene::ShapeKind::kPolygon : scene::ShapeKind::kPolyline;
    g.vertices = shape.vertices;
  }
  if (m.height) {
    g.z_min = z;
    g.z_max = z + *m.height;
  }
  return g;
}

// A snapshot ready for a provider: defaults, with the cell storage of earlier steps kept.
void reset(media::MediumSnapshot& s) {
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
  cell.position = {state[0] + r.x(), state[1] + r.y(), m.z + (m.height ? *m.height / 2.0 : 0.0)};
  cell.radius = circle.radius;
  cell.density = m.density;
  cell.velocity = {v.x() - w * r.y(), v.y() + w * r.x(), 0.0};
}

std::unique_ptr<Sensor> make_sensor(const SensorModel& s, const ObjectModel& owner, int index,
                                    std::uint64_t seed) {
  if (std::holds_alternative<ImuModel>(s.params)) {
    return std::make_unique<Imu>(s, owner, index, seed);
  }
  return std::make_unique<Lidar2d>(s, owner, index, seed);
}

}  // namespace

struct Simulation::Threads {
  explicit Threads(int n) : arena(n > 0 ? n : tbb::task_arena::automatic) {}
  tbb::task_arena arena;
};

Simulation::Simulation(WorldModel model, SimulationOptions options)
    : world_(std::move(model)),
      options_(options),
      scene_(std::make_unique<scene::Scene>()),
      threads_(std::make_unique<Threads>(options.threads)) {
  build_scene();
  for (const ObjectModel& o : world_.model().objects) {
    for (std::size_t i = 0; i < o.sensors.size(); ++i) {
      sensors_.push_back(make_sensor(o.sensors[i], o, static_cast<int>(i), world_.model().seed));
    }
  }
  for (const MediumModel& m : world_.model().media) {
    providers_.push_back(std::make_unique<media::DeclaredMedium>(m));
  }
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
  providers_.push_back(std::move(provider));
}

Simulation::~Simulation() = default;

void Simulation::build_scene() {
  // Unobstructed objects are invisible to sensors (IR-SIM's lidar skips them).
  body_of_object_.assign(world_.size(), scene::kNoBody);
  for (int id = 0; id < static_cast<int>(world_.size()); ++id) {
    const ObjectModel& m = world_.object_model(id);
    if (m.unobstructed) continue;
    body_of_object_[id] = scene_->add_body(
        body_geometry(m, world_.shape(id), world_.pose3d(id).position.z()), !m.is_static, id);
  }
  scene_->commit();
}

void Simulation::update_scene() {
  bool moved = false;
  for (int id = 0; id < static_cast<int>(world_.size()); ++id) {
    const ObjectModel& m = world_.object_model(id);
    if (body_of_object_[id] == scene::kNoBody || m.is_static) continue;
    scene_->update_body(body_of_object_[id],
                        body_geometry(m, world_.shape(id), world_.pose3d(id).position.z()));
    moved = true;
  }
  if (moved) scene_->commit();
}

void Simulation::step(std::span<const Command> commands) {
  world_.step(commands);
  update_scene();
  collect_media();
  sample_sensors();
}

bool Simulation::sample_now(std::size_t i) {
  sensors_[i]->sample({world_, *scene_, world_.time_ns(), media()});
  return sensors_[i]->header().valid;
}

void Simulation::collect_media() {
  const media::MediumQuery query{world_.time_ns(), world_};
  media_count_ = 0;
  auto next = [&]() -> media::MediumSnapshot& {
    if (media_count_ == media_.size()) media_.emplace_back();
    media::MediumSnapshot& s = media_[media_count_++];
    reset(s);
    return s;
  };
  std::vector<int> claimed;  // objects a provider speaks for: never collected again by tag
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

void Simulation::sample_sensors() {
  const Nanos now = world_.time_ns();
  sampled_.clear();
  for (int i = 0; i < static_cast<int>(sensors_.size()); ++i) {
    if (sensors_[i]->due(now)) sampled_.push_back(i);
  }
  const SensorContext ctx{world_, *scene_, now, media()};
  threads_->arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, sampled_.size(),
                      [&](std::size_t k) { sensors_[sampled_[k]]->sample(ctx); });
  });
}

}  // namespace ubot
