#include "ubot/core/unreal.h"

#include <gtest/gtest.h>

namespace ubot::unreal {
namespace {

TEST(Unreal, PositionMirrorsYAndScalesToCentimetres) {
  const Eigen::Vector3d p_cm = position_to_unreal({1.0, 2.0, 3.0});
  EXPECT_TRUE(p_cm.isApprox(Eigen::Vector3d(100.0, -200.0, 300.0)));
  EXPECT_TRUE(position_to_ros(p_cm).isApprox(Eigen::Vector3d(1.0, 2.0, 3.0)));
}

TEST(Unreal, LinearAndAngularVectors) {
  EXPECT_TRUE(linear_to_unreal({1, 2, 3}).isApprox(Eigen::Vector3d(1, -2, 3)));
  EXPECT_TRUE(linear_to_ros(linear_to_unreal({1, 2, 3})).isApprox(Eigen::Vector3d(1, 2, 3)));
  EXPECT_TRUE(angular_to_unreal({1, 2, 3}).isApprox(Eigen::Vector3d(-1, 2, -3)));
  EXPECT_TRUE(angular_to_ros(angular_to_unreal({1, 2, 3})).isApprox(Eigen::Vector3d(1, 2, 3)));
}

TEST(Unreal, YawIsNegatedAndQuaternionFollows) {
  const double yaw = 0.7;
  const Eigen::Quaterniond q_ros(Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()));
  const Eigen::Quaterniond q_ue = rotation_to_unreal(q_ros);
  const Eigen::Quaterniond expected(
      Eigen::AngleAxisd(angle_to_unreal(yaw), Eigen::Vector3d::UnitZ()));
  EXPECT_TRUE(q_ue.isApprox(expected) || q_ue.coeffs().isApprox(-expected.coeffs()));
  EXPECT_TRUE(rotation_to_ros(q_ue).isApprox(q_ros));
}

TEST(Unreal, MirroredRotationActsOnMirroredVectors) {
  // For any rotation R and vector v: M(R v) == M(R) M(v), with M the y mirror.
  const Eigen::Quaterniond q =
      Eigen::Quaterniond(Eigen::AngleAxisd(0.4, Eigen::Vector3d(1, 2, 3).normalized()));
  const Eigen::Vector3d v(0.3, -1.2, 2.5);
  const Eigen::Vector3d lhs = linear_to_unreal(q * v);
  const Eigen::Vector3d rhs = rotation_to_unreal(q) * linear_to_unreal(v);
  EXPECT_TRUE(lhs.isApprox(rhs, 1e-12));
}

TEST(Unreal, CameraOpticalFrame) {
  const Eigen::Quaterniond q = camera_link_to_optical();
  EXPECT_DOUBLE_EQ(q.x(), -0.5);
  EXPECT_DOUBLE_EQ(q.y(), 0.5);
  EXPECT_DOUBLE_EQ(q.z(), -0.5);
  EXPECT_DOUBLE_EQ(q.w(), 0.5);
  // The optical z axis (viewing direction) is the link's x axis.
  EXPECT_TRUE((q * Eigen::Vector3d::UnitZ()).isApprox(Eigen::Vector3d::UnitX()));
  EXPECT_TRUE((q * Eigen::Vector3d::UnitX()).isApprox(-Eigen::Vector3d::UnitY()));
  EXPECT_EQ(optical_frame_id("robot_0/camera"), "robot_0/camera_optical");
}

}  // namespace
}  // namespace ubot::unreal
