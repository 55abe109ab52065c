// ubot._core: the native part of the Python module `ubot` (docs/python.md).
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "bindings.h"
#include "errors.h"
#include "ubot/core/random.h"
#include "ubot/world/group_behavior.h"
#include "vector_env.h"

namespace {
// Whether the native build has a group behaviour NAME for robots of that kinematics (a name it
// lacks still loads, with a warning, as in IR-SIM): ubot.irsim asks before it runs a Python one.
bool group_behavior_known(const std::string& kinematics, const std::string& name) {
  using ubot::KinematicsKind;
  for (KinematicsKind kind : {KinematicsKind::kDiff, KinematicsKind::kOmni, KinematicsKind::kAcker,
                              KinematicsKind::kOmniAngular}) {
    if (kinematics == ubot::kinematics_name(kind)) {
      return ubot::group_behavior_registered(kind, name);
    }
  }
  return false;
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
  m.def(
      "stream_seed",
      [](std::uint64_t world_seed, const std::string& stream_id) {
        return ubot::stream_seed(world_seed, stream_id);
      },
      pybind11::arg("world_seed"), pybind11::arg("stream_id"),
      "The seeding rule of every random stream (docs/determinism.md): ubot.sweep seeds its runs "
      "with it.");
  m.def("_group_behavior_known", &group_behavior_known, pybind11::arg("kinematics"),
        pybind11::arg("name"),
        "Whether the native build has this group behaviour for that kinematics.");
}
