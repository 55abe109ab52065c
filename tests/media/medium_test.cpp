// Ray/sphere entry distances and the per-sensor view of media (SPEC §8).
#include "ubot/media/medium.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "ubot/core/numbers.h"
#include "ubot/core/random.h"

namespace ubot::media {
namespace {

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

TEST(MediaView, CullingWhileBuildingEqualsCullingAfter) {
  MediumSnapshot s;
  RandomStream rng(8);
  for (int i = 0; i < 300; ++i) {
    s.cells.push_back({{rng.uniform(-60, 60), rng.uniform(-60, 60), rng.uniform(-3, 3)},
                       rng.uniform(0.0, 3.0),
                       rng.uniform(0.0, 1.0),
                       rng.uniform(0.0, 1.0)});
  }
  const std::vector<MediumSnapshot> snaps = {s};
  SmokeSettings settings;
  settings.smoke_cell_radius_scale = 1.7;
  const Eigen::Vector3d origin(5, -2, 1);
  const MediaView after = MediaView(snaps, settings).culled(origin, 15.0);
  const MediaView during(snaps, settings, origin, 15.0);
  ASSERT_EQ(after.size(), during.size());
  ASSERT_GT(during.size(), 5u);
  for (std::size_t i = 0; i < during.size(); ++i) {
    EXPECT_EQ(during.cells()[i].center, after.cells()[i].center);
    EXPECT_EQ(during.cells()[i].radius, after.cells()[i].radius);
    // The cell's place in its snapshot is kept (sensors look up its velocity there).
    const MediumCell& source = s.cells[during.cells()[i].index];
    EXPECT_EQ(source.position, during.cells()[i].center);
    EXPECT_EQ(during.cells()[i].snapshot, 0);
  }
}

TEST(MediaView, LegacyTagSnapshotsOnlyForSensorsWithThatTag) {
  MediumSnapshot provided = smoke(0.8, 1.0, 3.0);  // interface path: entry 5
  MediumSnapshot legacy = smoke(0.8, 1.0, 4.0);    // tag path: entry 4
  legacy.legacy_tag = "AgentSensor.SmokeVolume";
  EXPECT_EQ(cut({provided, legacy}), 4.0);  // default tag: both paths
  EXPECT_EQ(cut({legacy}), 4.0);
  SmokeSettings no_tag;
  no_tag.smoke_volume_tag = "";
  EXPECT_EQ(cut({provided, legacy}, no_tag), 5.0);  // "" switches off only the tag path
  EXPECT_EQ(cut({legacy}, no_tag), kInf);
  SmokeSettings other;
  other.smoke_volume_tag = "Other";
  EXPECT_EQ(cut({legacy}, other), kInf);
  legacy.legacy_tag = "Other";
  EXPECT_EQ(cut({legacy}, other), 4.0);
}

// Random fans against random cells: the fan's culled answer must equal the all-cells answer
// exactly, beam by beam, whatever the grid (partial, full circle, one beam), the yaw noise and
// the per-beam limits.
TEST(MediaView, FanEntryDistancesEqualThePerRayAnswer) {
  RandomStream rng(77);
  constexpr double kTwoPi = 2.0 * std::numbers::pi;
  int cut_beams = 0, inside = 0;
  for (int trial = 0; trial < 60; ++trial) {
    MediumSnapshot s;
    const int cells = trial % 3 == 0 ? 500 : 40;
    const double spread = trial % 2 == 0 ? 15.0 : 60.0;
    for (int i = 0; i < cells; ++i) {
      s.cells.push_back(
          {{rng.uniform(-spread, spread), rng.uniform(-spread, spread), rng.uniform(-2.5, 2.5)},
           rng.uniform(0.1, 3.0),
           1.0,
           1.0});
    }
    const std::vector<MediumSnapshot> snaps = {s};
    const Eigen::Vector3d origin(rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(-1, 1));
    const double max_distance = rng.uniform(5.0, 40.0);
    const MediaView view(snaps, {}, origin, max_distance);
    const int n = trial % 7 == 0 ? 1 : 1 + static_cast<int>(rng.uniform(2, 720));
    const bool full = trial % 2 == 1;
    const double range = full ? kTwoPi : rng.uniform(0.1, 6.0);
    const double step = n == 1 ? 0.0 : (full ? kTwoPi / n : range / (n - 1));
    const double first = rng.uniform(-10.0, 10.0);
    const double noise = trial % 4 == 0 ? rng.uniform(0.0, 0.05) : 0.0;
    std::vector<double> yaws(n), limits(n);
    double jitter = 0.0;
    for (int i = 0; i < n; ++i) {
      yaws[i] = first + i * step + (noise > 0 ? rng.gaussian(noise) : 0.0);
      jitter = std::max(jitter, std::abs(yaws[i] - (first + i * step)));
      limits[i] = rng.uniform() < 0.3 ? rng.uniform(0.0, max_distance) : kInf;
    }
    std::vector<double> distance(n);
    std::vector<int> cell(n);
    view.fan_entry_distances({.origin = origin,
                              .yaws = yaws,
                              .first_yaw = first,
                              .step = step,
                              .jitter = jitter,
                              .max_distance = max_distance,
                              .limits = limits},
                             distance, cell);
    for (int i = 0; i < n; ++i) {
      const Eigen::Vector3d d(std::cos(yaws[i]), std::sin(yaws[i]), 0.0);
      const double limit = std::min(limits[i], max_distance);
      const double expected = view.entry_distance(origin, d, limit);
      ASSERT_EQ(distance[i], expected) << trial << " " << i;
      if (expected == kInf) {
        ASSERT_EQ(cell[i], -1);
        continue;
      }
      ++cut_beams;
      inside += expected == 0.0;
      const MediaView::Cell& c = view.cells()[cell[i]];
      ASSERT_EQ(entry_distance(origin, d, c.center, c.radius, limit), expected);
    }
  }
  EXPECT_GT(cut_beams, 2000);
  EXPECT_GT(inside, 0);
}

HorizontalFan fan_of(std::span<const double> yaws, double step = 0.0,
                     const Eigen::Vector3d& origin = Eigen::Vector3d::Zero()) {
  HorizontalFan f;
  f.origin = origin;
  f.yaws = yaws;
  f.first_yaw = yaws[0];
  f.step = step;
  f.max_distance = 20.0;
  return f;
}

TEST(MediaView, FanPlaneMeetsASphereInASmallerDisc) {
  // SPEC §1: a scan plane at height z meets a cell of radius r centred at height c in a disc of
  // radius sqrt(r^2 - (c - z)^2): a cell 8 m ahead, 2 m above the plane, radius 3.
  MediumSnapshot s;
  s.cells.push_back({{8, 0, 2}, 3.0, 0.8, 1.0});
  const std::vector<MediumSnapshot> snaps = {s};
  const MediaView view(snaps, {});
  const std::vector<double> ahead = {0.0};
  std::vector<double> distance(2);
  std::vector<int> cell(2);
  view.fan_entry_distances(fan_of(ahead), distance, cell);
  EXPECT_NEAR(distance[0], 8.0 - std::sqrt(5.0), 1e-12);
  // Beams either side of the disc's edge, at bearing asin(sqrt(5) / 8).
  const double edge = std::asin(std::sqrt(5.0) / 8.0);
  const std::vector<double> fan = {edge - 1e-6, edge + 1e-6};
  view.fan_entry_distances(fan_of(fan, 2e-6), distance, cell);
  EXPECT_LT(distance[0], kInf);
  EXPECT_EQ(cell[0], 0);
  EXPECT_EQ(distance[1], kInf);
  EXPECT_EQ(cell[1], -1);
  // A plane above the sphere misses it; one inside it starts in it.
  view.fan_entry_distances(fan_of(ahead, 0.0, {0, 0, 5.01}), distance, cell);
  EXPECT_EQ(distance[0], kInf);
  view.fan_entry_distances(fan_of(ahead, 0.0, {8, 0, 4.5}), distance, cell);
  EXPECT_EQ(distance[0], 0.0);
}

}  // namespace
}  // namespace ubot::media
