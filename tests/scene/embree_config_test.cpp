// UBOT_EMBREE_CONFIG (src/scene/embree_device.h): the accepted items, clear errors for bad ones,
// the device really using the ISA asked for, and exact answers from every ISA's kernels for
// packets that fill only some of their 16 lanes.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "../../src/scene/embree_device.h"
#include "scene_test_util.h"
#include "support/error_of.h"
#include "ubot/core/error.h"

namespace ubot::scene {
namespace {

using internal::kEmbreeConfigVariable;
using internal::native_packet_width;
using internal::parse_embree_config;
using testing::polyline;

constexpr std::array<const char*, 5> kIsas = {"sse2", "sse4.2", "avx", "avx2", "avx512"};

// Sets UBOT_EMBREE_CONFIG for the scope, then puts back what was there.
class ScopedConfig {
 public:
  explicit ScopedConfig(const std::string& value) {
    if (const char* old = std::getenv(kEmbreeConfigVariable)) old_ = old;
    setenv(kEmbreeConfigVariable, value.c_str(), 1);
  }
  ~ScopedConfig() {
    if (old_) {
      setenv(kEmbreeConfigVariable, old_->c_str(), 1);
    } else {
      unsetenv(kEmbreeConfigVariable);
    }
  }
  ScopedConfig(const ScopedConfig&) = delete;
  ScopedConfig& operator=(const ScopedConfig&) = delete;

 private:
  std::optional<std::string> old_;
};

std::string error_of(const std::string& text) {
  return testing_support::error_of([&] { parse_embree_config(text); });
}

TEST(EmbreeConfig, DocumentedItemsPassThroughUnchanged) {
  EXPECT_EQ(parse_embree_config("").text, "");
  EXPECT_EQ(parse_embree_config("  ").isa, "");
  for (const char* isa : kIsas) {
    const internal::EmbreeConfig c = parse_embree_config(std::string("isa=") + isa);
    EXPECT_EQ(c.isa, isa);
    EXPECT_EQ(c.text, std::string("isa=") + isa);
  }
  const internal::EmbreeConfig c = parse_embree_config(" isa=avx2, threads=1,verbose=0 ");
  EXPECT_EQ(c.isa, "avx2");
  EXPECT_EQ(c.text, "isa=avx2, threads=1,verbose=0");
}

TEST(EmbreeConfig, BadValuesNameTheVariableAndTheItem) {
  // Embree itself would take each of these silently: an unknown ISA as SSE2, the rest skipped.
  const std::array<std::pair<const char*, const char*>, 11> cases = {{
      {"isa=avx3",
       "UBOT_EMBREE_CONFIG='isa=avx3': unknown ISA 'avx3' (expected one of sse2, "
       "sse4.2, avx, avx2, avx512)"},
      {"isa=AVX2", "unknown ISA 'AVX2'"},
      {"ias=avx2",
       "UBOT_EMBREE_CONFIG='ias=avx2': unknown item 'ias=avx2' (expected key=value "
       "with a key among isa, threads, verbose)"},
      {"avx2", "unknown item 'avx2'"},
      {"isa=", "'isa=' has no value"},
      {"isa", "'isa' has no value"},
      {"isa = avx2", "'isa = avx2' has a space in it"},
      {"isa=avx2,,verbose=1", "empty item"},
      {"isa=avx2,", "empty item after the last comma"},
      {"isa=avx2,isa=sse2", "isa is given twice"},
      {"threads=-1", "'threads=-1': threads must be an integer in [0, 4096]"},
  }};
  for (const auto& [text, message] : cases) {
    EXPECT_NE(error_of(text).find(message), std::string::npos)
        << text << " gave: " << error_of(text);
  }
  EXPECT_NE(error_of("verbose=9").find("verbose must be an integer in [0, 3]"), std::string::npos);
  EXPECT_NE(error_of("verbose=1x").find("verbose must be"), std::string::npos);
}

TEST(EmbreeConfig, ASceneRefusesABadConfig) {
  ScopedConfig config("isa=avx3");
  try {
    Scene scene;
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("UBOT_EMBREE_CONFIG='isa=avx3': unknown ISA"),
              std::string::npos)
        << e.what();
  }
}

TEST(EmbreeConfig, TheDeviceTracesWithTheIsaAskedFor) {
  int supported = 0;
  for (const char* isa : kIsas) {
    ScopedConfig config(std::string("isa=") + isa);
    if (!internal::cpu_supports_isa(isa)) {
      EXPECT_THROW(internal::new_embree_device(), Error) << isa;
      continue;
    }
    ++supported;
    RTCDevice device = internal::new_embree_device();
    EXPECT_EQ(native_packet_width(device), native_packet_width(isa)) << isa;
    rtcReleaseDevice(device);
  }
  EXPECT_GE(supported, 2);  // SSE2 and SSE4.2 on every x86-64 CPU Embree 3 runs on
}

// The per-ISA test entries (tests/CMakeLists.txt) set UBOT_EMBREE_CONFIG=isa=<isa>: this one
// shows it reaches Embree. Without it, Embree takes the widest kernels the CPU runs.
TEST(EmbreeConfig, TheEnvironmentsIsaIsTheOneTraced) {
  const char* env = std::getenv(kEmbreeConfigVariable);
  const internal::EmbreeConfig config = parse_embree_config(env != nullptr ? env : "");
  RTCDevice device = internal::new_embree_device();
  const int width = native_packet_width(device);
  rtcReleaseDevice(device);
  if (!config.isa.empty()) {
    EXPECT_EQ(width, native_packet_width(config.isa)) << config.text;
  } else {
    const int widest = internal::cpu_supports_isa("avx512") ? 16
                       : internal::cpu_supports_isa("avx")  ? 8
                                                            : 4;
    EXPECT_EQ(width, widest);
  }
}

// Distance from `o` (inside) along unit `d` to the boundary of the square [-h, h]^2.
double to_square(const Eigen::Vector2d& o, const Eigen::Vector2d& d, double h) {
  double t = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 2; ++k) {
    if (d[k] != 0.0) t = std::min(t, ((d[k] > 0.0 ? h : -h) - o[k]) / d[k]);
  }
  return t;
}

