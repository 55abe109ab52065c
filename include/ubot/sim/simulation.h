#pragma once
// Simulation: the one-way pipeline of a run. Each step: the world moves (behaviours or
// commands -> kinematics -> collisions), the scene is refit to the new poses, and every due
// sensor samples (in parallel; each sensor owns its output and random stream, so results do not
// depend on the thread count): ray-casting sensors once, the post-move snapshot; IMUs at every
// grid time of the step, from the world's motion at that instant (docs/sampling.md). Before the
// sensors sample, the media of the step are collected once from every provider (SPEC §8), so all
// sensors of a step see the same smoke.
//
// Model and state (docs/determinism.md): the WorldModel is immutable and may be shared by many
// simulations; everything that changes (the world's WorldState, each sensor's runtime state, the
// media providers' state, the last step's sampled list and media) can be copied out with
// snapshot(), put back with restore(), or set back to step 0 with reset(seed).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ubot/config/world_model.h"
#include "ubot/media/provider.h"
#include "ubot/scene/scene.h"
#include "ubot/sensors/sensor.h"
#include "ubot/world/world.h"

namespace ubot {

// The most sensor threads a simulation takes (0 = all cores). Far above the cores of any machine
// ubot runs on; a larger request made TBB's arena crash (65537 or 10^9: SIGSEGV).
inline constexpr int kMaxThreads = 256;

struct SimulationOptions {
  int threads = 0;  // sensor sampling threads; 0 = all cores, at most kMaxThreads
};

// Where a simulation's steps spent their wall time, while timing is on (Simulation::set_timing):
// sums over `steps` steps, in nanoseconds. world = World::step (behaviours, motion, contacts,
// arrivals, collisions), of which behaviors = the behaviours' velocities; scene = refitting the
// ray-cast scenes to the moved objects, sensors' observe and the media's snapshots; sensors =
// sampling the due sensors; fog = revealing the fog of war. Outputs are the caller's: ubot run
// adds its sinks' time as outputs.
struct StepTimings {
  std::int64_t steps = 0;
  std::int64_t world_ns = 0;
  std::int64_t behaviors_ns = 0;
  std::int64_t scene_ns = 0;
  std::int64_t sensors_ns = 0;
  std::int64_t fog_ns = 0;
};

// A simulation's whole running state at one step: opaque, copyable (copies share the immutable
// data, so copying is cheap), and restorable any number of times into any Simulation of the
// same WorldModel object (the same std::shared_ptr<const WorldModel>).
class SimulationSnapshot {
 public:
  SimulationSnapshot() = default;  // empty: restoring it is an error
  std::int64_t step_count() const;
  std::uint64_t seed() const;
  // The state as bytes, a state file's content (docs/determinism.md "State files"): a header
  // naming the world, the state, a CRC-32. Simulation::load_state / snapshot_from_bytes read it
  // back in any process. Throws ubot::Error when part of the state lives outside ubot (a medium
  // provider added from code, a group behaviour written in Python), or the snapshot is empty.
  std::vector<std::uint8_t> to_bytes() const;
  // Equal when both are empty or their states are (the same bytes): snapshots of two
  // simulations, or of two processes, compare. Throws as to_bytes does.
  friend bool operator==(const SimulationSnapshot& a, const SimulationSnapshot& b) {
    if (!a.data_ || !b.data_) return !a.data_ && !b.data_;
    return a.data_ == b.data_ || a.to_bytes() == b.to_bytes();
  }

  struct Data;  // what it holds: opaque here (src/sim/snapshot_data.h)

 private:
  friend class Simulation;
  std::shared_ptr<const Data> data_;
};

class Simulation {
 public:
  explicit Simulation(WorldModel model, SimulationOptions options = {});
  // A simulation of a shared model (its seed: the model's): simulations of one model object can
  // restore each other's snapshots.
  explicit Simulation(std::shared_ptr<const WorldModel> model, SimulationOptions options = {});
  ~Simulation();

  const std::shared_ptr<const WorldModel>& model() const { return world_.shared_model(); }

  // Back to step 0 with world seed `seed`: afterwards the simulation is what a fresh one of the
  // same model with model.seed = seed would be (random placement is part of the model, drawn
  // when the world file was loaded, and stays). Media providers added with add_medium_provider
  // stay and get back their state from when they were added. Sensors stay the same objects
  // (their state is set back), as with restore.
  void reset(std::uint64_t seed);
  // The running state now. Throws ubot::Error when a provider added with add_medium_provider
  // does not support snapshots (MediumProvider::clone).
  SimulationSnapshot snapshot() const;
  // Every random stream (world: wander goals and motion noise; sensors: their noise) becomes
  // the one a simulation of world seed `seed` starts with, and the world's seed becomes `seed`;
  // the rest of the state stays. For runs fanned out from one saved state (VectorEnv's
  // start_state, a sweep's): each draws its own noise from there. At step 0 of a world without
  // wanderers (whose first goals are drawn at construction) it equals reset(seed).
  void reseed(std::uint64_t seed);
  // Puts the state of `snapshot` back, and refits the scene to it: stepping on gives what the
  // simulation gave after the snapshot was taken, byte for byte. Throws ubot::Error when the
  // snapshot is empty, of another WorldModel object, or has other media providers (number or
  // type).
  // Sensors and providers stay the same objects (their state is copied into them).
  void restore(const SimulationSnapshot& snapshot);
  // A snapshot of this simulation's world from SimulationSnapshot::to_bytes's bytes (of any
  // process); `what` names them in errors ("state file s.bin"). Throws ubot::Error, naming what
  // is wrong, for bytes that are not a state file, of another format version, damaged (CRC),
  // of another world (naming the first difference) or inconsistent with it.
  SimulationSnapshot snapshot_from_bytes(std::span<const std::uint8_t> bytes,
                                         const std::string& what = "state") const;
  // snapshot().to_bytes() into a file (written as PATH.part, then renamed), and back:
  // load_state(path) = restore(snapshot_from_bytes(file)).
  void save_state(const std::string& path) const;
  void load_state(const std::string& path);
  // The snapshot a state file holds, checked against this simulation's world (load_state's
  // first half): ubot::Error for a missing, damaged or foreign file.
  SimulationSnapshot read_state(const std::string& path) const;

