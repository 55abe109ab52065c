#include "ubot/core/angles.h"

#include <cmath>

namespace ubot {

double wrap_to_pi(double angle) {
  // IR-SIM's WrapToPi is Python's `(a + pi) % (2 pi) - pi`; Python's float modulo is fmod with
  // the result moved to the divisor's sign. Reproduced operation by operation so headings agree
  // with IR-SIM bit for bit (note it is not the identity inside the range, by an ulp of pi).
  if (!std::isfinite(angle)) return 0.0;
  constexpr double kTwoPi = 2.0 * kPi;
  double m = std::fmod(angle + kPi, kTwoPi);
  if (m != 0.0) {
    if (m < 0.0) m += kTwoPi;
  } else {
    m = 0.0;
  }
  return m - kPi;
}

double wrap_to_two_pi(double angle) {
  if (!std::isfinite(angle)) return 0.0;
  constexpr double kTwoPi = 2.0 * kPi;
  double m = std::fmod(angle, kTwoPi);
  if (m != 0.0 && m < 0.0) m += kTwoPi;
  return m == 0.0 ? 0.0 : m;
}

std::vector<double> scan_angles(double range, int n) {
  std::vector<double> angles(static_cast<std::size_t>(n));
  if (n == 1) {
    angles[0] = 0.0;
  } else if (is_full_circle(range)) {
    // A full circle: n distinct beams (IR-SIM's linspace would repeat the first one).
    for (int i = 0; i < n; ++i) angles[i] = -kPi + i * (2.0 * kPi / n);
  } else {
    // numpy.linspace(-R/2, R/2, n): i * step + start, the last one exactly R/2.
    const double start = -range / 2.0, stop = range / 2.0;
    const double step = (stop - start) / (n - 1);
    for (int i = 0; i < n; ++i) angles[i] = i * step + start;
    angles[n - 1] = stop;
  }
  return angles;
}

}  // namespace ubot
