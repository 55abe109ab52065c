#include "ubot/sensors/sensor.h"

#include <string>

#include "ubot/core/state_io.h"

namespace ubot {

Sensor::Sensor(const SensorModel& model, const ObjectModel& owner, int index,
               std::uint64_t world_seed)
    : model_(&model),
      object_id_(owner.id),
      index_(index),
      // The one seeding rule (core/random.h): world seed and sensor id, the sensor's `seed:`
      // (the IMU's defaults to 1337) mixed in.
      rng_(stream_seed(world_seed, owner.name + "/" + model.common.name, model.common.seed)) {
  header_.sensor_id = owner.name + "/" + model.common.name;
  header_.frame_id = header_.sensor_id;
  if (model.common.update_rate_hz) period_ns_ = period_from_rate(*model.common.update_rate_hz);
}

void Sensor::reseed(std::uint64_t world_seed) {
  rng_ = RandomStream(stream_seed(world_seed, header_.sensor_id, model_->common.seed));
}

void Sensor::io_state(StateIo& s) {
  StateIo::Section at(s, header_.sensor_id);
  io(s, header_);
  io(s, rng_);
  s.value(next_due_ns_);
  if (s.reading() && model_->common.auto_start && period_ns_ > 0 &&
      next_due_ns_ < s.earliest_due_ns) {
    s.fail("the next sample is due at " + std::to_string(next_due_ns_) +
           " ns, more than a step before the world's time");
  }
  s.value(started_);
  io_own_state(s);
}

bool Sensor::due(Nanos t) const {
  if (!model_->common.auto_start) return false;
  return period_ns_ == 0 || t >= next_due_ns_;
}

int Sensor::sample_step(const SensorContext& ctx) {
  begin_step();
  if (!due(ctx.stamp)) return 0;
  if (!samples_inside_steps() || period_ns_ == 0) {
    sample(ctx);
    after_step_sample();
    return 1;
  }
  int taken = 0;
  // sample() moves next_due_ns_ to the following grid time.
  for (Nanos t = next_due_ns_; t <= ctx.stamp; t = next_due_ns_) {
    sample({ctx.world, ctx.scene, t, ctx.media, ctx.scene3d});
    after_step_sample();
    ++taken;
  }
  return taken;
}

void Sensor::sample(const SensorContext& ctx) {
  header_.sequence = started_ ? header_.sequence + 1 : 0;
  started_ = true;
  header_.stamp = ctx.stamp;
  if (model_->common.enabled) {
    header_.status = measure(ctx);
  } else {
    header_.status = SampleStatus::kDisabled;
  }
  header_.valid = header_.status == SampleStatus::kValid;
  // Next grid point strictly after this sample (several periods may fit in one step).
  if (period_ns_ > 0) next_due_ns_ = (ctx.stamp / period_ns_ + 1) * period_ns_;
}

}  // namespace ubot
