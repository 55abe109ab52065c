// The path a DDS sample takes into ubot: CycloneDDS's normaliser checks the CDR bytes (what it
// does on receipt), dds_stream_read fills the C sample, cyclone::from_c copies it into ubot's
// message. Then ubot's own generated reader (deserialize_cdr, what the live server uses) reads
// the same bytes: it never crashes, and a little-endian sample CycloneDDS accepts it accepts too.
// The first byte picks the message type; then the encapsulation header and payload.
#include <dds/ddsi/ddsi_cdrstream.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cyclone_convert.h"
#include "ubot/ros2/cdr.h"

namespace {

using namespace ubot::ros2;

constexpr std::uint32_t kXcdr1 = 1;  // CDR_ENC_VERSION_1: ubot's readers accept XCDR1

template <class M>
void decode(const std::uint8_t* bytes, std::size_t size) {
  using C = typename cyclone::CType<M>::type;
  const dds_topic_descriptor_t* desc = cyclone::CType<M>::descriptor();
  // The encapsulation header: 00 01 (CDR little-endian) or 00 00 (big-endian), 2 option bytes.
  if (size < 4 || bytes[0] != 0 || bytes[1] > 1) return;
  const bool bswap = bytes[1] == 0;
  // Never a null buffer (an empty payload): Cyclone's own receive path always passes one.
  std::vector<char> payload;
  payload.reserve(size - 4 + 1);
  payload.assign(bytes + 4, bytes + size);
  std::uint32_t offset = 0;
  M ours;
  const std::string our_error = deserialize_cdr(std::span(bytes, size), ours);
  if (dds_stream_normalize_data(payload.data(), &offset, static_cast<std::uint32_t>(payload.size()),
                                bswap, kXcdr1, desc->m_ops) == nullptr) {
    return;  // refused by the normaliser: Cyclone drops such a sample
  }
  if (!bswap && !our_error.empty()) {
    std::fprintf(stderr, "CycloneDDS reads a sample ubot refuses: %s\n", our_error.c_str());
    std::abort();
  }
  void* sample = std::calloc(1, desc->m_size);
  dds_istream_t in;
  dds_istream_init(&in, static_cast<std::uint32_t>(payload.size()), payload.data(), kXcdr1);
  dds_stream_read(&in, static_cast<char*>(sample), desc->m_ops);
  M message;
  cyclone::from_c(*static_cast<const C*>(sample), message);
  dds_istream_fini(&in);
  dds_stream_free_sample(sample, desc->m_ops);
  std::free(sample);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
#define UBOT_FUZZ_COUNT(T, pkg) +1
  constexpr int kKinds = 0 UBOT_ROS2_MESSAGE_TYPES(UBOT_FUZZ_COUNT);  // every listed type
#undef UBOT_FUZZ_COUNT
  int kind = data[0] % kKinds;
#define UBOT_FUZZ_KIND(T, pkg)     \
  if (kind-- == 0) {               \
    decode<T>(data + 1, size - 1); \
    return 0;                      \
  }
  UBOT_ROS2_MESSAGE_TYPES(UBOT_FUZZ_KIND)
#undef UBOT_FUZZ_KIND
  return 0;
}
