#include "ubot/core/angles.h"

#include <gtest/gtest.h>

namespace ubot {
namespace {

TEST(WrapToPi, KeepsAnglesInsideTheRange) {
  EXPECT_DOUBLE_EQ(wrap_to_pi(0.5), 0.5);
  EXPECT_DOUBLE_EQ(wrap_to_pi(-0.5), -0.5);
  EXPECT_DOUBLE_EQ(wrap_to_pi(kPi), kPi);
  EXPECT_DOUBLE_EQ(wrap_to_pi(-kPi), -kPi);
}

TEST(WrapToPi, RemovesWholeTurns) {
  EXPECT_NEAR(wrap_to_pi(kPi + 0.25), -kPi + 0.25, 1e-15);
  EXPECT_NEAR(wrap_to_pi(-kPi - 0.25), kPi - 0.25, 1e-15);
  EXPECT_NEAR(wrap_to_pi(7.0 * 2.0 * kPi + 1.0), 1.0, 1e-13);
  EXPECT_NEAR(wrap_to_pi(-5.0 * 2.0 * kPi - 1.0), -1.0, 1e-13);
}

}  // namespace
}  // namespace ubot
