// lidar2d noise (SPEC §0, §2): the configured sigma really, only on hits, deterministic.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sensor_test_support.h"

namespace ubot {
namespace {

using testing_support::lidar;
using testing_support::make_sim;

// 1000 beams all hitting a wall 5 m ahead within a 0.02 rad fan (true range 5/cos(a)), and a
// second lidar looking away at nothing.
const char* kWorld = R"(
robot:
  - kinematics: {name: diff}
    state: [0, 0, 0]
    static: true
    sensors:
      - {name: lidar2d, range_max: 10, angle_range: 0.02, number: 1000, noise: true, std: %g,
         angle_std: %g}
      - {name: lidar2d, range_max: 10, angle_range: 0.02, number: 1000, noise: true, std: %g,
         offset: [0, 0, 3.141592653589793]}
obstacle:
  - {shape: {name: linestring, vertices: [[5, -10], [5, 10]]}, state: [0, 0, 0]}
)";

std::string noise_world(double std, double angle_std) {
  char buffer[1024];
  std::snprintf(buffer, sizeof(buffer), kWorld, std, angle_std, std);
  return buffer;
}

struct Stats {
  double mean = 0, stddev = 0;
};

Stats stats(const std::vector<double>& x) {
  double s = 0;
  for (double v : x) s += v;
  const double mean = s / x.size();
  double ss = 0;
  for (double v : x) ss += (v - mean) * (v - mean);
  return {mean, std::sqrt(ss / (x.size() - 1))};
}

TEST(Lidar2dNoise, RangeNoiseHasTheConfiguredSigmaOverOneHundredThousandSamples) {
  const double sigma = 0.05;
  Simulation sim = make_sim(noise_world(sigma, 0.0));
  std::vector<double> errors;
  for (int k = 0; k < 100; ++k) {
    sim.step();
    const Lidar2d& l = lidar(sim);
    for (std::size_t i = 0; i < l.angles().size(); ++i) {
      errors.push_back(l.scan().ranges[i] - 5.0 / std::cos(l.angles()[i]));
    }
    // The lidar looking away sees nothing: misses stay exactly range_max, noise-free.
    for (double r : lidar(sim, 1).scan().ranges) ASSERT_EQ(r, 10.0);
  }
  ASSERT_EQ(errors.size(), 100000u);
  const Stats s = stats(errors);
  EXPECT_NEAR(s.stddev, sigma, 0.02 * sigma);
  EXPECT_NEAR(s.mean, 0.0, 5 * sigma / std::sqrt(1e5));
}

TEST(Lidar2dNoise, HitsPushedBeyondRangeMaxBecomeMisses) {
  // sigma 3 m around 5 m with range_max 10: about 5% go beyond and must read exactly 10, invalid.
  Simulation sim = make_sim(noise_world(3.0, 0.0));
  int beyond = 0, below_zero = 0;
  for (int k = 0; k < 20; ++k) {
    sim.step();
    const LaserScan& s = lidar(sim).scan();
    for (std::size_t i = 0; i < s.ranges.size(); ++i) {
      if (!s.valid[i]) {
        ++beyond;
        ASSERT_EQ(s.ranges[i], 10.0);
        ASSERT_FALSE(s.hit[i]);
      } else {
        ASSERT_GE(s.ranges[i], 0.0);  // kept inside [range_min, range_max]
        ASSERT_LE(s.ranges[i], 10.0);
        below_zero += s.ranges[i] == 0.0;
      }
    }
  }
  EXPECT_NEAR(beyond / 20000.0, 0.0478, 0.006);  // P(N(0,3) > 5) = 4.78%
  EXPECT_GT(below_zero, 0);                      // P(N(0,3) < -5) clamps to range_min = 0
}

TEST(Lidar2dNoise, AngleNoisePerturbsTheBeamDirection) {
  // A wall at x = 5: range = 5 / cos(a + e); with sigma_a = 0.2, E[1/cos] > 1 noticeably.
  Simulation sim = make_sim(noise_world(0.0, 0.2));
  double mean = 0;
  int n = 0;
  for (int k = 0; k < 20; ++k) {
    sim.step();
    for (std::size_t i = 0; i < 1000; ++i) {
      if (!lidar(sim).scan().valid[i]) continue;
      mean += lidar(sim).scan().ranges[i];
      ++n;
    }
  }
  mean /= n;
  // E[5 / cos(e)] for e ~ N(0, 0.2) is about 5 * (1 + 0.2^2 / 2 + 5 * 0.2^4 / 24) = 5.102.
  EXPECT_NEAR(mean, 5.102, 0.01);
}

TEST(Lidar2dNoise, SameSeedSameNoiseAndSensorsAreIndependent) {
  Simulation a = make_sim(noise_world(0.1, 0.0), 7), b = make_sim(noise_world(0.1, 0.0), 7);
  Simulation c = make_sim(noise_world(0.1, 0.0), 8);
  a.step();
  b.step();
  c.step();
  EXPECT_EQ(lidar(a).scan().ranges, lidar(b).scan().ranges);
  EXPECT_NE(lidar(a).scan().ranges, lidar(c).scan().ranges);
}

}  // namespace
}  // namespace ubot
