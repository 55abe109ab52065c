#pragma once
// Memory a world will need, estimated before anything is allocated (issue 16, item 2): a world
// whose estimate exceeds the limit is refused at load with the estimate in the message, rather
// than killed by the kernel half-way (a 16384 x 16384 camera: 4 GB, then SIGKILL).
#include <cstdint>
#include <optional>
#include <string>

#include "ubot/config/world_model.h"

namespace ubot::config {

// Bytes per unit, measured as peak RSS over a run's (AMD EPYC (KVM), 2 cores; docs/worlds.md):
inline constexpr std::uint64_t kRgbBytesPerPixel = 200;      // measured 190 (image, rays, PNG)
inline constexpr std::uint64_t kDepthBytesPerPixel = 160;    // measured 150
inline constexpr std::uint64_t kLidar3dBytesPerPoint = 128;  // measured 125 (VLP-16, 20000 cols)
// An object's model, running state and scene geometry: measured 4.7-4.8 KB at the peak of
// 100 000 and 500 000 obstacles (Intel Xeon (KVM); docs/hostile-input.md, large worlds).
inline constexpr std::uint64_t kBytesPerObject = 5120;
inline constexpr std::uint64_t kBytesPerVertex = 64;
inline constexpr std::uint64_t kBytesPerOtherSensor = 65536;

// The limit: `limit` if given, else UBOT_MEMORY_LIMIT (a size such as 8G), else half of the
// machine's physical memory. `source` says which (for the message).
std::uint64_t memory_limit(std::optional<std::uint64_t> limit, std::string* source = nullptr);

// Throws an ubot::Error naming the world file, the estimate and its largest part when the
// world's estimate exceeds the limit.
void check_memory_estimate(const WorldModel& world, std::optional<std::uint64_t> limit);

// The same check from the object count the file declares (its groups' `number`), before any
// object is read or placed: a 400-byte file asking for 10^6 random objects reached 2 GB first.
void check_memory_for_declared_objects(const std::string& file, std::uint64_t objects,
                                       std::optional<std::uint64_t> limit);

}  // namespace ubot::config
