#include "ubot/sensors/contact2d/contact2d.h"

#include "ubot/core/state_io.h"
#include "ubot/world/world.h"

namespace ubot {

Contact2d::Contact2d(const SensorModel& model, const ObjectModel& owner, int index,
                     std::uint64_t world_seed)
    : Sensor(model, owner, index, world_seed), params_(std::get<Contact2dModel>(model.params)) {}

// The world wrote the reading in its step; the sensor only takes it (empty outside contact mode).
SampleStatus Contact2d::measure(const SensorContext& ctx) {
  reading_ = ctx.world.contact(object_id());
  return SampleStatus::kValid;
}

void Contact2d::io_own_state(StateIo& s) { io(s, reading_); }
}  // namespace ubot