  const World& world() const { return world_; }
  const scene::Scene& scene() const { return *scene_; }
  // The scene 3D sensors cast in (SensorContext::scene3d): objects without an explicit height
  // are 1 m tall there. The same as scene() when no object differs (or no 3D sensor exists).
  const scene::Scene& scene3d() const { return scene3d_ ? *scene3d_ : *scene_; }
  const std::vector<std::unique_ptr<Sensor>>& sensors() const { return sensors_; }
  // A sensor, for its operations (e.g. Imu::reset_bias).
  Sensor& sensor(std::size_t i) { return *sensors_[i]; }
  // Indices (into sensors()) of the sensors that sampled during the last step, ascending (an
  // IMU's samples of the step: Imu::step_samples()).
  const std::vector<int>& sampled() const { return sampled_; }
  // The media snapshots of the last step (usable or not), in this order: media declared in the
  // world file, providers added with add_medium_provider, then legacy tagged objects.
  std::span<const media::MediumSnapshot> media() const { return {media_.data(), media_count_}; }

  // Adds a medium provider; from the next step on it is asked for its snapshot every step.
  void add_medium_provider(std::unique_ptr<media::MediumProvider> provider);

  // World::teleport and World::set_goals, with the scenes refit so the next sample sees it;
  // World::set_velocity.
  void teleport(int id, std::span<const double> state);
  void set_goals(int id, std::vector<std::vector<double>> goals);
  void set_velocity(int id, const Eigen::Vector2d& velocity) { world_.set_velocity(id, velocity); }

  // One step; see World::step for `commands`.
  void step(std::span<const Command> commands = {});

  // Measuring where steps spend their time: set_timing(true) zeroes the sums and starts them,
  // timings() reads them (StepTimings). Off by default: a small world's step is a microsecond.
  void set_timing(bool on);
  StepTimings timings() const;
  // "Sample now": sensor i samples the current snapshot outside its schedule (also when it
  // already sampled at this time: an IMU then reports InvalidDeltaTime). Returns whether the
  // sample is valid. Not listed in sampled().
  bool sample_now(std::size_t i);

  // Runs body(i) for every i in [0, n), in parallel on the simulation's threads (its
  // SimulationOptions::threads): for outputs that read the state between steps (formatting a
  // 1000-robot frames.jsonl line). body may run on any of them, in any order.
  void parallel_for(std::size_t n, const std::function<void(std::size_t)>& body) const;

 private:
  void make_sensors(std::uint64_t seed);
  void track_motion_for_sensors();
  void share_threads_with_world();
  void build_scene();
  void refit_scenes();
  // Adds every visible object (and the ground) to `scene`; `height`: the extrusion of objects
  // without an explicit height (unset: unbounded).
  void fill_scene(scene::Scene& scene, std::optional<double> height,
                  std::vector<std::vector<scene::BodyId>>& bodies);
  void update_scene(scene::Scene& scene, std::optional<double> height,
                    const std::vector<std::vector<scene::BodyId>>& bodies);
  void collect_media();
  void sample_sensors();
  void reveal_fog();

  World world_;
  SimulationOptions options_;
  std::unique_ptr<scene::Scene> scene_;
  // Each object's bodies in the scene: one, one per part of a compound shape, none for objects
  // sensors cannot see.
  std::vector<std::vector<scene::BodyId>> body_of_object_;
  std::unique_ptr<scene::Scene> scene3d_;  // null: 3D sensors use scene_
  std::vector<std::vector<scene::BodyId>> body3d_of_object_;
  std::vector<std::unique_ptr<Sensor>> sensors_;
  std::vector<int> sampled_;
  std::vector<std::unique_ptr<media::MediumProvider>> providers_;  // declared first, then added
  // Each added provider's state when it was added (for reset; null: it cannot be copied).
  std::vector<std::unique_ptr<media::MediumProvider>> added_at_start_;
  std::size_t declared_providers_ = 0;
  // Legacy tag path: (object id, tag) for every object carrying a tag some sensor looks for.
  std::vector<std::pair<int, std::string>> tagged_;
  std::vector<media::MediumSnapshot> media_;  // storage reused from step to step
  std::vector<int> claimed_;                  // scratch of collect_media
  std::optional<StepTimings> timings_;        // set while timing is on
  std::size_t media_count_ = 0;
  struct Threads;
  std::unique_ptr<Threads> threads_;
};

}  // namespace ubot
