// The lidar tolerance rule against closed forms, and against a 64-gon built as shapely's buffer.
#include "beam_match.h"
#include "ubot/core/angles.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <optional>

namespace ubot::irsim_parity {
namespace {

const Circle kUnit{Eigen::Vector2d(5.0, 0.0), 1.0};
const Eigen::Vector2d kOrigin(0.0, 0.0);
const Eigen::Vector2d kAlongX(1.0, 0.0);

TEST(BeamMatch, EqualRangesAreExactWhateverWasHit) {
  EXPECT_EQ(match_beam(kOrigin, kAlongX, 4.0, 4.0 + 5e-10, nullptr), BeamMatch::kExact);
  EXPECT_EQ(match_beam(kOrigin, kAlongX, 4.0, 4.0 + 2e-9, nullptr), BeamMatch::kMismatch);
}

TEST(BeamMatch, ACircleHitMayEndFartherInsideThePolygonRing) {
  // The ring is 1 − cos(π/64) = 0.0012045 deep here.
  EXPECT_EQ(match_beam(kOrigin, kAlongX, 4.0, 4.0012, &kUnit), BeamMatch::kCircleRing);
  EXPECT_EQ(match_beam(kOrigin, kAlongX, 4.0, 4.0013, &kUnit), BeamMatch::kMismatch);
  EXPECT_EQ(match_beam(kOrigin, kAlongX, 4.0, 3.999, &kUnit), BeamMatch::kMismatch);  // nearer
  // ubot must really have ended on that circle.
  EXPECT_EQ(match_beam(kOrigin, kAlongX, 3.9, 3.9005, &kUnit), BeamMatch::kMismatch);
}

TEST(BeamMatch, OnlyABeamMissingTheInnerDiscMaySlipPast) {
  const auto grazing_at = [](double y) {
    const Eigen::Vector2d origin(0.0, y);
    const double hit = 5.0 - std::sqrt(1.0 - y * y);
    return match_beam(origin, kAlongX, hit, 10.0, &kUnit);
  };
  EXPECT_EQ(grazing_at(0.9995), BeamMatch::kGrazing);  // inner radius cos(π/64) = 0.998795
  EXPECT_EQ(grazing_at(0.998), BeamMatch::kMismatch);
  EXPECT_EQ(grazing_at(0.5), BeamMatch::kMismatch);
}

// Nearest hit of the ray on the regular 64-gon with vertices c + r (cos kπ/32, sin kπ/32), the
// polygon shapely's Point(c).buffer(r) makes.
std::optional<double> polygon_hit(const Eigen::Vector2d& o, const Eigen::Vector2d& d,
                                  const Circle& c) {
  std::optional<double> best;
  for (int k = 0; k < 64; ++k) {
    const Eigen::Vector2d a =
        c.center + c.radius * Eigen::Vector2d(std::cos(k * kPi / 32), std::sin(k * kPi / 32));
    const Eigen::Vector2d b = c.center + c.radius * Eigen::Vector2d(std::cos((k + 1) * kPi / 32),
                                                                    std::sin((k + 1) * kPi / 32));
    const Eigen::Vector2d e = b - a, w = a - o;
    const double den = d.x() * e.y() - d.y() * e.x();
    if (den == 0.0) continue;
    const double t = (w.x() * e.y() - w.y() * e.x()) / den;
    const double u = (w.x() * d.y() - w.y() * d.x()) / den;
    if (t > 0.0 && u >= 0.0 && u <= 1.0 && (!best || t < *best)) best = t;
  }
  return best;
}

TEST(BeamMatch, EveryBeamOnABufferedCirclePassesAndSomeNeedTheRing) {
  const Circle c{Eigen::Vector2d(3.0, 1.0), 0.6};
  int ring = 0, grazing = 0;
  for (int i = 0; i <= 4000; ++i) {
    const double yaw = -0.25 + 0.5 * i / 4000.0;
    const Eigen::Vector2d d(std::cos(yaw), std::sin(yaw));
    const Eigen::Vector2d to_c = c.center - kOrigin;
    const double along = to_c.dot(d), h2 = to_c.squaredNorm() - along * along;
    if (h2 > c.radius * c.radius) continue;  // misses the exact circle too
    const double exact = along - std::sqrt(c.radius * c.radius - h2);
    const double irsim = polygon_hit(kOrigin, d, c).value_or(10.0);
    const BeamMatch m = match_beam(kOrigin, d, exact, irsim, &c);
    ASSERT_NE(m, BeamMatch::kMismatch) << "yaw " << yaw << ": " << exact << " vs " << irsim;
    ring += m == BeamMatch::kCircleRing;
    grazing += m == BeamMatch::kGrazing;
  }
  EXPECT_GT(ring, 100);
  EXPECT_GT(grazing, 0);
}

}  // namespace
}  // namespace ubot::irsim_parity
