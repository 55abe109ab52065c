#pragma once
// Where media come from (SPEC §8). Each step, before any sensor samples, the simulation asks
// every provider for its snapshot of this moment, once, so all sensors of a step see the same
// media and a change a provider makes takes effect at the next sample. Built-in providers:
// media declared in the world file (DeclaredMedium, below) and objects carrying a smoke tag (the
// legacy path, collected by the simulation). Code adds its own with
// Simulation::add_medium_provider.
#include <memory>

#include "ubot/config/world_model.h"
#include "ubot/core/time.h"
#include "ubot/media/medium.h"

namespace ubot {
class World;
}

namespace ubot::media {

// What a provider may read: the simulation time of the sample and the world after this step's
// moves (read-only).
struct MediumQuery {
  Nanos time = 0;
  const World& world;
};

class MediumProvider {
 public:
  virtual ~MediumProvider() = default;
  // Fills `out` (reset to a default snapshot, with its cell storage kept from earlier calls) with
  // this sample's snapshot. Returning false, like an inactive or empty snapshot, means "no
  // medium this time".
  virtual bool snapshot(const MediumQuery& query, MediumSnapshot& out) = 0;
  // The world object this provider speaks for, -1 for none. That object is then never also
  // collected through the legacy tag path (an object found by both paths counts once), even in
  // samples where the provider returns false.
  virtual int source_object() const { return -1; }
  // Snapshots (Simulation::snapshot / restore / reset): a copy of this provider with its state
  // now, and copying such a copy's state back into this object. A provider that returns null
  // (the default) cannot be snapshotted: Simulation::snapshot then fails with an error.
  virtual std::unique_ptr<MediumProvider> clone() const { return nullptr; }
  virtual void copy_state_from(const MediumProvider& /*other*/) {}
};

// A medium from the world file's `media:` list: static cells, or cells attached to an object
// (positions in its body frame), optionally animated by keyframes. Cell velocities are exact:
// the attached object's motion plus the keyframed drift.
class DeclaredMedium final : public MediumProvider {
 public:
  explicit DeclaredMedium(MediumModel model) : model_(std::move(model)) {}
  bool snapshot(const MediumQuery& query, MediumSnapshot& out) override;
  int source_object() const override { return model_.attach; }
  // Stateless: its snapshot at time t depends only on t and the world.
  std::unique_ptr<MediumProvider> clone() const override {
    return std::make_unique<DeclaredMedium>(model_);
  }
  const MediumModel& model() const { return model_; }

 private:
  MediumModel model_;
};

// The keyframe state of a medium at time `seconds` (linear interpolation, held before the first
// and after the last keyframe, or repeated with `loop`), and the rate of change of the position
// offset there (m/s; the slope of the segment that starts at or before `seconds`).
struct KeyframeState {
  MediumKeyframe value;
  Eigen::Vector3d offset_rate = Eigen::Vector3d::Zero();
};
KeyframeState evaluate_keyframes(const MediumModel& model, double seconds);

}  // namespace ubot::media
