// UBOT_EMBREE_CONFIG: checking the value, the CPU and the device Embree makes of it.
#include "embree_device.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "ubot/core/error.h"

namespace ubot::scene::internal {
namespace {

constexpr std::array<std::string_view, 5> kIsas = {"sse2", "sse4.2", "avx", "avx2", "avx512"};
constexpr std::array<std::string_view, 3> kKeys = {"isa", "threads", "verbose"};

std::string join(auto names) {
  std::string out;
  for (std::string_view n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

// 'text', built by appending (GCC 12's -Wrestrict misfires on "'" + std::string).
std::string quote(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '\'';
  out += text;
  out += '\'';
  return out;
}

[[noreturn]] void fail(std::string_view text, const std::string& why) {
  throw Error(std::string(kEmbreeConfigVariable) + "=" + quote(text) + ": " + why);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool parse_int(std::string_view s, int lo, int hi) {
  int v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() && v >= lo && v <= hi;
}

// Checks one `key=value` item and records what it sets.
void check_item(std::string_view text, std::string_view item, EmbreeConfig* config) {
  const std::size_t eq = item.find('=');
  const std::string_view key = eq == std::string_view::npos ? item : item.substr(0, eq);
  const std::string_view value = eq == std::string_view::npos ? "" : item.substr(eq + 1);
  const std::string quoted = quote(item);
  if (std::ranges::any_of(item,
                          [](char c) { return std::isspace(static_cast<unsigned char>(c)); })) {
    fail(text, quoted + " has a space in it");
  }
  if (std::ranges::find(kKeys, key) == kKeys.end()) {
    fail(text,
         "unknown item " + quoted + " (expected key=value with a key among " + join(kKeys) + ")");
  }
  if (value.empty()) fail(text, quoted + " has no value");
  if (key == "isa") {
    if (std::ranges::find(kIsas, value) == kIsas.end()) {
      fail(text, "unknown ISA " + quote(value) + " (expected one of " + join(kIsas) + ")");
    }
    if (!config->isa.empty()) fail(text, "isa is given twice");
    config->isa = value;
  } else if (key == "threads" && !parse_int(value, 0, 4096)) {
    fail(text, quoted + ": threads must be an integer in [0, 4096]");
  } else if (key == "verbose" && !parse_int(value, 0, 3)) {
    fail(text, quoted + ": verbose must be an integer in [0, 3]");
  }
}

const char* error_name(RTCError code) {
  switch (code) {
    case RTC_ERROR_NONE:
      return "no error code";
    case RTC_ERROR_UNKNOWN:
      return "RTC_ERROR_UNKNOWN";
    case RTC_ERROR_INVALID_ARGUMENT:
      return "RTC_ERROR_INVALID_ARGUMENT";
    case RTC_ERROR_INVALID_OPERATION:
      return "RTC_ERROR_INVALID_OPERATION";
    case RTC_ERROR_OUT_OF_MEMORY:
      return "RTC_ERROR_OUT_OF_MEMORY";
    case RTC_ERROR_UNSUPPORTED_CPU:
      return "RTC_ERROR_UNSUPPORTED_CPU";
    case RTC_ERROR_CANCELLED:
      return "RTC_ERROR_CANCELLED";
#if RTC_VERSION_MAJOR >= 4  // Embree 4's GPU (SYCL) devices; a CPU device never sets it
    case RTC_ERROR_LEVEL_ZERO_RAYTRACING_SUPPORT_MISSING:
      return "RTC_ERROR_LEVEL_ZERO_RAYTRACING_SUPPORT_MISSING";
#endif
  }
  return "an unknown error code";
}

}  // namespace

EmbreeConfig parse_embree_config(std::string_view text) {
  EmbreeConfig config;
  config.text = trim(text);
  std::string_view rest = config.text;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = trim(rest.substr(0, comma));
    if (item.empty()) fail(text, "empty item (items are separated by single commas)");
    check_item(text, item, &config);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
    if (trim(rest).empty()) fail(text, "empty item after the last comma");
  }
  return config;
}

bool cpu_supports_isa(std::string_view isa) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (isa == "sse2") return __builtin_cpu_supports("sse2");
  if (isa == "sse4.2") return __builtin_cpu_supports("sse4.2");
  if (isa == "avx") return __builtin_cpu_supports("avx");
  // Embree's AVX2 kernels also use FMA and BMI1/2; its AVX-512 ones AVX512F/CD/DQ/BW/VL.
  if (isa == "avx2") {
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
           __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
  }
  if (isa == "avx512") {
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl");
  }
#endif
  (void)isa;
  return false;
}

int native_packet_width(std::string_view isa) {
  if (isa == "avx512") return 16;
  if (isa == "avx" || isa == "avx2") return 8;
  return 4;
}

int native_packet_width(RTCDevice device) {
  if (rtcGetDeviceProperty(device, RTC_DEVICE_PROPERTY_NATIVE_RAY16_SUPPORTED) != 0) return 16;
  if (rtcGetDeviceProperty(device, RTC_DEVICE_PROPERTY_NATIVE_RAY8_SUPPORTED) != 0) return 8;
  if (rtcGetDeviceProperty(device, RTC_DEVICE_PROPERTY_NATIVE_RAY4_SUPPORTED) != 0) return 4;
  return 1;
}

RTCDevice new_embree_device() {
  const char* env = std::getenv(kEmbreeConfigVariable);
  const std::string_view text = env != nullptr ? env : "";
  const EmbreeConfig config = parse_embree_config(text);
  if (!config.isa.empty() && !cpu_supports_isa(config.isa)) {
    fail(text, "this CPU cannot run Embree's " + config.isa + " kernels");
  }
  RTCDevice device = rtcNewDevice(config.text.empty() ? nullptr : config.text.c_str());
  if (device == nullptr) {
    // Without a device Embree has nowhere to call back: the code is kept per thread.
    fail(text,
         std::string("Embree cannot create a device: ") + error_name(rtcGetDeviceError(nullptr)));
  }
  const int width = native_packet_width(device);
  if (!config.isa.empty() && width != native_packet_width(config.isa)) {
    rtcReleaseDevice(device);
    fail(text, "Embree's device traces " + std::to_string(width) + "-wide packets natively, not " +
                   std::to_string(native_packet_width(config.isa)) + " as " + config.isa +
                   " does (is this libembree built without those kernels?)");
  }
  return device;
}

namespace {

void record_error(void* errors, RTCError code, const char* message) {
  auto& e = *static_cast<EmbreeErrors*>(errors);
  std::lock_guard lock(e.mutex);
  if (e.any.load()) return;  // keep the first one
  e.first = "Embree error " + std::to_string(static_cast<int>(code)) + ": " +
            (message != nullptr ? message : "");
  e.any.store(true);
}

}  // namespace

SharedDevice shared_embree_device() {
  static std::mutex mutex;
  static std::string made_from;                 // the UBOT_EMBREE_CONFIG value of `device`
  static RTCDevice device = nullptr;            // the cache's reference
  static std::deque<EmbreeErrors> error_sinks;  // one per device made; addresses stay put
  const char* env = std::getenv(kEmbreeConfigVariable);
  const std::string text = env != nullptr ? env : "";
  std::lock_guard lock(mutex);
  if (device == nullptr || text != made_from) {
    RTCDevice made = new_embree_device();  // throws for a bad value: the cache stays as it was
    if (device != nullptr) rtcReleaseDevice(device);  // scenes on it keep their references
    device = made;
    made_from = text;
    rtcSetDeviceErrorFunction(device, record_error, &error_sinks.emplace_back());
  }
  rtcRetainDevice(device);
  return {device, &error_sinks.back()};
}

}  // namespace ubot::scene::internal
