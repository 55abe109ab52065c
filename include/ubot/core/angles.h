#pragma once
// Angle helpers shared by kinematics, behaviours and sensors.
#include <numbers>
#include <vector>

namespace ubot {

inline constexpr double kPi = std::numbers::pi;

// Wraps an angle to [-pi, pi) exactly as IR-SIM's WrapToPi does (Python `(a + pi) % 2pi - pi`).
// Non-finite input gives 0.
double wrap_to_pi(double angle);
// Wraps an angle to [0, 2pi) (IR-SIM's WrapTo2Pi). Non-finite input gives 0.
double wrap_to_two_pi(double angle);

// The directions of a scanning sensor's n beams over `range` radians centred on its x axis (SPEC
// §2): numpy.linspace(-range/2, range/2, n) for range < 2π; a full circle (range >= 2π - 1e-6)
// gives n distinct beams 2π/n apart from -π; a single beam points forward.
std::vector<double> scan_angles(double range, int n);
inline bool is_full_circle(double range) { return range >= 2.0 * kPi - 1e-6; }

}  // namespace ubot
