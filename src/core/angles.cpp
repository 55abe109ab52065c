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

}  // namespace ubot
