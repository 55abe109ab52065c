#pragma once
#include <string>

#include "ubot/config/load_world.h"
#include "ubot/world/world.h"

namespace ubot::testing_support {

inline World make_world(const std::string& yaml) {
  return World(load_world_from_string(yaml, "test.yaml"));
}

}  // namespace ubot::testing_support
