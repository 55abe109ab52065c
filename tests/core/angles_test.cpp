#include "ubot/core/angles.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace ubot {
namespace {

TEST(WrapToPi, MapsIntoHalfOpenRange) {
  EXPECT_NEAR(wrap_to_pi(0.5), 0.5, 1e-15);
  EXPECT_NEAR(wrap_to_pi(-0.5), -0.5, 1e-15);
  EXPECT_DOUBLE_EQ(wrap_to_pi(kPi), -kPi);  // [-pi, pi): pi maps to -pi, as in IR-SIM
  EXPECT_DOUBLE_EQ(wrap_to_pi(-kPi), -kPi);
  EXPECT_DOUBLE_EQ(wrap_to_pi(std::numeric_limits<double>::infinity()), 0.0);
}

TEST(WrapToPi, RemovesWholeTurns) {
  EXPECT_NEAR(wrap_to_pi(kPi + 0.25), -kPi + 0.25, 1e-15);
  EXPECT_NEAR(wrap_to_pi(-kPi - 0.25), kPi - 0.25, 1e-15);
  EXPECT_NEAR(wrap_to_pi(7.0 * 2.0 * kPi + 1.0), 1.0, 1e-13);
  EXPECT_NEAR(wrap_to_pi(-5.0 * 2.0 * kPi - 1.0), -1.0, 1e-13);
}

TEST(WrapToPi, MatchesPythonFloatModuloBitForBit) {
  // Python: (0.1 + pi) % (2*pi) - pi == 0.10000000000000009
  EXPECT_EQ(wrap_to_pi(0.1), 0.10000000000000009);
  // Python: (-3.0 + pi) % (2*pi) - pi == -3.0
  EXPECT_EQ(wrap_to_pi(-3.0), -3.0);
}

TEST(WrapToTwoPi, MapsIntoZeroTwoPi) {
  EXPECT_DOUBLE_EQ(wrap_to_two_pi(2.0 * kPi), 0.0);
  EXPECT_NEAR(wrap_to_two_pi(-0.5), 2.0 * kPi - 0.5, 1e-15);
  EXPECT_NEAR(wrap_to_two_pi(6.3), 6.3 - 2.0 * kPi, 1e-15);
}

}  // namespace
}  // namespace ubot
