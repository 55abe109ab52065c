#pragma once
// Angle helpers shared by kinematics, behaviours and sensors.
#include <numbers>

namespace ubot {

inline constexpr double kPi = std::numbers::pi;

// Wraps an angle to [-pi, pi] the way IR-SIM's WrapToPi does: by whole turns, keeping pi and
// -pi as they are.
double wrap_to_pi(double angle);

}  // namespace ubot
