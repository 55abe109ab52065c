#include "errors.h"

#include <fmt/format.h>

#include "ubot/core/error.h"
#include "ubot/sim/simulation.h"

namespace py = pybind11;

namespace ubot::python {
namespace {

PyObject* g_error = nullptr;
PyObject* g_world_error = nullptr;

// The attributes come from the error's fields (ubot::Error::location()), never from its text:
// a file name may hold ':' and digits ("a:1:2/w.yaml"), which no parse of the message can tell
// from a line and column.
void raise_world_error(const Error& e) {
  const std::string message = bounded_message(e.what());
  py::object error = py::reinterpret_borrow<py::object>(g_world_error)(message);
  error.attr("file") = e.file();
  error.attr("line") = e.line();
  error.attr("column") = e.column();
  error.attr("key") = e.key_path();
  error.attr("reason") = bounded_message(e.reason());
  error.attr("message") = message;
  PyErr_SetObject(g_world_error, error.ptr());
}

}  // namespace

void throw_value_error(const std::string& message) { throw py::value_error(message); }

int checked_threads(int threads, const char* who) {
  if (threads < 0 || threads > kMaxThreads)
    throw_value_error(
        fmt::format("{}: threads must be a whole number from 0 to {} (0 = all cores), got {}", who,
                    kMaxThreads, threads));
  return threads;
}

void register_errors(py::module_& m) {
  g_error = PyErr_NewExceptionWithDoc("ubot.Error", "Every error ubot reports (a RuntimeError).",
                                      PyExc_RuntimeError, nullptr);
  py::tuple bases = py::make_tuple(py::handle(g_error), py::handle(PyExc_ValueError));
  g_world_error = PyErr_NewExceptionWithDoc(
      "ubot.WorldError",
      "A world that does not load: attributes file, line, column (1-based; 0 when unknown), key "
      "(the key path, '' when unknown), reason (what is wrong, without the location) and "
      "message (the whole message).",
      bases.ptr(), nullptr);
  if (g_error == nullptr || g_world_error == nullptr) throw py::error_already_set();
  // Class-level defaults, so a WorldError raised from Python code has them too.
  py::handle world_error(g_world_error);
  world_error.attr("file") = "";
  world_error.attr("line") = 0;
  world_error.attr("column") = 0;
  world_error.attr("key") = "";
  world_error.attr("reason") = "";
  world_error.attr("message") = "";
  m.add_object("Error", py::handle(g_error));
  m.add_object("WorldError", py::handle(g_world_error));
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const WorldLoadError& e) {
      raise_world_error(e.error);
    } catch (const py::cast_error& e) {
      // A value our code casts (not an argument, which pybind11 checks itself) of a type it
      // cannot take: a str holding lone surrogates as a name, an int past int64. pybind11 says
      // RuntimeError, which reads as ubot's fault; it is the caller's, so TypeError (found by
      // fuzz_python).
      PyErr_SetString(PyExc_TypeError, bounded_message(e.what()).c_str());
    } catch (const Error& e) {
      PyErr_SetString(g_error, bounded_message(e.what()).c_str());
    }
  });
}

}  // namespace ubot::python
