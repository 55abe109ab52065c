#pragma once
// IR-SIM's motion models (irsim/lib/algorithm/kinematics.py): one explicit Euler step.
#include <vector>

#include <Eigen/Core>

#include "ubot/config/world_model.h"
#include "ubot/core/random.h"

namespace ubot::detail {

// Advances `state` by one step of `dt` under velocity `u` (diff [v, w], omni and omni_angular
// body [forward, lateral], acker [v, steer] or [v, steer rate]) and, for omni_angular, its
// `yaw_rate`; headings wrapped as IR-SIM wraps them.
void integrate(const KinematicsModel& kinematics, std::vector<double>& state,
               const Eigen::Vector2d& u, double dt, double yaw_rate = 0.0);

// World-frame translational velocity of an object with `state` moving at `u`.
Eigen::Vector2d velocity_xy(KinematicsKind kind, const std::vector<double>& state,
                            const Eigen::Vector2d& u);

// IR-SIM's velocity-dependent motion noise: the velocity actually applied to the state.
Eigen::Vector2d apply_motion_noise(const KinematicsModel& kinematics, const Eigen::Vector2d& u,
                                   RandomStream& rng);
// omni_angular's noise on its yaw rate (sigma sqrt(alpha[2]), as IR-SIM adds it).
double yaw_rate_noise(const KinematicsModel& kinematics, double yaw_rate, RandomStream& rng);

}  // namespace ubot::detail
