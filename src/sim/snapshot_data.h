#pragma once
// What a SimulationSnapshot holds (simulation.cpp takes and restores it, state_file.cpp writes
// and reads it as bytes).
#include <memory>
#include <vector>

#include "ubot/media/medium.h"
#include "ubot/sensors/sensor.h"
#include "ubot/sim/simulation.h"
#include "ubot/world/world.h"

namespace ubot {

struct SimulationSnapshot::Data {
  WorldState world;
  std::vector<std::unique_ptr<Sensor>> sensors;
  std::vector<std::unique_ptr<media::MediumProvider>> providers;  // the added ones' copies
  std::vector<int> sampled;
  std::vector<media::MediumSnapshot> media;  // the last step's, usable or not
  std::shared_ptr<const WorldModel> model;   // restore checks it is the simulation's
};

}  // namespace ubot
