#pragma once
// Where the tests find the checkout's files.
#include <string>

namespace ubot::testing_support {

// `relative` (e.g. "tests/data/x.yaml") in the source tree the test was built from.
inline std::string source_path(const std::string& relative) {
  return std::string(UBOT_SOURCE_DIR) + "/" + relative;
}

}  // namespace ubot::testing_support
