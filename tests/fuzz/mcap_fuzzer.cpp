// An MCAP file as `ubot play` would open it: McapReader indexes the bytes (magic, Header, every
// record of the data section, chunks decompressed with zstd / lz4 and their CRCs checked, the
// footer and summary statistics), then every indexed message's payload is read. Each input must
// give a reader or a ubot::Error, never a crash, a hang or unbounded memory.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ubot/core/error.h"
#include "ubot/record/mcap_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    ubot::McapReader reader("fuzz.mcap", std::vector<std::uint8_t>(data, data + size));
    for (const ubot::McapMessageRef& message : reader.messages()) {
      try {
        const auto payload = reader.payload(message);
        if (payload.size() != message.size) __builtin_trap();
      } catch (const ubot::Error&) {
      }
    }
  } catch (const ubot::Error&) {
  }
  return 0;
}
