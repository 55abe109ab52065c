// The YAML world loader on arbitrary text: a world or a ubot::Error, nothing else (no crash,
// no other exception, no sanitizer report).
#include <cstddef>
#include <cstdint>
#include <string>

#include "ubot/config/load_world.h"
#include "ubot/core/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    ubot::load_world_from_string(text, "fuzz.yaml");
  } catch (const ubot::Error&) {
  }
  return 0;
}
