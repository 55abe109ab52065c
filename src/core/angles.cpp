#include "ubot/core/angles.h"

namespace ubot {

double wrap_to_pi(double angle) {
  // Whole-turn subtraction (not fmod) so results match IR-SIM's WrapToPi bit for bit.
  while (angle > kPi) angle -= 2.0 * kPi;
  while (angle < -kPi) angle += 2.0 * kPi;
  return angle;
}

}  // namespace ubot
