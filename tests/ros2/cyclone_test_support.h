#pragma once
// CycloneDDS in tests: loopback only (config/cyclonedds-loopback.xml), a domain and topic names
// of this process's own so parallel test processes never see each other's samples.
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace ubot::ros2::testing {

inline void use_loopback_dds() {
  const std::string uri =
      std::string("file://") + UBOT_SOURCE_DIR "/config/cyclonedds-loopback.xml";
  setenv("CYCLONEDDS_URI", uri.c_str(), 1);
}

inline int test_domain() { return 100 + static_cast<int>(getpid() % 100); }

inline std::string unique_topic(const std::string& name) {
  return "/ubot_test_" + std::to_string(getpid()) + "/" + name;
}

}  // namespace ubot::ros2::testing
