#pragma once
// Reads the per-object keys of a robot/obstacle group (shape, kinematics, behaviour, limits,
// sensors, plot, ...) into ObjectModels, one object of the group at a time.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ubot/config/world_model.h"
#include "ubot/core/random.h"
#include "yaml_reader.h"

namespace ubot::config {

// Meshes read while loading one world: files by resolved path, and meshes placed (scaled and
// rotated) by path and transform, so that objects using the same mesh share it.
struct MeshCache {
  std::map<std::string, std::shared_ptr<const TriangleMesh>> files;
  std::map<std::string, std::shared_ptr<const TriangleMesh>> placed;
};

// `key` as three finite numbers, or zero when absent.
inline Eigen::Vector3d read_vector3(Mapping& m, std::string_view key) {
  const auto f = m.get(key);
  return f ? f->as_vector3() : Eigen::Vector3d::Zero();
}

// Reads a 3D shape (`name` box | sphere | cylinder | mesh) into `shape`: its solid and its planar
// footprint (see ShapeModel).
void read_solid_shape(Mapping& m, const std::string& name, ShapeModel& shape, MeshCache& cache);

// Reads an object's `shape` (IR-SIM's default circle of radius 1 when absent). Random shapes
// draw from `shape_rng`.
ShapeModel read_shape(const std::optional<Field>& field, std::vector<std::string>& warnings,
                      const std::string& owner, MeshCache& meshes, RandomStream& shape_rng);

// The keys of one shape mapping (read_shape without the check for unknown keys).
ShapeModel read_shape_keys(Mapping& m, std::vector<std::string>& warnings, MeshCache& meshes,
                           RandomStream& shape_rng);

// `random_shape: true` on a circle, polygon or linestring (random_shape.cpp): draws the shape as
// IR-SIM's geometry handlers do and returns true; false (the shape is read as given) without it.
bool read_random_shape(Mapping& m, const std::string& name, ShapeModel& shape, RandomStream& rng);

// A `compound` shape (compound_shape.cpp): its `parts`, each a circle, rectangle or polygon with
// an optional body-frame `pose` [x, y, theta].
void read_compound_shape(Mapping& m, ShapeModel& shape, std::vector<std::string>& warnings,
                         MeshCache& meshes, RandomStream& rng);

class ObjectReader {
 public:
  // Splits a group value into one value per object (IR-SIM's convert_list_length); the flag
  // makes a list of numbers one number per object (IR-SIM's per_object, for mass and friends).
  using PerObject = std::function<std::vector<Field>(const Field&, int, bool)>;

  ObjectReader(Mapping& group, int number, std::vector<std::string>& warnings,
               const PerObject& per_object, MeshCache& meshes);

  // The world seed the objects' random shapes derive their streams from ("<name>/shape").
  void set_world_seed(std::uint64_t seed) { world_seed_ = seed; }
  // The world's `friction` / `restitution`: what an object that sets none gets.
  void set_physics_defaults(std::optional<double> friction, std::optional<double> restitution) {
    default_friction_ = friction;
    default_restitution_ = restitution;
  }
  // Object `index` of the group, with the given ids. State and goals are read separately.
  ObjectModel read(int index, Role role, int group, int id) const;
  // IR-SIM's input_state_check: truncates or zero-pads the state to the kinematics' dimension.
  std::vector<double> read_state(const std::vector<double>& raw, const Field* field,
                                 const ObjectModel& object) const;
  // One goal [x, y, yaw] or a list of waypoints; no goal given: IR-SIM's default [1, 9, 0].
  std::vector<std::vector<double>> read_goals(const std::optional<Field>& goal) const;

 private:
  std::optional<Field> value(const std::string& key, int index) const;
  std::vector<std::string> read_tags(int index) const;
  std::vector<SensorModel> read_group_sensors() const;
  std::optional<double> default_friction_, default_restitution_;
  std::map<std::string, std::vector<Field>> values_;
  std::optional<Field> sensors_;
  // The group's `sensors` list is one value for all its objects: read for the first object,
  // copied for the others, with the warnings its reading gave repeated as each read gave them.
  struct SensorsRead {
    std::vector<SensorModel> sensors;
    std::vector<std::string> warnings;
  };
  mutable std::optional<SensorsRead> sensors_read_;
  std::optional<Field> tags_;
  std::vector<std::string>& warnings_;
  MeshCache& meshes_;
  int number_ = 1;  // the group's objects
  std::uint64_t world_seed_ = 0;
};

// Reads an object's `sensors` list.
// An entry with neither `name` nor `type` is a lidar2d, as in IR-SIM, with a warning.
std::vector<SensorModel> read_sensors(const Field& list, std::vector<std::string>& warnings);
// Reads the top-level `media:` list (SPEC §8); `attach` names one of `objects`.
std::vector<MediumModel> read_media(const Field& list, const std::vector<ObjectModel>& objects);

}  // namespace ubot::config
