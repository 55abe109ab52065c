#pragma once
// Simulation: the one-way pipeline of a run. Each step: the world moves (behaviours or
// commands -> kinematics -> collisions), the scene is refit to the new poses, and every due
// sensor samples that same post-move snapshot (in parallel; each sensor owns its output and
// random stream, so results do not depend on the thread count).
#include <memory>
#include <span>
#include <vector>

#include "ubot/config/world_model.h"
#include "ubot/scene/scene.h"
#include "ubot/sensors/sensor.h"
#include "ubot/world/world.h"

namespace ubot {

struct SimulationOptions {
  int threads = 0;  // sensor sampling threads; 0 = all cores
};

class Simulation {
 public:
  explicit Simulation(WorldModel model, SimulationOptions options = {});
  ~Simulation();

  const World& world() const { return world_; }
  const scene::Scene& scene() const { return *scene_; }
  const std::vector<std::unique_ptr<Sensor>>& sensors() const { return sensors_; }
  // A sensor, for its operations (e.g. Imu::reset_bias).
  Sensor& sensor(std::size_t i) { return *sensors_[i]; }
  // Indices (into sensors()) of the sensors that sampled during the last step, ascending.
  const std::vector<int>& sampled() const { return sampled_; }

  // One step; see World::step for `commands`.
  void step(std::span<const Command> commands = {});
  // "Sample now": sensor i samples the current snapshot outside its schedule (also when it
  // already sampled at this time: an IMU then reports InvalidDeltaTime). Returns whether the
  // sample is valid. Not listed in sampled().
  bool sample_now(std::size_t i);

 private:
  void build_scene();
  void update_scene();
  void sample_sensors();

  World world_;
  SimulationOptions options_;
  std::unique_ptr<scene::Scene> scene_;
  std::vector<scene::BodyId> body_of_object_;  // kNoBody for objects sensors cannot see
  std::vector<std::unique_ptr<Sensor>> sensors_;
  std::vector<int> sampled_;
  struct Threads;
  std::unique_ptr<Threads> threads_;
};

}  // namespace ubot
