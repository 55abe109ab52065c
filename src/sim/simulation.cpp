#include "ubot/sim/simulation.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

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
  sample_sensors();
}

bool Simulation::sample_now(std::size_t i) {
  sensors_[i]->sample({world_, *scene_, world_.time_ns()});
  return sensors_[i]->header().valid;
}

void Simulation::sample_sensors() {
  const Nanos now = world_.time_ns();
  sampled_.clear();
  for (int i = 0; i < static_cast<int>(sensors_.size()); ++i) {
    if (sensors_[i]->due(now)) sampled_.push_back(i);
  }
  const SensorContext ctx{world_, *scene_, now};
  threads_->arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, sampled_.size(),
                      [&](std::size_t k) { sensors_[sampled_[k]]->sample(ctx); });
  });
}

}  // namespace ubot
