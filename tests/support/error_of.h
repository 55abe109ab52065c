#pragma once
// What many tests compare: the message a call fails with.
#include <string>

#include "ubot/core/error.h"

namespace ubot::testing_support {

// The message of the ubot::Error that `f()` throws, or "no error" when it returns.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace ubot::testing_support
