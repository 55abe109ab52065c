#include "kinematics.h"

#include <cmath>

#include "ubot/core/angles.h"

namespace ubot::detail {

void integrate(const KinematicsModel& k, std::vector<double>& s, const Eigen::Vector2d& u,
               double dt, double yaw_rate) {
  const double theta = s[2];
  switch (k.kind) {
    case KinematicsKind::kNone:
      return;
    case KinematicsKind::kDiff:
      // state + (C u) dt with C = [[cos, 0], [sin, 0], [0, 1]]
      s[0] = s[0] + (std::cos(theta) * u[0]) * dt;
      s[1] = s[1] + (std::sin(theta) * u[0]) * dt;
      s[2] = wrap_to_pi(s[2] + u[1] * dt);
      return;
    case KinematicsKind::kOmni: {
      // Body-frame [forward, lateral] rotated into the world; the heading does not change.
      const double c = std::cos(theta), sn = std::sin(theta);
      s[0] = s[0] + (u[0] * c - u[1] * sn) * dt;
      s[1] = s[1] + (u[0] * sn + u[1] * c) * dt;
      return;
    }
    case KinematicsKind::kOmniAngular: {
      // As omni, and the heading turns at the yaw rate.
      const double c = std::cos(theta), sn = std::sin(theta);
      s[0] = s[0] + (u[0] * c - u[1] * sn) * dt;
      s[1] = s[1] + (u[0] * sn + u[1] * c) * dt;
      s[2] = wrap_to_pi(s[2] + yaw_rate * dt);
      return;
    }
    case KinematicsKind::kAcker: {
      // The heading turns with the steer angle of the previous step.
      const double steer = s[3];
      s[0] = s[0] + (u[0] * std::cos(theta)) * dt;
      s[1] = s[1] + (u[0] * std::sin(theta)) * dt;
      s[2] = wrap_to_pi(s[2] + (u[0] * std::tan(steer) / k.wheelbase) * dt);
      s[3] = k.acker_steer_mode ? u[1] : s[3] + u[1] * dt;
      return;
    }
  }
}

Eigen::Vector2d velocity_xy(KinematicsKind kind, const std::vector<double>& s,
                            const Eigen::Vector2d& u) {
  const double theta = s[2];
  switch (kind) {
    case KinematicsKind::kNone:
      return Eigen::Vector2d::Zero();
    case KinematicsKind::kDiff:
    case KinematicsKind::kAcker:
      return {u[0] * std::cos(theta), u[0] * std::sin(theta)};
    case KinematicsKind::kOmni:
    case KinematicsKind::kOmniAngular: {
      const double c = std::cos(theta), sn = std::sin(theta);
      return {c * u[0] - sn * u[1], sn * u[0] + c * u[1]};
    }
  }
  return Eigen::Vector2d::Zero();
}

Eigen::Vector2d apply_motion_noise(const KinematicsModel& k, const Eigen::Vector2d& u,
                                   RandomStream& rng) {
  const std::vector<double>& a = k.alpha;
  if (k.kind == KinematicsKind::kOmni || k.kind == KinematicsKind::kOmniAngular) {
    return {u[0] + rng.gaussian(std::sqrt(a[0])), u[1] + rng.gaussian(std::sqrt(a[1]))};
  }
  const double v2 = u[0] * u[0], w2 = u[1] * u[1];
  const double sigma_v = std::sqrt(a[0] * v2 + a[1] * w2);
  const double sigma_w = std::sqrt(a[2] * v2 + a[3] * w2);
  const double dv = rng.gaussian(sigma_v);
  const double dw = rng.gaussian(sigma_w);
  return {u[0] + dv, u[1] + dw};
}

double yaw_rate_noise(const KinematicsModel& k, double yaw_rate, RandomStream& rng) {
  return yaw_rate + rng.gaussian(std::sqrt(k.alpha[2]));
}

}  // namespace ubot::detail
