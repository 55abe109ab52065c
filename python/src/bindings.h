#pragma once
// The parts of the module, each defined in its own file.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <Eigen/Core>

#include "sim_handle.h"
#include "ubot/config/yaml_document.h"

namespace ubot::python {

// ubot.ContactReading / ubot.ContactReport (contacts.cpp).
void bind_contacts(pybind11::module_& m);
// ubot.Object (objects.cpp).
void bind_objects(pybind11::module_& m);
// The sensor sample classes (sensors.cpp).
void bind_sensors(pybind11::module_& m);
// ubot._core.rvo: pyrvo's RVOSimulator over ubot's ORCA (rvo.cpp).
void bind_rvo(pybind11::module_& m);
// ubot.register_group_behavior (group_behaviors.cpp).
void bind_group_behaviors(pybind11::module_& m);
// Every class of `m` and its submodules refuses its attributes with TypeError while its object
// was made without __init__ (init_guard.cpp). Called last, once every class is bound.
void refuse_unbuilt_objects(pybind11::module_& m);
// ubot.Simulation (simulation.cpp).
void bind_simulation(pybind11::module_& m);
// The Simulation of a world file, as ubot.Simulation(path, ...) makes it; `on_document` hears
// the parsed document (simulation.cpp).
std::shared_ptr<SimHandle> simulation_from_path(
    const std::filesystem::path& path, std::optional<std::uint64_t> seed, int threads,
    const std::optional<std::string>& step_mode, bool host_behaviors,
    std::function<void(const config::YamlDocument&)> on_document);
// ubot._core._load_with_document (world_document.cpp).
void bind_world_document(pybind11::module_& m);
// ubot._core._place_randomly (placement.cpp).
void bind_placement(pybind11::module_& m);

// Simulation.record / write_picture / picture (outputs.cpp) and add_medium_provider (media.cpp).
void bind_outputs(pybind11::class_<SimHandle, std::shared_ptr<SimHandle>>& c);
void bind_media(pybind11::class_<SimHandle, std::shared_ptr<SimHandle>>& c);

// One object of a simulation, read at access time.
struct ObjectRef {
  std::shared_ptr<SimHandle> sim;
  int id = 0;
};

// The id of an object named by its name, id or Object (ValueError / TypeError otherwise).
int id_of(const std::shared_ptr<SimHandle>& sim, const pybind11::handle& object);

// Object id's sensor `name`'s latest sample, as its type's sample class.
pybind11::object sensor_sample(const std::shared_ptr<SimHandle>& sim, int id,
                               const std::string& name);

// A float64 numpy copy of a vector.
pybind11::array_t<double> to_array(const std::vector<double>& v);
// A 2-vector as a numpy array of 2 doubles.
inline pybind11::array_t<double> pair(const Eigen::Vector2d& v) { return to_array({v.x(), v.y()}); }

// The kinematics named `name` (as YAML's kinematics.name), or ValueError listing the known ones.
KinematicsKind kinematics_of(const std::string& name);
// A command's two numbers, or ValueError naming `what` when one is not finite.
Eigen::Vector2d finite_pair(double a, double b, const std::string& what);

}  // namespace ubot::python
