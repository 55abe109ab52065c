#pragma once
// The one exception type ubot throws at its API edges. Messages name the file, line, column and
// key path (config) or the field (data) that is wrong; hot paths never throw.
#include <stdexcept>
#include <string>

namespace ubot {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ubot
