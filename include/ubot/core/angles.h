#pragma once
// Angle helpers shared by kinematics, behaviours and sensors.
#include <numbers>

namespace ubot {

inline constexpr double kPi = std::numbers::pi;

// Wraps an angle to [-pi, pi) exactly as IR-SIM's WrapToPi does (Python `(a + pi) % 2pi - pi`).
// Non-finite input gives 0.
double wrap_to_pi(double angle);
// Wraps an angle to [0, 2pi) (IR-SIM's WrapTo2Pi). Non-finite input gives 0.
double wrap_to_two_pi(double angle);

}  // namespace ubot
