// Loading scales linearly (issue 16, item 2), pinned without timing: the bytes a load has
// allocated at its peak (counted by this binary's operator new) per object stay the same from
// 2 000 to 20 000 obstacles, and the parsed YAML holds a fixed number of nodes per obstacle in a
// few bytes per byte of text (yaml-cpp's tree took about 60).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "ubot/config/load_world.h"
#include "ubot/config/yaml_document.h"
#include "ubot/core/error.h"

namespace {

std::atomic<std::int64_t> g_live{0};
std::atomic<std::int64_t> g_peak{0};

void count_allocation(void* p) {
  const std::int64_t live = g_live += static_cast<std::int64_t>(malloc_usable_size(p));
  std::int64_t peak = g_peak.load();
  while (live > peak && !g_peak.compare_exchange_weak(peak, live)) {
  }
}

}  // namespace

void* operator new(std::size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  count_allocation(p);
  return p;
}
void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  g_live -= static_cast<std::int64_t>(malloc_usable_size(p));
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }
// The nothrow forms too (GoogleTest 1.15, Debian 13, allocates with them): left to the sanitizer
// runtime, they would allocate as `new` what the delete above frees as malloc's.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p != nullptr) count_allocation(p);
  return p;
}
void operator delete(void* p, const std::nothrow_t&) noexcept { operator delete(p); }

namespace ubot::config {
namespace {

// N circle obstacles, one entry each: 12 YAML nodes apiece (the entry's mapping, `shape` and
// its mapping of 2 pairs, `state` and its list of 3).
std::string circles_world(int n) {
  std::string yaml = "world: {height: 1000, width: 1000}\nobstacle:\n";
  for (int i = 0; i < n; ++i) {
    yaml += fmt::format("  - shape: {{name: circle, radius: 0.3}}\n    state: [{}, {}, 0]\n",
                        (i * 7919) % 1000 + 0.5, (i * 104729) % 1000 + 0.5);
  }
  return yaml;
}

// Peak bytes allocated while loading, above what was live before.
std::int64_t peak_bytes_of_load(const std::string& yaml) {
  const std::int64_t before = g_live.load();
  g_peak = before;
  {
    const WorldModel model = load_world_from_string(yaml, "big.yaml");
    EXPECT_FALSE(model.objects.empty());
  }
  return g_peak.load() - before;
}

TEST(LargeWorld, YamlNodesPerObstacleAreFixedAndCompact) {
  for (int n : {1000, 10000}) {
    const std::string yaml = circles_world(n);
    const auto doc = YamlDocument::parse(yaml, "big.yaml");
    // The root mapping, `world` and its mapping of 2 pairs, `obstacle` and its list: 9.
    EXPECT_EQ(doc->node_count(), 9u + 12u * n) << n;
    EXPECT_LT(doc->bytes(), 6 * yaml.size()) << n;  // yaml-cpp: ~60x
  }
}

TEST(LargeWorld, NestingIsLimited) {
  // A million '[' kept libyaml busy for minutes (O(depth) work a token); 256 levels are allowed.
  const std::string deep = "world: " + std::string(1000000, '[') + std::string(1000000, ']');
  try {
    YamlDocument::parse(deep, "deep.yaml");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "deep.yaml:1:263: YAML nested deeper than 256 levels");
  }
  const std::string ok = "world: " + std::string(255, '[') + std::string(255, ']');
  EXPECT_NO_THROW(YamlDocument::parse(ok, "ok.yaml"));
}

TEST(LargeWorld, PeakMemoryPerObjectDoesNotGrowWithTheWorld) {
  const double small = static_cast<double>(peak_bytes_of_load(circles_world(2000))) / 2000;
  const double large = static_cast<double>(peak_bytes_of_load(circles_world(20000))) / 20000;
  RecordProperty("bytes_per_object_2000", static_cast<int>(small));
  RecordProperty("bytes_per_object_20000", static_cast<int>(large));
  EXPECT_GT(small, 500);  // the counter counts: an object model is over a kilobyte
  EXPECT_LT(large, small * 1.1) << "2000: " << small << " B/object, 20000: " << large;
  EXPECT_LT(large, 6000) << "bytes per object at the peak of a load";
}

}  // namespace
}  // namespace ubot::config
