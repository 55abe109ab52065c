#include "ubot/core/pose3d.h"

#include <cmath>

#include "ubot/core/state_io.h"

namespace ubot {

Eigen::Quaterniond rotation_from_rpy(double roll, double pitch, double yaw) {
  // The product q_z(yaw) q_y(pitch) q_x(roll) written out in half angles (it runs for every
  // object pose an IMU reads, so no temporary quaternions; level bodies need one sincos).
  if (roll == 0.0 && pitch == 0.0) {
    return Eigen::Quaterniond(std::cos(0.5 * yaw), 0.0, 0.0, std::sin(0.5 * yaw));
  }
  const double cr = std::cos(0.5 * roll), sr = std::sin(0.5 * roll);
  const double cp = std::cos(0.5 * pitch), sp = std::sin(0.5 * pitch);
  const double cy = std::cos(0.5 * yaw), sy = std::sin(0.5 * yaw);
  return Eigen::Quaterniond(cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy,
                            cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy);
}

double planar_yaw(const Eigen::Quaterniond& q) {
  // First column of the rotation matrix, without building the whole matrix.
  const double w = q.w(), x = q.x(), y = q.y(), z = q.z();
  const double r00 = 1.0 - 2.0 * (y * y + z * z);
  const double r10 = 2.0 * (x * y + w * z);
  return std::atan2(r10, r00);
}

Eigen::Vector3d rotation_vector(const Eigen::Quaterniond& q) {
  const double n = q.vec().norm();
  if (n == 0.0) return Eigen::Vector3d::Zero();
  // q and -q are the same rotation: take the representative with w >= 0 so the angle is at
  // most pi.
  const double angle = 2.0 * std::atan2(n, std::abs(q.w()));
  return (q.w() < 0.0 ? -angle : angle) / n * q.vec();
}

Eigen::Quaterniond quaternion_from_rotation_vector(const Eigen::Vector3d& phi) {
  const double angle = phi.norm();
  const double half = 0.5 * angle;
  // sin(angle/2)/angle, by its series near 0 (relative error < 1e-17 for angle < 1e-4).
  const double k = angle < 1e-4 ? 0.5 - angle * angle / 48.0 : std::sin(half) / angle;
  return Eigen::Quaterniond(std::cos(half), k * phi.x(), k * phi.y(), k * phi.z());
}

double rotation_angle(const Eigen::Quaterniond& q) {
  return 2.0 * std::atan2(q.vec().norm(), std::abs(q.w()));
}

Pose3d compose(const Pose3d& parent, const Pose3d& child) {
  return {parent.position + parent.orientation * child.position,
          parent.orientation * child.orientation};
}

void io(StateIo& s, Pose3d& p) {
  s.value(p.position);
  s.value(p.orientation);
}

}  // namespace ubot
