#include "resource_estimate.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <variant>

#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/sensors/camera/camera_model.h"
#include "ubot/sensors/lidar3d/lidar3d_model.h"

namespace ubot::config {
namespace {

std::string gib(std::uint64_t bytes) {
  const double b = static_cast<double>(bytes);
  if (b >= 1024.0 * 1024.0 * 1024.0)
    return fmt::format("{:.1f} GiB", b / (1024.0 * 1024.0 * 1024.0));
  if (b >= 1024.0 * 1024.0) return fmt::format("{:.1f} MiB", b / (1024.0 * 1024.0));
  if (bytes < 1024) return fmt::format("{} B", bytes);
  return fmt::format("{:.1f} KiB", b / 1024.0);
}

struct Part {
  std::uint64_t bytes = 0;
  std::string what;
};

Part sensor_estimate(const ObjectModel& object, const SensorModel& sensor) {
  const std::string name = object.name + "/" + sensor.common.name;
  if (const auto* c = std::get_if<CameraModel>(&sensor.params)) {
    const std::uint64_t pixels = static_cast<std::uint64_t>(c->width) * c->height;
    return {pixels * (c->depth ? kDepthBytesPerPixel : kRgbBytesPerPixel),
            fmt::format("{}: a {} x {} {}", name, c->width, c->height, c->type_name())};
  }
  if (const auto* l = std::get_if<Lidar3dModel>(&sensor.params)) {
    const std::uint64_t points = static_cast<std::uint64_t>(l->vertical_angles.size()) * l->number;
    return {points * kLidar3dBytesPerPoint, fmt::format("{}: a lidar3d of {} x {} points", name,
                                                        l->vertical_angles.size(), l->number)};
  }
  return {kBytesPerOtherSensor, name};
}

}  // namespace

std::uint64_t memory_limit(std::optional<std::uint64_t> limit, std::string* source) {
  if (limit) {
    if (source) *source = "--memory-limit";
    return *limit;
  }
  if (const char* env = std::getenv("UBOT_MEMORY_LIMIT"); env && *env) {
    if (source) *source = "UBOT_MEMORY_LIMIT";
    return parse_size(env, "UBOT_MEMORY_LIMIT");
  }
  if (source) *source = "half of this machine's memory";
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * page / 2 : 1ULL << 33;
}

namespace {

// The world's estimate, and its largest part.
std::uint64_t estimate(const WorldModel& world, Part& largest) {
  std::uint64_t total = 0;
  for (const ObjectModel& object : world.objects) {
    total += kBytesPerObject + object.shape.vertices.size() * kBytesPerVertex;
    for (const SensorModel& sensor : object.sensors) {
      Part part = sensor_estimate(object, sensor);
      total += part.bytes;
      if (part.bytes > largest.bytes) largest = std::move(part);
    }
  }
  return total;
}

}  // namespace

void check_memory_estimate(const WorldModel& world, std::optional<std::uint64_t> limit) {
  Part largest;
  const std::uint64_t total = estimate(world, largest);
  std::string source;
  const std::uint64_t allowed = memory_limit(limit, &source);
  if (total <= allowed) return;
  const std::size_t n = world.objects.size();
  const std::string objects = fmt::format("{} object{}", n, n == 1 ? "" : "s");
  throw Error(
      ErrorLocation(world.file),
      fmt::format("the world would need about {} of memory ({}: {}; {}), more than the limit of "
                  "{} ({}); raise it with --memory-limit SIZE or UBOT_MEMORY_LIMIT (e.g. 32G)",
                  gib(total), largest.bytes > 0 ? largest.what : objects,
                  gib(largest.bytes > 0 ? largest.bytes : total), objects, gib(allowed), source));
}

void check_memory_for_declared_objects(const std::string& file, std::uint64_t objects,
                                       std::optional<std::uint64_t> limit) {
  std::string source;
  const std::uint64_t allowed = memory_limit(limit, &source);
  if (objects <= allowed / kBytesPerObject) return;
  throw Error(ErrorLocation(file),
              fmt::format("the world declares {} objects, which would need at least {} of memory "
                          "({} each before their sensors), more than the limit of {} ({}); raise "
                          "it with --memory-limit SIZE or UBOT_MEMORY_LIMIT (e.g. 32G)",
                          objects, gib(objects * kBytesPerObject), gib(kBytesPerObject),
                          gib(allowed), source));
}

}  // namespace ubot::config

namespace ubot {

void check_memory_for_items(std::uint64_t count, std::uint64_t bytes_each, const std::string& what,
                            std::optional<std::uint64_t> limit) {
  std::string source;
  const std::uint64_t allowed = config::memory_limit(limit, &source);
  // Compared without the product overflowing.
  if (bytes_each == 0 || count <= allowed / bytes_each) return;
  throw Error(fmt::format(
      "{} would need about {} of memory ({} each), more than the limit of {} ({}); use fewer, or "
      "raise UBOT_MEMORY_LIMIT (e.g. 32G)",
      what,
      count > std::numeric_limits<std::uint64_t>::max() / bytes_each
          ? std::string("more than 16 EiB")
          : config::gib(count * bytes_each),
      config::gib(bytes_each), config::gib(allowed), source));
}

void check_memory_for_copies(const WorldModel& world, std::uint64_t copies, const std::string& who,
                             std::optional<std::uint64_t> limit) {
  config::Part largest;
  check_memory_for_items(copies, config::estimate(world, largest),
                         fmt::format("{}: {} copies of {}", who, copies, world.file), limit);
}

std::uint64_t parse_size(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  double scale = 1.0;
  const std::string suffix(end ? end : "");
  if (suffix == "K" || suffix == "k") {
    scale = 1024.0;
  } else if (suffix == "M") {
    scale = 1024.0 * 1024.0;
  } else if (suffix == "G") {
    scale = 1024.0 * 1024.0 * 1024.0;
  } else if (suffix == "T") {
    scale = 1024.0 * 1024.0 * 1024.0 * 1024.0;
  } else if (!suffix.empty()) {
    scale = 0.0;
  }
  const double bytes = value * scale;
  if (end == text.c_str() || !(bytes >= 1.0) || bytes > 1.8e19) {
    throw Error(fmt::format("{}: expected a size such as 8G, 512M or 1000000 (bytes), got '{}'",
                            what, text));
  }
  return static_cast<std::uint64_t>(bytes);
}

}  // namespace ubot
