#pragma once
// The one way the scene's sources report a failure: ubot::Error with the "scene: " prefix.
#include <string>

#include "ubot/core/error.h"

namespace ubot::scene {

[[noreturn]] inline void fail(const std::string& message) { throw Error("scene: " + message); }

}  // namespace ubot::scene
