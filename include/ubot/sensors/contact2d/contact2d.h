#pragma once
// contact2d (SPEC §9): the object's contact sensor. Every object in collision_mode: contact has
// its reading (World::contact); a listed contact2d samples it each step, so its readers (the
// pictures, frames.jsonl) get it with a header, and draws it.
#include "ubot/physics/contact_reading.h"
#include "ubot/sensors/sensor.h"

namespace ubot {

class Contact2d final : public Sensor {
 public:
  Contact2d(const SensorModel& model, const ObjectModel& owner, int index,
            std::uint64_t world_seed);

  std::unique_ptr<Sensor> clone() const override { return std::make_unique<Contact2d>(*this); }
  void copy_state_from(const Sensor& other) override { *this = same_type_as<Contact2d>(other); }
  void io_own_state(StateIo& s) override;
  SensorRef ref() const override { return this; }
  const Contact2dModel& params() const { return params_; }
  const ContactReading& reading() const { return reading_; }

 private:
  SampleStatus measure(const SensorContext& ctx) override;

  Contact2dModel params_;
  ContactReading reading_;
};

}  // namespace ubot
