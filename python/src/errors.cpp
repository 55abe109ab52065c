#include "errors.h"

#include <regex>

#include "ubot/core/error.h"

namespace py = pybind11;

namespace ubot::python {
namespace {

struct Location {
  std::string file, key, what;
  int line = 0, column = 0;
};

// Splits "file:line:column: key.path: what" (the loader's format, src/config/yaml_reader.cpp)
// into its parts; parts a message lacks stay empty or 0.
Location parse_location(const std::string& message) {
  static const std::regex with_line(R"(^(.*?):(\d+):(\d+): (.*)$)");
  static const std::regex with_file(R"(^([^ :][^:]*): (.*)$)");
  static const std::regex with_key(
      R"(^([A-Za-z_][A-Za-z0-9_]*(?:\[\d+\]|\.[A-Za-z0-9_]+)*): (.*)$)");
  Location loc;
  std::smatch m;
  std::string rest = message;
  if (std::regex_match(message, m, with_line)) {
    loc.file = m[1];
    loc.line = std::stoi(m[2]);
    loc.column = std::stoi(m[3]);
    rest = m[4];
  } else if (std::regex_match(message, m, with_file)) {
    loc.file = m[1];
    rest = m[2];
  }
  std::smatch k;
  if (std::regex_match(rest, k, with_key)) {
    loc.key = k[1];
    rest = k[2];
  }
  loc.what = rest;
  return loc;
}

PyObject* g_error = nullptr;
PyObject* g_world_error = nullptr;

void raise_world_error(const std::string& message) {
  const Location loc = parse_location(message);
  py::object error = py::reinterpret_borrow<py::object>(g_world_error)(message);
  error.attr("file") = loc.file;
  error.attr("line") = loc.line;
  error.attr("column") = loc.column;
  error.attr("key") = loc.key;
  error.attr("message") = message;
  PyErr_SetObject(g_world_error, error.ptr());
}

}  // namespace

void throw_value_error(const std::string& message) { throw py::value_error(message); }

void register_errors(py::module_& m) {
  g_error = PyErr_NewExceptionWithDoc("ubot.Error", "Every error ubot reports (a RuntimeError).",
                                      PyExc_RuntimeError, nullptr);
  py::tuple bases = py::make_tuple(py::handle(g_error), py::handle(PyExc_ValueError));
  g_world_error = PyErr_NewExceptionWithDoc(
      "ubot.WorldError",
      "A world that does not load: attributes file, line, column (0 when unknown), key (the "
      "key path, '' when unknown) and message.",
      bases.ptr(), nullptr);
  if (g_error == nullptr || g_world_error == nullptr) throw py::error_already_set();
  // Class-level defaults, so a WorldError raised from Python code has them too.
  py::handle world_error(g_world_error);
  world_error.attr("file") = "";
  world_error.attr("line") = 0;
  world_error.attr("column") = 0;
  world_error.attr("key") = "";
  world_error.attr("message") = "";
  m.add_object("Error", py::handle(g_error));
  m.add_object("WorldError", py::handle(g_world_error));
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const WorldLoadError& e) {
      raise_world_error(e.message);
    } catch (const Error& e) {
      PyErr_SetString(g_error, e.what());
    }
  });
}

}  // namespace ubot::python
