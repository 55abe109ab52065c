#pragma once
// The module's exceptions (docs/python.md, "Errors"): ubot.Error(RuntimeError) for every
// ubot::Error, ubot.WorldError(Error, ValueError) for a world that does not load, carrying the
// file, line, column and key path of the loader's error (its fields, not its text).
#include <pybind11/pybind11.h>

#include <string>

#include "ubot/core/error.h"

namespace ubot::python {

// A world file (or string) that failed to load: the loader's error, its message
// "file:line:column: key.path: reason" and the same parts as fields (those it has).
struct WorldLoadError {
  Error error;
};

// Creates ubot.Error and ubot.WorldError in `m` and registers the translators of ubot::Error,
// and WorldLoadError.
void register_errors(pybind11::module_& m);

// Raises ValueError (misuse: wrong shapes, NaN, unknown names).
[[noreturn]] void throw_value_error(const std::string& message);

// `threads` if it is within the engine's bound (0 = all cores .. kMaxThreads), else ValueError
// naming `who`: checked before a world loads, so the misuse costs nothing.
int checked_threads(int threads, const char* who);

}  // namespace ubot::python
