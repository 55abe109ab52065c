#pragma once
// Sensors read a post-move snapshot of the world (state + scene) and write only their own
// output and frame header. Each owns its random stream and its sampling schedule, so sensors
// can sample in parallel and in any order with identical results.
#include <cstdint>
#include <span>
#include <string>

#include "ubot/config/world_model.h"
#include "ubot/core/frame_header.h"
#include "ubot/core/random.h"
#include "ubot/core/time.h"

namespace ubot {

class World;
namespace scene {
class Scene;
}

// What a sensor may read when it samples.
struct SensorContext {
  const World& world;
  const scene::Scene& scene;
  Nanos stamp;  // simulation time of this sample
  // The media snapshots of this step, collected once from every provider before any sensor
  // samples (SPEC §8); a sensor looks at them through a media::MediaView with its own settings.
  std::span<const media::MediumSnapshot> media = {};
  // The scene 3D sensors cast in, when it differs from `scene`: there, objects without an
  // explicit height are 1 m tall instead of reaching every 2D scan plane (SPEC §1). Null: use
  // `scene`.
  const scene::Scene* scene3d = nullptr;
  const scene::Scene& scene_3d() const { return scene3d != nullptr ? *scene3d : scene; }
};

enum class SensorKind { kLidar2d, kImu, kLidar3d, kDepthCamera, kRgbCamera };

class Sensor {
 public:
  Sensor(const SensorModel& model, const ObjectModel& owner, int index, std::uint64_t world_seed);
  virtual ~Sensor() = default;
  Sensor(const Sensor&) = delete;
  Sensor& operator=(const Sensor&) = delete;

  virtual SensorKind kind() const = 0;
  const SensorModel& model() const { return model_; }
  int object_id() const { return object_id_; }
  int index() const { return index_; }  // position in its object's sensor list
  const FrameHeader& header() const { return header_; }

  // True when the sensor's schedule has a sample due at time `t` (SPEC §0 "Sampling").
  bool due(Nanos t) const;
  // Takes one sample at ctx.stamp: updates the header and the output, and advances the
  // schedule. A disabled sensor only records a "Disabled" header.
  void sample(const SensorContext& ctx);
  // Called by the simulation once at the start and after every world step (at time t, before
  // any sensor samples), whether or not this sensor samples then: a sensor that needs the motion
  // between its samples (lidar3d's motion distortion) records it here. Default: nothing.
  virtual void observe(const World& /*world*/, Nanos /*t*/) {}

 protected:
  // Fills the sensor's output; returns whether the sample is valid and its status name.
  virtual bool measure(const SensorContext& ctx, std::string& status) = 0;
  RandomStream& rng() { return rng_; }

 private:
  SensorModel model_;
  int object_id_;
  int index_;
  FrameHeader header_;
  RandomStream rng_;
  Nanos period_ns_ = 0;  // 0: every step
  Nanos next_due_ns_ = 0;
  bool started_ = false;
};

}  // namespace ubot
