#pragma once
// SimulationMapper: the mapping sink of a run (SPEC §11). It attaches each configured map to its
// scanners (saying which in the log, and warning when a selector matched several lidars and
// which one it took), turns the scans of the scanners that sampled in a step into PointBatches
// and hands them to the maps' accumulators; finish() flushes and saves.
//
// Sensor adapters live here: a new sensor type (e.g. lidar3d) plugs in with one function that
// builds a PointBatch from its output.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "ubot/config/world_model.h"
#include "ubot/mapping/accumulator.h"
#include "ubot/mapping/mapping_config.h"
#include "ubot/sensors/registered_sensors.h"
#include "ubot/sim/simulation.h"

namespace ubot::mapping {

struct MapperOptions {
  std::filesystem::path out_dir;  // relative map outputs are written under it
  bool threaded = true;           // insert on a worker thread (false: in after_step)
  MapAccumulator::Log info;       // "map 'map': attached to robot_0/lidar2d_0 ..."
  MapAccumulator::Log warn;       // ambiguous selectors, empty maps, range-guard drops
};

struct SavedMap {
  AccumulatorStats stats;
  std::vector<std::string> files;
};

class SimulationMapper {
 public:
  SimulationMapper(const Simulation& sim, std::vector<MappingModel> maps, MapperOptions options);
  ~SimulationMapper();

  // Feeds the scans of every attached scanner that sampled in the last step.
  void after_step(const Simulation& sim);
  // Flushes every map and writes its files.
  std::vector<SavedMap> finish();

  std::size_t size() const { return accumulators_.size(); }
  MapAccumulator& accumulator(std::size_t i) { return *accumulators_[i]; }
  // The files map i is written to (one per format).
  std::vector<std::string> output_files(std::size_t i) const;

 private:
  struct Target {
    std::size_t map;
    int scanner;
  };
  std::vector<MappingModel> models_;
  MapperOptions options_;
  std::vector<std::unique_ptr<MapAccumulator>> accumulators_;
  std::vector<std::vector<Target>> targets_;  // per simulation sensor index
};

}  // namespace ubot::mapping
