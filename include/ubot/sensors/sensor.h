#pragma once
// Sensors read a post-move snapshot of the world (state + scene) and write only their own
// output and frame header. Each owns its random stream and its sampling schedule, so sensors
// can sample in parallel and in any order with identical results. Sampling (SPEC §0,
// docs/sampling.md): sample times lie on the sensor's own integer-nanosecond grid from t = 0. A
// sensor that reads only poses (the IMU) takes every grid time of a step, each seeing the
// world's motion at that instant (World::pose3d_at); a ray-casting sensor takes at most one
// sample per step, at the step's end, when a grid time has fallen due.
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "ubot/config/world_model.h"
#include "ubot/core/error.h"
#include "ubot/core/frame_header.h"
#include "ubot/core/random.h"
#include "ubot/core/time.h"
#include "ubot/media/medium.h"
#include "ubot/sensors/sensor_types.h"

namespace ubot {

class World;
namespace scene {
class Scene;
}

// What a sensor may read when it samples.
struct SensorContext {
  const World& world;
  const scene::Scene& scene;
  Nanos stamp;  // simulation time of this sample (sample_step: the end of the step)
  // The media snapshots of this step, collected once from every provider before any sensor
  // samples (SPEC §8); a sensor looks at them through a media::MediaView with its own settings.
  std::span<const media::MediumSnapshot> media = {};
  // The scene 3D sensors cast in, when it differs from `scene`: there, objects without an
  // explicit height are 1 m tall instead of reaching every 2D scan plane (SPEC §1). Null: use
  // `scene`.
  const scene::Scene* scene3d = nullptr;
  const scene::Scene& scene_3d() const { return scene3d != nullptr ? *scene3d : scene; }
};

class Sensor {
 public:
  // `model` is the world model's entry and must outlive the sensor (it is referred to, not
  // copied).
  Sensor(const SensorModel& model, const ObjectModel& owner, int index, std::uint64_t world_seed);
  virtual ~Sensor() = default;

  // Whether the sensor casts rays in 3D (lidar3d, cameras): the simulation then builds the scene
  // where heightless objects are 1 m tall (SensorContext::scene3d). Default: a 2D sensor.
  virtual bool casts_in_3d() const { return false; }
  // Snapshots (Simulation::snapshot / restore): a sensor's runtime state (header, schedule,
  // random stream, histories, last output) is the sensor object itself, so a snapshot holds a
  // clone and a restore copies the clone's state back into this object (which stays the one
  // sensors() lists). copy_state_from needs a sensor of the same type and model. Working buffers
  // that every sample rewrites are Scratch (core/scratch.h): clones leave them out and
  // copy_state_from keeps this object's, so neither copies more than the state.
  virtual std::unique_ptr<Sensor> clone() const = 0;
  virtual void copy_state_from(const Sensor& other) = 0;
  // Writes the sensor's running state, or reads it back (state files, core/state_io.h): the
  // header's counters, the random stream and the schedule, then its type's own (io_own_state):
  // what a clone carries, so a sensor read back samples on as the saved one would have.
  void io_state(StateIo& s);
  // Its random stream becomes the one it starts with in a world of seed `world_seed` (the
  // seeding rule of the constructor); everything else stays. Simulation::reseed.
  void reseed(std::uint64_t world_seed);
  // The sensor as its concrete type, for visit_sensor (sensor_types.h).
  virtual SensorRef ref() const = 0;
  const SensorModel& model() const { return *model_; }
  int object_id() const { return object_id_; }
  int index() const { return index_; }  // position in its object's sensor list
  const FrameHeader& header() const { return header_; }

  // True when the sensor's schedule has a sample due at or before time `t` (SPEC §0
  // "Sampling").
  bool due(Nanos t) const;
  // Takes the samples its schedule has due in the world step that ended at ctx.stamp: every
  // grid time up to ctx.stamp, each with its own stamp, when samples_inside_steps(); otherwise
  // at most one, at ctx.stamp. Returns how many it took.
  int sample_step(const SensorContext& ctx);
  // Takes one sample at ctx.stamp: updates the header and the output, and advances the
  // schedule past ctx.stamp. A disabled sensor only records a kDisabled header.
  void sample(const SensorContext& ctx);
  // Called by the simulation once at the start and after every world step (at time t, before
  // any sensor samples), whether or not this sensor samples then: a sensor that needs the motion
  // between its samples (lidar3d's motion distortion) records it here. Default: nothing.
  virtual void observe(const World& /*world*/, Nanos /*t*/) {}
  // Whether the sensor samples at its grid times inside a step, from the world's motion then
  // (it reads only poses: World::pose3d_at, so the simulation has the world track its object's
  // motion within steps), rather than once at the step's end (it casts rays in the scene,
  // which exists at step ends only). Default: at the end.
  virtual bool samples_inside_steps() const { return false; }

 protected:
  Sensor(const Sensor&) = default;
  Sensor& operator=(const Sensor&) = default;
  // Fills the sensor's output; returns the sample's status (valid when SampleStatus::kValid).
  virtual SampleStatus measure(const SensorContext& ctx) = 0;
  // sample_step calls begin_step() first, then after_step_sample() after each of its samples: a
  // sensor that keeps the samples of the step for its readers records them there.
  virtual void begin_step() {}
  virtual void after_step_sample() {}
  RandomStream& rng() { return rng_; }
  // The type's own part of io_state: its last output and whatever it carries between samples.
  virtual void io_own_state(StateIo& s) = 0;

 private:
  // The world model's own entry, never copied: a sensor lives inside a Simulation or a
  // snapshot, which hold their WorldModel (and a thousand envs' sensors then share one).
  const SensorModel* model_;
  int object_id_;
  int index_;
  FrameHeader header_;
  RandomStream rng_;
  Nanos period_ns_ = 0;  // 0: every step
  Nanos next_due_ns_ = 0;
  bool started_ = false;
};

template <class F>
decltype(auto) visit_sensor(const Sensor& sensor, F&& f) {
  return std::visit([&f](const auto* s) -> decltype(auto) { return f(*s); }, sensor.ref());
}

// The sensor as a T when it is one, else null: a typed query through SensorRef, not a cast.
template <class T>
const T* sensor_if(const Sensor& sensor) {
  const SensorRef ref = sensor.ref();
  const T* const* p = std::get_if<const T*>(&ref);
  return p != nullptr ? *p : nullptr;
}
// The same on a mutable sensor (the IMU's reset_bias / reset_history).
template <class T>
T* sensor_if(Sensor& sensor) {
  return const_cast<T*>(sensor_if<T>(static_cast<const Sensor&>(sensor)));
}
// `other` as a T, for copy_state_from: ubot::Error when it is another type (a snapshot of
// another model), never undefined behaviour.
template <class T>
const T& same_type_as(const Sensor& other) {
  if (const T* t = sensor_if<T>(other)) return *t;
  throw Error("restore: a sensor's state comes from a sensor of another type");
}

}  // namespace ubot
