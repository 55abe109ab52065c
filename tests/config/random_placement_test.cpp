// IR-SIM's random placement (distribution: {name: random}) and what ubot adds to it: a group
// the range can never hold is refused before any draw, and a full range is told apart from a
// crowded one after 100 objects in a row found no spot (issue 27).
#include "random_placement.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ubot::config {
namespace {

const Eigen::Vector3d kOrigin(0, 0, 0);

TEST(MaxPointsApart, IsOlersBoundWhichTheTightCasesMeet) {
  // A point range holds one point; a 2 m segment three points 1 m apart (0, 1, 2); a unit
  // square its 4 corners (the bound, 2/sqrt(3) + 2 + 1 = 4.15, rounds down to them).
  EXPECT_DOUBLE_EQ(max_points_apart(kOrigin, kOrigin, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(max_points_apart(kOrigin, {2, 0, 0}, 1.0), 3.0);
  EXPECT_EQ(std::floor(max_points_apart(kOrigin, {1, 1, 0}, 1.0)), 4.0);
  // Scaling the range and the distance together changes nothing.
  EXPECT_DOUBLE_EQ(max_points_apart(kOrigin, {30, 20, 0}, 2.0),
                   max_points_apart(kOrigin, {15, 10, 0}, 1.0));
  // A hexagonal packing fits under it: rows 1 apart along x, sqrt(3)/2 apart in y.
  const double rows = std::floor(20 / (std::sqrt(3.0) / 2)) + 1, per_row = 20;  // 21 at most
  EXPECT_GE(max_points_apart(kOrigin, {20, 20, 0}, 1.0), rows * per_row);
}

TEST(RandomPoints, ACrowdedRangeKeepsIrsimsLastDrawAndCountsIt) {
  // 60 in 9 m x 9 m, 1 m apart: most find a spot; those that do not are kept where the 1000th
  // draw fell (IR-SIM's rule) and counted.
  RandomStream rng(7);
  const RandomPoints r = random_points(rng, kOrigin, {9, 9, 0}, 60, 1.0);
  ASSERT_EQ(r.points.size(), 60u);
  EXPECT_FALSE(r.full);
  int close = 0;
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    bool apart = true;
    for (std::size_t j = 0; j < i; ++j) {
      apart &= std::hypot(r.points[i][0] - r.points[j][0], r.points[i][1] - r.points[j][1]) >= 1;
    }
    close += apart ? 0 : 1;
  }
  EXPECT_EQ(r.crowded, close);
}

TEST(RandomPoints, AFullRangeStopsAfterAHundredInARowFindNoSpot) {
  // A point range: the first point takes it, every later one finds no spot.
  RandomStream rng(1);
  const RandomPoints r = random_points(rng, {3, 4, 0}, {3, 4, 0}, 1000, 0.5);
  EXPECT_TRUE(r.full);
  EXPECT_EQ(r.points.size(), 101u);
  EXPECT_EQ(r.crowded, 100);
  // 99 in a row is bad luck, not a full range; nor is a group that ends with its 100th.
  RandomStream again(1);
  const RandomPoints fewer = random_points(again, {3, 4, 0}, {3, 4, 0}, 100, 0.5);
  EXPECT_FALSE(fewer.full);
  EXPECT_EQ(fewer.points.size(), 100u);
  EXPECT_EQ(fewer.crowded, 99);
  RandomStream last(1);
  const RandomPoints ends = random_points(last, {3, 4, 0}, {3, 4, 0}, 101, 0.5);
  EXPECT_FALSE(ends.full);
  EXPECT_EQ(ends.crowded, 100);
}

TEST(RandomPoints, WithoutAMinimumDistanceEveryDrawIsKept) {
  RandomStream rng(3);
  const RandomPoints r = random_points(rng, kOrigin, {1, 1, 0}, 5000, 0.0);
  EXPECT_EQ(r.points.size(), 5000u);
  EXPECT_EQ(r.crowded, 0);
}

}  // namespace
}  // namespace ubot::config
