// ubot._core: the native part of the Python module `ubot` (docs/python.md).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "errors.h"
#include "ubot/config/world_model.h"
#include "ubot/core/random.h"
#include "ubot/world/group_behavior.h"
#include "vector_env.h"

namespace {

// Every kinematics when none is named, else that one.
std::vector<ubot::KinematicsKind> kinematics_list(const std::optional<std::string>& name) {
  if (name) return {ubot::python::kinematics_of(*name)};
  return {std::begin(ubot::kKinematicsKinds), std::end(ubot::kKinematicsKinds)};
}

// The names `names(kind)` gives for those kinematics, sorted, each once.
std::vector<std::string> names_for(const std::optional<std::string>& kinematics,
                                   std::vector<std::string> (*names)(ubot::KinematicsKind)) {
  std::vector<std::string> out;
  for (ubot::KinematicsKind kind : kinematics_list(kinematics)) {
    for (std::string& name : names(kind)) {
      if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(std::move(name));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The `behavior:` names available for those kinematics: built in and registered.
std::vector<std::string> behavior_names(const std::optional<std::string>& kinematics) {
  return names_for(kinematics, &ubot::behavior_names);
}

// The registered `group_behavior:` names for those kinematics.
std::vector<std::string> group_behavior_names(const std::optional<std::string>& kinematics) {
  return names_for(kinematics, &ubot::group_behavior_names);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "ubot's native module: Simulation, Object, sensor samples (docs/python.md).";
  m.attr("__version__") = UBOT_VERSION;
  ubot::python::register_errors(m);
  ubot::python::bind_contacts(m);
  ubot::python::bind_objects(m);
  ubot::python::bind_sensors(m);
  ubot::python::bind_simulation(m);
  ubot::python::bind_vector_env(m);
  ubot::python::bind_placement(m);
  ubot::python::bind_world_document(m);
  m.def(
      "stream_seed",
      [](std::uint64_t world_seed, const std::string& stream_id) {
        return ubot::stream_seed(world_seed, stream_id);
      },
      pybind11::arg("world_seed"), pybind11::arg("stream_id"),
      "The seeding rule of every random stream (docs/determinism.md): ubot.sweep seeds its runs "
      "with it.");
  ubot::python::bind_rvo(m);
  ubot::python::bind_group_behaviors(m);
  m.def("behavior_names", &behavior_names, pybind11::arg("kinematics") = pybind11::none(),
        "The behaviours (`behavior: {name: ...}`) available for robots of that kinematics "
        "(diff, omni, acker, omni_angular; None: for any): built in and registered, sorted.");
  m.def("group_behavior_names", &group_behavior_names,
        pybind11::arg("kinematics") = pybind11::none(),
        "The group behaviours (`group_behavior: {name: ...}`) registered for that kinematics "
        "(None: for any), sorted.");
  ubot::python::refuse_unbuilt_objects(m);
}
