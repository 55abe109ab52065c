// One point-cloud reader (LAS, PLY or PCD, chosen at build time) on arbitrary bytes: a cloud
// or a ubot::Error naming the file, nothing else.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ubot/core/error.h"
#include "ubot/mapping/point_cloud_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<char> bytes(data, data + size);
  try {
#if defined(UBOT_FUZZ_FORMAT_las)
    ubot::mapping::read_las_bytes(bytes, "fuzz.las");
#elif defined(UBOT_FUZZ_FORMAT_ply)
    ubot::mapping::read_ply_bytes(bytes, "fuzz.ply");
#else
    ubot::mapping::read_pcd_bytes(bytes, "fuzz.pcd");
#endif
  } catch (const ubot::Error&) {
  }
  return 0;
}
