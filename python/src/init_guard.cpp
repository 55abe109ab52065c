// Objects made without __init__ (issue 51): `ubot.Simulation.__new__(ubot.Simulation)` gives a
// pybind11 instance whose C++ object was never built, and a method bound through a member
// pointer then runs on a null `this` (SIGSEGV). pybind11 checks this only for Python subclasses
// that forget super().__init__, so every class of the module reads its attributes through a guard
// that refuses them with TypeError until the object is built. The guard is the attribute lookup
// itself (one flag test per lookup), not a check in each of the module's ~300 functions.
#include <pybind11/pybind11.h>

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bindings.h"

namespace ubot::python {
namespace {

namespace py = pybind11;

// The lookups of each guarded type before the guard (object's generic one, in practice).
std::unordered_map<PyTypeObject*, getattrofunc>& original_lookups() {
  static auto* lookups = new std::unordered_map<PyTypeObject*, getattrofunc>;
  return *lookups;
}

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

PyObject* guarded_getattro(PyObject* self, PyObject* name) {
  PyTypeObject* type = Py_TYPE(self);
  getattrofunc original = PyObject_GenericGetAttr;
  for (PyTypeObject* t = type; t != nullptr; t = t->tp_base) {
    const auto it = original_lookups().find(t);
    if (it != original_lookups().end()) {
      original = it->second;
      break;
    }
  }
  if (!allowed_unbuilt(name) && !built(self)) {
    PyErr_Format(PyExc_TypeError,
                 "%s object was made without __init__ (e.g. by %s.__new__): it has nothing "
                 "to read or run; make one with %s(...)",
                 type->tp_name, type->tp_name, type->tp_name);
    return nullptr;
  }
  return original(self, name);
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
    const std::string type_name = type->tp_name;
    py::setattr(cls, name.c_str(),
                py::cpp_function(
                    [method, type_name](const py::args& args, const py::kwargs& kwargs) {
                      if (!args.empty() && !built(args[0].ptr())) {
                        throw py::type_error(type_name + " object was made without __init__: " +
                                             "it has nothing to read or run");
                      }
                      return method(*args, **kwargs);
                    },
                    py::is_method(cls), py::name(name.c_str())));
  }
}

void guard(PyTypeObject* type) {
  if (original_lookups().count(type) != 0) return;
  original_lookups().emplace(type, type->tp_getattro);
  guard_special_methods(type);
  type->tp_getattro = guarded_getattro;
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
