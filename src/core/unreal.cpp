#include "ubot/core/unreal.h"

namespace ubot::unreal {
namespace {
constexpr double kCentimetresPerMetre = 100.0;

Eigen::Vector3d mirror_y(const Eigen::Vector3d& v) { return {v.x(), -v.y(), v.z()}; }
Eigen::Vector3d mirror_pseudo(const Eigen::Vector3d& w) { return {-w.x(), w.y(), -w.z()}; }
Eigen::Quaterniond mirror_rotation(const Eigen::Quaterniond& q) {
  return Eigen::Quaterniond(q.w(), -q.x(), q.y(), -q.z()).normalized();
}
}  // namespace

Eigen::Vector3d position_to_unreal(const Eigen::Vector3d& p_m) {
  return mirror_y(p_m) * kCentimetresPerMetre;
}
Eigen::Vector3d position_to_ros(const Eigen::Vector3d& p_cm) {
  return mirror_y(p_cm) / kCentimetresPerMetre;
}
Eigen::Vector3d linear_to_unreal(const Eigen::Vector3d& v) { return mirror_y(v); }
Eigen::Vector3d linear_to_ros(const Eigen::Vector3d& v) { return mirror_y(v); }
Eigen::Vector3d angular_to_unreal(const Eigen::Vector3d& w) { return mirror_pseudo(w); }
Eigen::Vector3d angular_to_ros(const Eigen::Vector3d& w) { return mirror_pseudo(w); }
Eigen::Quaterniond rotation_to_unreal(const Eigen::Quaterniond& q) { return mirror_rotation(q); }
Eigen::Quaterniond rotation_to_ros(const Eigen::Quaterniond& q) { return mirror_rotation(q); }

Eigen::Quaterniond camera_link_to_optical() {
  return Eigen::Quaterniond(0.5, -0.5, 0.5, -0.5);  // (w, x, y, z)
}

}  // namespace ubot::unreal
