#pragma once
// What the config tests compare: the message loading a world gives.
#include <string>

#include "ubot/config/load_world.h"
#include "ubot/core/error.h"

namespace ubot::testing_support {

// The error loading `yaml` (as file `file`) gives, or "loaded without error".
inline std::string load_error(const std::string& yaml, const std::string& file = "bad.yaml") {
  try {
    load_world_from_string(yaml, file);
  } catch (const Error& e) {
    return e.what();
  }
  return "loaded without error";
}

// A bad world file and the exact message it must give.
struct BadCase {
  const char* what;
  const char* yaml;
  const char* message;
};

}  // namespace ubot::testing_support
