// ubot._core: the native part of the Python module `ubot` (docs/python.md).
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "errors.h"
#include "vector_env.h"

PYBIND11_MODULE(_core, m) {
  m.doc() = "ubot's native module: Simulation, Object, sensor samples (docs/python.md).";
  m.attr("__version__") = UBOT_VERSION;
  ubot::python::register_errors(m);
  ubot::python::bind_contacts(m);
  ubot::python::bind_objects(m);
  ubot::python::bind_sensors(m);
  ubot::python::bind_simulation(m);
  ubot::python::bind_vector_env(m);
}
