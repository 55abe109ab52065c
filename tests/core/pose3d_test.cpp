// REP 103 roll-pitch-yaw and the SO(3) log/exp maps the IMU differentiates with.
#include "ubot/core/pose3d.h"
#include "ubot/core/angles.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace ubot {
namespace {

void expect_near(const Eigen::Vector3d& a, const Eigen::Vector3d& b, double tol) {
  EXPECT_LT((a - b).norm(), tol) << a.transpose() << " vs " << b.transpose();
}

TEST(Pose3d, RollPitchYawFollowRep103) {
  // Yaw turns x towards y (counter-clockwise seen from above).
  expect_near(rotation_from_rpy(0, 0, kPi / 2) * Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitY(),
              1e-15);
  // Positive pitch turns the nose (x) down, towards -z.
  expect_near(rotation_from_rpy(0, kPi / 2, 0) * Eigen::Vector3d::UnitX(),
              -Eigen::Vector3d::UnitZ(), 1e-15);
  // Positive roll turns y towards z.
  expect_near(rotation_from_rpy(kPi / 2, 0, 0) * Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ(),
              1e-15);
  // Fixed axes x, then y, then z: R = Rz(yaw) Ry(pitch) Rx(roll).
  const double r = 0.3, p = -0.7, y = 2.1;
  const Eigen::Matrix3d expected = (Eigen::AngleAxisd(y, Eigen::Vector3d::UnitZ()) *
                                    Eigen::AngleAxisd(p, Eigen::Vector3d::UnitY()) *
                                    Eigen::AngleAxisd(r, Eigen::Vector3d::UnitX()))
                                       .toRotationMatrix();
  EXPECT_LT((rotation_from_rpy(r, p, y).toRotationMatrix() - expected).norm(), 1e-15);
  // Gravity seen from a tilted body: (−sin p, sin r cos p, cos r cos p) g.
  const Eigen::Vector3d up_in_body =
      rotation_from_rpy(r, p, y).conjugate() * Eigen::Vector3d::UnitZ();
  expect_near(up_in_body,
              Eigen::Vector3d(-std::sin(p), std::sin(r) * std::cos(p), std::cos(r) * std::cos(p)),
              1e-15);
}

TEST(Pose3d, PlanarYawIsTheHeadingOfTheXAxis) {
  for (double yaw : {-3.0, -1.0, 0.0, 0.5, 3.1}) {
    EXPECT_NEAR(planar_yaw(rotation_from_rpy(0.2, -0.4, yaw)), yaw, 1e-14);
  }
}

TEST(Pose3d, LogAndExpAreInverse) {
  for (const Eigen::Vector3d& phi :
       {Eigen::Vector3d(0.1, -0.2, 0.3), Eigen::Vector3d(1e-9, 2e-9, -3e-9),
        Eigen::Vector3d(0, 0, 3.1), Eigen::Vector3d(-2.0, 1.0, 0.5)}) {
    const Eigen::Quaterniond q = quaternion_from_rotation_vector(phi);
    EXPECT_NEAR(q.norm(), 1.0, 1e-15);
    // Relative accuracy also for tiny rotations (no acos near 1).
    EXPECT_LT((rotation_vector(q) - phi).norm(), 1e-15 * std::max(1.0, phi.norm()))
        << phi.transpose();
    EXPECT_NEAR(rotation_angle(q), phi.norm(), 1e-15 * std::max(1.0, phi.norm()));
    // The same rotation written with -q gives the same vector.
    EXPECT_LT((rotation_vector(Eigen::Quaterniond(-q.coeffs())) - phi).norm(), 1e-14);
  }
  EXPECT_EQ(rotation_vector(Eigen::Quaterniond::Identity()), Eigen::Vector3d::Zero());
  // Matches Eigen's angle-axis.
  const Eigen::AngleAxisd aa(1.2, Eigen::Vector3d(1, 2, 3).normalized());
  expect_near(rotation_vector(Eigen::Quaterniond(aa)), aa.angle() * aa.axis(), 1e-15);
}

TEST(Pose3d, ComposeMountsAFrameOnABody) {
  const Pose3d body{{1, 2, 3}, rotation_from_rpy(0, 0, kPi / 2)};
  const Pose3d mount{{0.5, 0, 0.1}, rotation_from_rpy(0, 0, kPi / 2)};
  const Pose3d sensor = compose(body, mount);
  expect_near(sensor.position, Eigen::Vector3d(1, 2.5, 3.1), 1e-15);
  EXPECT_NEAR(planar_yaw(sensor.orientation), kPi, 1e-15);
}

}  // namespace
}  // namespace ubot
