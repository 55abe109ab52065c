// Objects made without __init__ (issue 51): `ubot.Simulation.__new__(ubot.Simulation)` gives a
// pybind11 instance whose C++ object was never built, and a method bound through a member
// pointer then runs on a null `this` (SIGSEGV). pybind11 checks this only for Python subclasses
// that forget super().__init__, so every class of the module reads its attributes through a guard
// that refuses them with TypeError until the object is built. The guard is the attribute lookup
// itself (one pointer test per lookup), not a check in each of the module's ~300 functions.
#include <pybind11/pybind11.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bindings.h"

namespace ubot::python {
namespace {

namespace py = pybind11;

bool built(PyObject* self) {
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  for (const auto& vh : py::detail::values_and_holders(inst)) {
    // The value pointer, not the holder: an object returned by reference (a contact report
    // inside its reading) has a value and no holder of its own.
    if (vh.value_ptr() == nullptr) return false;
  }
  return true;
}

// What an object without its C++ part may still be asked: to be built (__init__, and
// __setstate__, through which pickle builds it), and what describes its type.
bool allowed_unbuilt(PyObject* name) {
  Py_ssize_t size = 0;
  const char* text = PyUnicode_AsUTF8AndSize(name, &size);
  if (text == nullptr) {
    PyErr_Clear();
    return false;
  }
  const std::string_view n(text, static_cast<std::size_t>(size));
  return n == "__init__" || n == "__setstate__" || n == "__class__" || n == "__new__" ||
         n == "__reduce_ex__" || n == "__reduce__" || n == "__doc__" || n == "__module__" ||
         n == "__dict__" || n == "__dir__" || n == "__sizeof__";
}

std::string unbuilt_message(PyTypeObject* type) {
  const std::string name = type->tp_name;
  return name + " object was made without __init__ (e.g. by " + name +
         ".__new__): it has nothing to read or run; make one with " + name + "(...)";
}

// Every attribute lookup of a guarded class: the value pointer test first (what a built object,
// the only kind a program normally has, pays), the name only for an object not built.
PyObject* guarded_getattro(PyObject* self, PyObject* name) {
  if (!built(self) && !allowed_unbuilt(name)) {
    PyErr_SetString(PyExc_TypeError, unbuilt_message(Py_TYPE(self)).c_str());
    return nullptr;
  }
  return PyObject_GenericGetAttr(self, name);
}

// A class without pickling of its own refuses pickle at every protocol, as Python's own C types
// do: protocols 0 and 1 would otherwise go through copyreg._reduce_ex, which makes pybind11 abort
// the interpreter (the classes that pickle define __reduce__ themselves: simulation.cpp).
void refuse_pickle_unless_defined(PyTypeObject* type) {
  py::handle cls(reinterpret_cast<PyObject*>(type));
  if (PyDict_GetItemString(type->tp_dict, "__reduce__") != nullptr) return;
  const std::string name = type->tp_name;
  py::setattr(cls, "__reduce__",
              py::cpp_function(
                  [name](const py::handle&) -> py::object {
                    throw py::type_error("cannot pickle '" + name + "' object");
                  },
                  py::is_method(cls), py::name("__reduce__")));
}

// Operators (==, hash, repr, len, [] ...) reach a class's special methods through its type's
// slots, not through attribute lookup: each special method the class defines is wrapped in the
// same check.
void guard_special_methods(PyTypeObject* type) {
  py::handle cls(reinterpret_cast<PyObject*>(type));
  const py::dict own = py::reinterpret_borrow<py::dict>(type->tp_dict);
  std::vector<std::pair<std::string, py::object>> specials;
  for (const auto& [key, value] : own) {
    const std::string name = py::str(key);
    if (name.size() < 5 || name.rfind("__", 0) != 0 || !PyCallable_Check(value.ptr())) continue;
    py::object name_object = py::str(name);
    if (allowed_unbuilt(name_object.ptr()) || name == "__init_subclass__") continue;
    specials.emplace_back(name, py::reinterpret_borrow<py::object>(value));
  }
  for (auto& [name, method] : specials) {
    py::setattr(cls, name.c_str(),
                py::cpp_function(
                    [method, type](const py::args& args, const py::kwargs& kwargs) {
                      if (!args.empty() && !built(args[0].ptr()))
                        throw py::type_error(unbuilt_message(type));
                      return method(*args, **kwargs);
                    },
                    py::is_method(cls), py::name(name.c_str())));
  }
}

void guard(PyTypeObject* type) {
  // pybind11's classes look attributes up as every object does; one that did otherwise would
  // keep its own lookup (and its special methods' guard).
  if (type->tp_getattro == guarded_getattro) return;
  if (type->tp_getattro == PyObject_GenericGetAttr) type->tp_getattro = guarded_getattro;
  guard_special_methods(type);
  refuse_pickle_unless_defined(type);
  PyType_Modified(type);
}

}  // namespace

void refuse_unbuilt_objects(py::module_& m) {
  for (const auto& item : m.attr("__dict__").cast<py::dict>()) {
    py::handle value = item.second;
    if (PyType_Check(value.ptr())) {
      auto* type = reinterpret_cast<PyTypeObject*>(value.ptr());
      if (py::detail::get_type_info(type) != nullptr) guard(type);
    } else if (py::isinstance<py::module_>(value)) {
      py::module_ sub = py::reinterpret_borrow<py::module_>(value);
      const std::string prefix = m.attr("__name__").cast<std::string>() + ".";
      if (sub.attr("__name__").cast<std::string>().rfind(prefix, 0) == 0) {
        refuse_unbuilt_objects(sub);
      }
    }
  }
}

}  // namespace ubot::python