// Casts of 1 to 33 rays (partial packets, and a full one with a partial one after it) inside a
// square room give the analytic distances with every ISA the CPU runs. Before unused lanes were
// filled, Embree's AVX2 and SSE kernels traced whatever the stack held there: asserts, crashes.
TEST(EmbreeConfig, EveryIsaAnswersPartPacketsExactly) {
  constexpr double kHalf = 7.0;
  std::mt19937_64 rng(20240610);
  std::uniform_real_distribution<double> yaw(-std::numbers::pi, std::numbers::pi);
  std::uniform_real_distribution<double> at(-0.9 * kHalf, 0.9 * kHalf);
  for (const char* isa : kIsas) {
    if (!internal::cpu_supports_isa(isa)) continue;
    ScopedConfig config(std::string("isa=") + isa);
    Scene scene;
    const BodyId room = scene.add_body(
        polyline(
            {{-kHalf, -kHalf}, {kHalf, -kHalf}, {kHalf, kHalf}, {-kHalf, kHalf}, {-kHalf, -kHalf}}),
        false, 1);
    scene.commit();
    for (std::size_t n = 1; n <= 33; ++n) {
      const Eigen::Vector2d o(at(rng), at(rng));
      std::vector<Ray> rays(n);
      for (Ray& r : rays) {
        const double a = yaw(rng);
        r = {{o.x(), o.y(), 0.5}, {std::cos(a), std::sin(a), 0.0}, 100.0};
      }
      std::vector<RayHit> hits(n);
      scene.cast(rays, kNoUserId, hits);
      for (std::size_t i = 0; i < n; ++i) {
        const Eigen::Vector2d d = rays[i].direction.head<2>();
        ASSERT_EQ(hits[i].body, room) << isa << ", " << n << " rays, ray " << i;
        EXPECT_NEAR(hits[i].distance, to_square(o, d, kHalf), 1e-12) << isa << ", ray " << i;
      }
    }
  }
}

// More scenes alive at once than glibc has thread-local keys (1024): with a device per scene
// the 1,020th could not be made (a VectorEnv of 1,024 copies failed). They share one device, and
// each still answers its own rays.
TEST(EmbreeConfig, MoreScenesThanAProcessHasThreadKeys) {
  using testing::cast_one, testing::circle, testing::ray2d;
  constexpr int kScenes = 1100;
  std::vector<std::unique_ptr<Scene>> scenes;
  for (int i = 0; i < kScenes; ++i) {
    auto& scene = scenes.emplace_back(std::make_unique<Scene>());
    scene->add_body(circle(2.0 + 0.001 * i, 0.0, 0.5), false, 0);
    scene->commit();
  }
  for (int i = 0; i < kScenes; i += 99) {
    const RayHit hit = cast_one(*scenes[i], ray2d(0, 0, 1, 0));
    ASSERT_TRUE(hit.hit()) << i;
    EXPECT_NEAR(hit.distance, 1.5 + 0.001 * i, 1e-9) << i;
  }
}

// A changed UBOT_EMBREE_CONFIG makes a new shared device; scenes on the old one go on.
TEST(EmbreeConfig, AChangedConfigMakesANewSharedDevice) {
  using testing::cast_one, testing::circle, testing::ray2d;
  Scene before;
  before.add_body(circle(3.0, 0.0, 1.0), false, 0);
  before.commit();
  {
    ScopedConfig config("isa=sse2");
    Scene after;
    after.add_body(circle(3.0, 0.0, 1.0), false, 0);
    after.commit();
    EXPECT_NEAR(cast_one(after, ray2d(0, 0, 1, 0)).distance, 2.0, 1e-9);
  }
  EXPECT_NEAR(cast_one(before, ray2d(0, 0, 1, 0)).distance, 2.0, 1e-9);
}

}  // namespace
}  // namespace ubot::scene
