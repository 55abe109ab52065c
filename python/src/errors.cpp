#include "errors.h"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "ubot/core/error.h"
#include "ubot/sim/simulation.h"

namespace py = pybind11;

namespace ubot::python {
namespace {

struct Location {
  std::string file, key;
  int line = 0, column = 0;
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_word(char c) { return is_word_start(c) || is_digit(c); }

// The end of the run of digits at `at` (at most 9, so it fits an int), or npos if there is none.
std::size_t digits_end(std::string_view s, std::size_t at) {
  std::size_t end = at;
  while (end < s.size() && is_digit(s[end]) && end - at < 10) ++end;
  return end == at || end - at > 9 ? std::string_view::npos : end;
}

// Reads ":LINE:COLUMN: " at `colon`; true and the numbers if it is there.
bool line_and_column_at(std::string_view s, std::size_t colon, Location& loc, std::size_t& rest) {
  const std::size_t line_end = digits_end(s, colon + 1);
  if (line_end == std::string_view::npos || line_end >= s.size() || s[line_end] != ':')
    return false;
  const std::size_t column_end = digits_end(s, line_end + 1);
  if (column_end == std::string_view::npos || s.substr(column_end, 2) != ": ") return false;
  loc.line = std::stoi(std::string(s.substr(colon + 1, line_end - colon - 1)));
  loc.column = std::stoi(std::string(s.substr(line_end + 1, column_end - line_end - 1)));
  rest = column_end + 2;
  return true;
}

// The length of a key path at the start of `s` (robot[0].sensors[1].range_max) followed by
// ": ", or 0.
std::size_t key_path_length(std::string_view s) {
  if (s.empty() || !is_word_start(s[0])) return 0;
  std::size_t i = 1;
  while (i < s.size() && is_word(s[i])) ++i;
  while (i < s.size()) {
    if (s[i] == '[') {
      const std::size_t end = digits_end(s, i + 1);
      if (end == std::string_view::npos || end >= s.size() || s[end] != ']') return 0;
      i = end + 1;
    } else if (s[i] == '.' && i + 1 < s.size() && is_word(s[i + 1])) {
      i += 2;
      while (i < s.size() && is_word(s[i])) ++i;
    } else {
      break;
    }
  }
  return s.substr(i, 2) == ": " ? i : 0;
}

// Splits "file:line:column: key.path: what" (the loader's format, src/config/yaml_reader.cpp)
// or "file: what" into its parts; parts a message lacks stay empty or 0. A scan that looks at
// each byte a few times at most: std::regex recursed once per byte and overflowed the stack on
// a message of 30 KB.
Location parse_location(std::string_view message) {
  Location loc;
  std::size_t rest = 0;
  const std::size_t first_line = std::min(message.find('\n'), message.size());
  bool found = false;
  for (std::size_t colon = message.find(':'); colon < first_line && !found;
       colon = message.find(':', colon + 1)) {
    if (line_and_column_at(message, colon, loc, rest)) {
      loc.file = message.substr(0, colon);
      found = true;
    }
  }
  if (!found && !message.empty() && message[0] != ' ' && message[0] != ':') {
    const std::size_t colon = message.find(':');
    if (colon != std::string_view::npos && message.substr(colon, 2) == ": ") {
      loc.file = message.substr(0, colon);
      rest = colon + 2;
    }
  }
  const std::string_view what = message.substr(rest);
  if (const std::size_t key = key_path_length(what); key > 0) loc.key = what.substr(0, key);
  return loc;
}

PyObject* g_error = nullptr;
PyObject* g_world_error = nullptr;

void raise_world_error(const std::string& full_message) {
  const std::string message = bounded_message(full_message);
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
