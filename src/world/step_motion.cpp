#include "ubot/world/step_motion.h"

#include <cmath>
#include <numbers>

namespace ubot {
namespace {

Eigen::Quaterniond yaw_rotation(double yaw) {
  return {std::cos(0.5 * yaw), 0.0, 0.0, std::sin(0.5 * yaw)};
}

}  // namespace

StepMotion::StepMotion(double x0, double y0, double yaw0, double x1, double y1, double yaw1)
    : start_(x0, y0), start_yaw_(yaw_rotation(yaw0)) {
  const double c = std::cos(yaw0), s = std::sin(yaw0);
  start_rotation_ << c, -s, s, c;
  turn_ = std::remainder(yaw1 - yaw0, 2.0 * std::numbers::pi);
  const Eigen::Vector2d d = start_rotation_.transpose() * Eigen::Vector2d(x1 - x0, y1 - y0);
  if (turn_ == 0.0) {
    twist_ = d;
    return;
  }
  // A constant body twist (u, turn) displaces the body by V(turn) u, with
  // V = [[A, -B], [B, A]], A = sin φ / φ, B = (1 − cos φ) / φ; invert it for u.
  const double half = 0.5 * turn_, sh = std::sin(half);
  const double a = std::sin(turn_) / turn_, b = 2.0 * sh * sh / turn_;
  twist_ = Eigen::Vector2d(a * d.x() + b * d.y(), -b * d.x() + a * d.y()) / (a * a + b * b);
}

void StepMotion::at(double s, Eigen::Vector2d& position, Eigen::Quaterniond& yaw) const {
  const double half = 0.5 * s * turn_;
  const double sh = std::sin(half), ch = std::cos(half);
  Eigen::Vector2d d = s * twist_;
  if (turn_ != 0.0) {
    // s V(s φ) u, with sin and 1 − cos of s φ from the half angle (no cancellation).
    const double sin_a = 2.0 * sh * ch, one_minus_cos_a = 2.0 * sh * sh;
    d = Eigen::Vector2d(sin_a * twist_.x() - one_minus_cos_a * twist_.y(),
                        one_minus_cos_a * twist_.x() + sin_a * twist_.y()) /
        turn_;
  }
  position = start_ + start_rotation_ * d;
  yaw = start_yaw_ * Eigen::Quaterniond(ch, 0.0, 0.0, sh);
}

}  // namespace ubot
