// Ray/sphere entry distances and the per-sensor view of media (SPEC §8).
#include "ubot/media/medium.h"

#include <gtest/gtest.h>

#include <cmath>

#include "ubot/core/random.h"

namespace ubot::media {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(EntryDistance, RandomRaysAgainstRandomSpheresMatchTheClosedForm) {
  // 1e4 cases: a ray aimed near a sphere; the entry point must lie on the sphere and along the
  // ray, at the smaller root of |o + t d - c|^2 = r^2, to 1e-9.
  RandomStream rng(2024);
  int hits = 0;
  for (int i = 0; i < 10000; ++i) {
    const Eigen::Vector3d c(rng.uniform(-50, 50), rng.uniform(-50, 50), rng.uniform(-5, 5));
    const double r = rng.uniform(0.05, 5.0);
    const Eigen::Vector3d o(rng.uniform(-50, 50), rng.uniform(-50, 50), rng.uniform(-5, 5));
    const Eigen::Vector3d aim =
        c +
        Eigen::Vector3d(rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5)) * r;
    const Eigen::Vector3d d = (aim - o).normalized();
    const double t = entry_distance(o, d, c, r);
    // Closed form in long double.
    const long double b = (long double)(o - c).dot(d);
    const long double cc = (long double)(o - c).squaredNorm() - (long double)r * r;
    const long double disc = b * b - cc;
    if (cc <= 0) {
      ASSERT_EQ(t, 0.0);
      continue;
    }
    if (disc < 0 || b >= 0) {
      ASSERT_EQ(t, kInf) << i;
      continue;
    }
    ++hits;
    const long double expected = -b - std::sqrt(disc);
    ASSERT_NEAR(t, (double)expected, 1e-9) << i;
    ASSERT_NEAR(((o + t * d) - c).norm(), r, 1e-9) << i;
  }
  EXPECT_GT(hits, 3000);
}

TEST(EntryDistance, InsideIsZeroBehindAndBeyondAreMisses) {
  const Eigen::Vector3d x = Eigen::Vector3d::UnitX();
  EXPECT_EQ(entry_distance({8, 0, 0}, x, {8, 0, 0}, 3.0), 0.0);
  EXPECT_EQ(entry_distance({0, 0, 0}, -x, {8, 0, 0}, 3.0), kInf);
  EXPECT_EQ(entry_distance({0, 0, 0}, x, {8, 0, 0}, 3.0), 5.0);
  EXPECT_EQ(entry_distance({0, 0, 0}, x, {8, 0, 0}, 3.0, 4.99), kInf);
  EXPECT_EQ(entry_distance({0, 0, 0}, x, {8, 0, 0}, 3.0, 5.0), 5.0);
}

MediumSnapshot smoke(double density, double edge = 1.0, double radius = 3.0) {
  MediumSnapshot s;
  s.cells.push_back({{8, 0, 0}, radius, density, edge});
  return s;
}

double cut(const std::vector<MediumSnapshot>& snaps, const SmokeSettings& settings = {}) {
  return MediaView(snaps, settings).entry_distance({0, 0, 0}, Eigen::Vector3d::UnitX(), 12.0);
}

TEST(MediaView, SpecRules) {
  // The seed's worked example: cell 8 m ahead, radius 3, density 0.8 -> 5 m.
  EXPECT_EQ(cut({smoke(0.8)}), 5.0);
  // Effective density = density x edge_factor, compared with the threshold (0.05 default).
  EXPECT_EQ(cut({smoke(0.04)}), kInf);
  EXPECT_EQ(cut({smoke(0.05)}), 5.0);
  EXPECT_EQ(cut({smoke(0.8, 0.05)}), kInf);  // 0.04 effective
  SmokeSettings high;
  high.smoke_density_threshold = 0.9;
  EXPECT_EQ(cut({smoke(0.8)}, high), kInf);
  // Radius scale 0.5: radius 1.5 -> 6.5 m; scale is clamped at 0.01.
  SmokeSettings half;
  half.smoke_cell_radius_scale = 0.5;
  EXPECT_EQ(cut({smoke(0.8)}, half), 6.5);
  SmokeSettings tiny;
  tiny.smoke_cell_radius_scale = 0.0;
  EXPECT_NEAR(cut({smoke(0.8)}, tiny), 8.0 - 0.03, 1e-12);
  // Radius below 1 cm counts as 1 cm.
  EXPECT_NEAR(cut({smoke(0.8, 1.0, 0.0)}), 8.0 - 0.01, 1e-12);
  // Inactive and empty snapshots are ignored; interference can be switched off.
  MediumSnapshot inactive = smoke(0.8);
  inactive.active = false;
  EXPECT_EQ(cut({inactive}), kInf);
  EXPECT_EQ(cut({MediumSnapshot{}}), kInf);
  SmokeSettings off;
  off.enable_smoke_interference = false;
  EXPECT_EQ(cut({smoke(0.8)}, off), kInf);
  const std::vector<MediumSnapshot> one = {smoke(0.8)};
  EXPECT_TRUE(MediaView(one, off).empty());
}

TEST(MediaView, NearestCellWinsAndCullingKeepsAnswers) {
  MediumSnapshot s;
  RandomStream rng(5);
  for (int i = 0; i < 500; ++i) {
    s.cells.push_back({{rng.uniform(-100, 100), rng.uniform(-100, 100), rng.uniform(-2, 2)},
                       rng.uniform(0.2, 2.0),
                       rng.uniform(0.0, 1.0),
                       1.0});
  }
  const std::vector<MediumSnapshot> snaps = {s};
  const MediaView all(snaps, {});
  const Eigen::Vector3d origin(3, -4, 0.5);
  const MediaView near = all.culled(origin, 20.0);
  EXPECT_LT(near.size(), all.size() / 5);
  for (int i = 0; i < 2000; ++i) {
    const double yaw = rng.uniform(-3.14159, 3.14159);
    const Eigen::Vector3d d(std::cos(yaw), std::sin(yaw), 0.0);
    ASSERT_EQ(near.entry_distance(origin, d, 20.0), all.entry_distance(origin, d, 20.0)) << i;
  }
}

}  // namespace
}  // namespace ubot::media
