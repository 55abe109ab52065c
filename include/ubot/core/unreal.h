#pragma once
// The one place where ROS REP 103 (right-handed, metres) meets Unreal Engine (left-handed,
// x forward, y right, z up, centimetres). The conversion mirrors y, as uBotCore does; every
// formula is its own inverse up to the unit scale, and the *_to_ros functions undo the
// *_to_unreal ones exactly.
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <string>

namespace ubot::unreal {

// Position: (x, -y, z) * 100 cm/m.
Eigen::Vector3d position_to_unreal(const Eigen::Vector3d& p_m);
Eigen::Vector3d position_to_ros(const Eigen::Vector3d& p_cm);
// Linear velocity / acceleration: (x, -y, z), units unchanged (SI on both sides).
Eigen::Vector3d linear_to_unreal(const Eigen::Vector3d& v);
Eigen::Vector3d linear_to_ros(const Eigen::Vector3d& v);
// Angular velocity and torque are pseudo-vectors: a mirror flips them as (-x, y, -z).
Eigen::Vector3d angular_to_unreal(const Eigen::Vector3d& w);
Eigen::Vector3d angular_to_ros(const Eigen::Vector3d& w);
// Orientation: normalise(-qx, qy, -qz, qw).
Eigen::Quaterniond rotation_to_unreal(const Eigen::Quaterniond& q);
Eigen::Quaterniond rotation_to_ros(const Eigen::Quaterniond& q);
// Yaw and scan angles are negated.
inline double angle_to_unreal(double a) { return -a; }
inline double angle_to_ros(double a) { return -a; }

// Rotation from a camera link frame (x forward) to its optical frame (z forward, x right,
// y down), as the quaternion (x, y, z, w) = (-0.5, 0.5, -0.5, 0.5).
Eigen::Quaterniond camera_link_to_optical();
// Frame id of a camera's optical frame: the link frame id with the suffix "_optical".
inline std::string optical_frame_id(const std::string& link_frame_id) {
  return link_frame_id + "_optical";
}

}  // namespace ubot::unreal
