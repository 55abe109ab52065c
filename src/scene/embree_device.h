#pragma once
// The Embree device, configured from the environment variable UBOT_EMBREE_CONFIG.
//
// Unset or empty: Embree's defaults (the widest kernels the CPU runs). Otherwise a
// comma-separated list of key=value items passed to rtcNewDevice(), from these keys:
//   isa=sse2|sse4.2|avx|avx2|avx512   force Embree's kernel set (tests run each one the CPU has)
//   threads=N                         Embree's TBB worker count (0: all cores)
//   verbose=0..3                      Embree prints its configuration (1: the ISA it uses)
// The value is checked here first: Embree maps an unknown ISA name to SSE2 and skips unknown
// keys without a word, so a typo would silently trace with other kernels than asked for.

#include <atomic>
#include <mutex>
#include <string>
#include <string_view>

#include "embree_api.h"

namespace ubot::scene::internal {

inline constexpr const char* kEmbreeConfigVariable = "UBOT_EMBREE_CONFIG";

struct EmbreeConfig {
  std::string text;  // what rtcNewDevice() gets (empty: nullptr, Embree's defaults)
  std::string isa;   // the isa item's value, or empty
};

// Checks a UBOT_EMBREE_CONFIG value; throws ubot::Error naming the variable and the bad item.
EmbreeConfig parse_embree_config(std::string_view text);

// Whether this CPU has the instructions of Embree's kernels for `isa` (a name
// parse_embree_config() accepts).
bool cpu_supports_isa(std::string_view isa);

// The packet width Embree's kernels for `isa` trace natively: 4 (SSE), 8 (AVX, AVX2), 16
// (AVX-512).
int native_packet_width(std::string_view isa);

// The widest packet `device` traces natively (RTC_DEVICE_PROPERTY_NATIVE_RAY*_SUPPORTED): how
// to tell which kernel set a device really uses.
int native_packet_width(RTCDevice device);

// A new device configured from UBOT_EMBREE_CONFIG. Throws ubot::Error if the value is bad, the
// CPU lacks the ISA it names, Embree refuses it, or the device does not use the ISA asked for.
RTCDevice new_embree_device();

// What a shared device reported through its error function, kept (the first one) until a scene
// that uses the device throws it.
struct EmbreeErrors {
  std::mutex mutex;
  std::string first;
  std::atomic<bool> any{false};
};

// The one device every scene of the process shares while UBOT_EMBREE_CONFIG keeps its value
// (made by new_embree_device() at first use, and again when the value changes): Embree takes a
// thread-local key per device, and glibc has 1024 of them per process, so a device per scene
// stopped ubot.VectorEnv at about 1,020 copies. `device` is a new reference (rtcReleaseDevice
// it); `errors` lives as long as the process. Thread-safe.
struct SharedDevice {
  RTCDevice device;
  EmbreeErrors* errors;
};
SharedDevice shared_embree_device();

}  // namespace ubot::scene::internal
