#pragma once
// 3D poses and the few SO(3) operations the world and the IMU need, in REP 103 conventions:
// roll, pitch, yaw are rotations about the fixed x, y, z axes applied in that order, i.e.
// R = Rz(yaw) * Ry(pitch) * Rx(roll) (ROS tf's setRPY).
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace ubot {

class StateIo;

// Pose of a frame in the world: where its origin is and how it is turned.
struct Pose3d {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();
};
void io(StateIo& s, Pose3d& p);  // state files (core/state_io.h)

Eigen::Quaterniond rotation_from_rpy(double roll, double pitch, double yaw);
inline Eigen::Quaterniond rotation_from_rpy(const Eigen::Vector3d& rpy) {
  return rotation_from_rpy(rpy.x(), rpy.y(), rpy.z());
}

// Heading of the frame's x axis projected on the horizontal plane, atan2(R10, R00), in
// [-pi, pi]. Equals the yaw of rotation_from_rpy for |pitch| < pi/2.
double planar_yaw(const Eigen::Quaterniond& q);

// The rotation vector (axis * angle, angle in [0, pi]) of a unit quaternion: SO(3)'s log map.
// Accurate for small angles (atan2 form, no acos).
Eigen::Vector3d rotation_vector(const Eigen::Quaterniond& q);
// Inverse of rotation_vector: the unit quaternion of a rotation vector (SO(3)'s exp map).
Eigen::Quaterniond quaternion_from_rotation_vector(const Eigen::Vector3d& phi);
// Angle in [0, pi] of the rotation a unit quaternion describes.
double rotation_angle(const Eigen::Quaterniond& q);

// Pose `child` given in `parent`'s frame, expressed in the world: X_WC = X_WP * X_PC.
Pose3d compose(const Pose3d& parent, const Pose3d& child);

}  // namespace ubot
