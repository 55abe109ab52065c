#include "ubot/mapping/sim_mapper.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <optional>

#include "ubot/mapping/map_io.h"
#include "ubot/world/world.h"

namespace ubot::mapping {

namespace {

// The range_max of a sensor the map can take points from (lidar2d, lidar3d); none for the
// others.
std::optional<double> sensor_map_range_max(const Sensor& sensor) {
  return visit_sensor(sensor, [](const auto& s) { return map_range_max(s); });
}

// The points of a mapped sensor's sample.
PointBatch sensor_map_batch(const Sensor& sensor, int scanner) {
  return visit_sensor(sensor, [&](const auto& s) { return map_batch(s, scanner); });
}

}  // namespace

SimulationMapper::SimulationMapper(const Simulation& sim, std::vector<MappingModel> maps,
                                   MapperOptions options)
    : models_(std::move(maps)), options_(std::move(options)) {
  const WorldModel& world = sim.world().model();
  targets_.resize(sim.sensors().size());
  for (std::size_t m = 0; m < models_.size(); ++m) {
    const MappingModel& model = models_[m];
    const Eigen::Vector3d origin =
        model.origin.value_or(Eigen::Vector3d(world.world.offset.x(), world.world.offset.y(), 0.0));
    PointMap map(origin,
                 {.resolution = model.resolution,
                  .policy = model.keep_brighter ? DedupPolicy::kBrighter : DedupPolicy::kFirst});
    std::vector<std::string> names;
    for (const MapScannerModel& s : model.scanners) {
      const ObjectModel& object = world.objects[s.object_id];
      const SensorModel& sensor = object.sensors[s.sensor_index];
      const std::string name = fmt::format("{}/{}", object.name, sensor.common.name);
      int index = -1;  // the sensor in the simulation's list
      for (std::size_t k = 0; k < sim.sensors().size(); ++k) {
        if (sim.sensors()[k]->object_id() == s.object_id &&
            sim.sensors()[k]->index() == s.sensor_index &&
            sensor_map_range_max(*sim.sensors()[k])) {  // the adapters there are
          index = static_cast<int>(k);
        }
      }
      if (index < 0) continue;
      targets_[index].push_back({m, static_cast<int>(names.size())});
      names.push_back(name);
      if (options_.info) {
        options_.info(fmt::format("map '{}': attached to {} ({}, range_max {} m)", model.name, name,
                                  sensor.type_name(),
                                  *sensor_map_range_max(*sim.sensors()[index])));
      }
      if (!s.also_matched.empty() && options_.warn) {
        options_.warn(
            fmt::format("map '{}': '{}' matches {} lidars; took {}, not {} (name one as {}/SENSOR)",
                        model.name, s.selector, s.also_matched.size() + 1, name,
                        fmt::join(s.also_matched, ", "), object.name));
      }
    }
    if (names.empty() && options_.warn) {
      options_.warn(
          fmt::format("map '{}': no scanner to attach to; the map stays empty", model.name));
    }
    accumulators_.push_back(std::make_unique<MapAccumulator>(
        model.name, std::move(map), std::move(names), options_.threaded, options_.warn));
  }
}

SimulationMapper::~SimulationMapper() = default;

void SimulationMapper::after_step(const Simulation& sim) {
  for (const int k : sim.sampled()) {
    const Sensor& sensor = *sim.sensors()[k];
    if (targets_[k].empty() || !sensor.header().valid) continue;
    for (const Target& t : targets_[k]) {
      accumulators_[t.map]->add(sensor_map_batch(sensor, t.scanner));
    }
  }
}

std::vector<std::string> SimulationMapper::output_files(std::size_t i) const {
  const MappingModel& model = models_[i];
  std::filesystem::path base(model.output);
  if (base.is_relative()) base = options_.out_dir / base;
  std::string ext = base.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".las" || ext == ".ply" || ext == ".pcd") base.replace_extension();
  std::vector<std::string> files;
  for (const std::string& format : model.formats) {
    files.push_back(base.string() + "." + format);
  }
  return files;
}

std::vector<SavedMap> SimulationMapper::finish() {
  std::vector<SavedMap> saved;
  for (std::size_t i = 0; i < accumulators_.size(); ++i) {
    SavedMap s;
    s.stats = accumulators_[i]->stats();  // flushes
    for (const std::string& file : output_files(i)) {
      save_map(accumulators_[i]->map(), file, models_[i].las_point_format);
      s.files.push_back(file);
    }
    saved.push_back(std::move(s));
  }
  return saved;
}

}  // namespace ubot::mapping
