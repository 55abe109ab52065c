#include "ubot/world/trajectory.h"

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <limits>

namespace ubot {
namespace {

const Eigen::Vector3d kGravityVector(0.0, 0.0, -kGravity);

// q_i exp(-(log(q_i^-1 q_next) + log(q_i^-1 q_prev)) / 4): Shoemake's squad control point.
Eigen::Quaterniond squad_control(const Eigen::Quaterniond& prev, const Eigen::Quaterniond& q,
                                 const Eigen::Quaterniond& next) {
  const Eigen::Quaterniond inv = q.conjugate();
  const Eigen::Vector3d tangent = rotation_vector(inv * next) + rotation_vector(inv * prev);
  return q * quaternion_from_rotation_vector(-0.25 * tangent);
}

}  // namespace

Trajectory::Trajectory(const TrajectoryModel& model) : model_(model) {
  if (model_.ballistic) {
    ballistic_rotation_ = rotation_from_rpy(model_.ballistic->rpy);
    return;
  }
  for (const WaypointModel& w : model_.waypoints) {
    times_.push_back(w.t);
    positions_.push_back(w.position);
    Eigen::Quaterniond q = rotation_from_rpy(w.rpy);
    // Neighbouring quaternions in the same hemisphere, so each slerp takes the shorter way.
    if (!rotations_.empty() && q.dot(rotations_.back()) < 0.0) q.coeffs() = -q.coeffs();
    rotations_.push_back(q);
  }
  fit_spline();
  fit_squad();
}

void Trajectory::fit_spline() {
  const int n = static_cast<int>(times_.size()) - 1;  // segments
  moments_.assign(n + 1, Eigen::Vector3d::Zero());
  if (model_.interpolation == Interpolation::kLinear) return;  // zero moments: straight lines
  std::vector<double> h(n);
  std::vector<Eigen::Vector3d> slope(n);
  for (int i = 0; i < n; ++i) {
    h[i] = times_[i + 1] - times_[i];
    slope[i] = (positions_[i + 1] - positions_[i]) / h[i];
  }
  // Continuity of the first derivative at every inner waypoint, in the second derivatives M_i:
  //   h_{i-1} M_{i-1} + 2 (h_{i-1} + h_i) M_i + h_i M_{i+1} = 6 (slope_i - slope_{i-1}),
  // closed by zero end velocities, or by wrapping around for a periodic (looping) spline.
  const bool periodic = model_.loop;
  const int size = periodic ? n : n + 1;
  std::vector<Eigen::Triplet<double>> a;
  Eigen::MatrixXd rhs(size, 3);
  for (int i = 0; i < size; ++i) {
    if (periodic || (i > 0 && i < n)) {
      const int before = (i - 1 + n) % n;  // segment ending at waypoint i
      const int after = i % n;             // segment starting at it
      a.emplace_back(i, before, h[before]);
      a.emplace_back(i, i, 2.0 * (h[before] + h[after]));
      a.emplace_back(i, (i + 1) % (periodic ? n : n + 1), h[after]);
      rhs.row(i) = 6.0 * (slope[after] - slope[before]).transpose();
    } else if (i == 0) {  // S'(t_0) = 0
      a.emplace_back(0, 0, 2.0 * h[0]);
      a.emplace_back(0, 1, h[0]);
      rhs.row(0) = 6.0 * slope[0].transpose();
    } else {  // S'(t_n) = 0
      a.emplace_back(n, n - 1, h[n - 1]);
      a.emplace_back(n, n, 2.0 * h[n - 1]);
      rhs.row(n) = -6.0 * slope[n - 1].transpose();
    }
  }
  Eigen::SparseMatrix<double> matrix(size, size);
  matrix.setFromTriplets(a.begin(), a.end());  // sums duplicates (a 2-segment loop)
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
  lu.compute(matrix);
  const Eigen::MatrixXd m = lu.solve(rhs);
  for (int i = 0; i < size; ++i) moments_[i] = m.row(i).transpose();
  if (periodic) moments_[n] = moments_[0];
}

void Trajectory::fit_squad() {
  const int n = static_cast<int>(rotations_.size()) - 1;
  controls_ = rotations_;  // linear: s_i = q_i turns squad into slerp
  if (model_.interpolation == Interpolation::kLinear) return;
  for (int i = 0; i <= n; ++i) {
    if (i > 0 && i < n) {
      controls_[i] = squad_control(rotations_[i - 1], rotations_[i], rotations_[i + 1]);
    } else if (model_.loop) {  // the first and last waypoints are the same: wrap around
      controls_[i] = squad_control(rotations_[n - 1], rotations_[i], rotations_[1]);
    }
  }
}

double Trajectory::end_time() const {
  if (model_.ballistic || model_.loop) return std::numeric_limits<double>::infinity();
  return times_.back();
}

Trajectory::Local Trajectory::locate(double t) const {
  const int n = static_cast<int>(times_.size()) - 1;
  const double t0 = times_.front(), tn = times_.back();
  if (model_.loop && t > t0) t = t0 + std::fmod(t - t0, tn - t0);
  if (t <= t0) return {0, 0.0, true};
  if (t >= tn) return {n - 1, 1.0, true};
  const int i =
      static_cast<int>(std::upper_bound(times_.begin(), times_.end(), t) - times_.begin()) - 1;
  return {i, (t - times_[i]) / (times_[i + 1] - times_[i]), false};
}

Pose3d Trajectory::pose(double t) const {
  if (model_.ballistic) {
    const BallisticModel& b = *model_.ballistic;
    return {b.position + b.velocity * t + 0.5 * t * t * kGravityVector,
            ballistic_rotation_ * quaternion_from_rotation_vector(b.angular_velocity * t)};
  }
  const Local l = locate(t);
  const int i = l.segment;
  const double h = times_[i + 1] - times_[i];
  const double a = 1.0 - l.u, b = l.u;
  const Eigen::Vector3d position =
      a * positions_[i] + b * positions_[i + 1] +
      ((a * a * a - a) * moments_[i] + (b * b * b - b) * moments_[i + 1]) * (h * h / 6.0);
  const Eigen::Quaterniond chord = rotations_[i].slerp(l.u, rotations_[i + 1]);
  const Eigen::Quaterniond inner = controls_[i].slerp(l.u, controls_[i + 1]);
  return {position, chord.slerp(2.0 * l.u * (1.0 - l.u), inner).normalized()};
}

Eigen::Vector3d Trajectory::velocity(double t) const {
  if (model_.ballistic) return model_.ballistic->velocity + t * kGravityVector;
  const Local l = locate(t);
  if (l.resting) return Eigen::Vector3d::Zero();
  const int i = l.segment;
  const double h = times_[i + 1] - times_[i];
  const double a = 1.0 - l.u, b = l.u;
  return (positions_[i + 1] - positions_[i]) / h +
         (-(3.0 * a * a - 1.0) * moments_[i] + (3.0 * b * b - 1.0) * moments_[i + 1]) * (h / 6.0);
}

Eigen::Vector3d Trajectory::acceleration(double t) const {
  if (model_.ballistic) return kGravityVector;
  const Local l = locate(t);
  if (l.resting) return Eigen::Vector3d::Zero();
  return (1.0 - l.u) * moments_[l.segment] + l.u * moments_[l.segment + 1];
}

Eigen::Vector3d Trajectory::angular_velocity(double t) const {
  if (model_.ballistic) return pose(t).orientation * model_.ballistic->angular_velocity;
  const Local l = locate(t);
  if (l.resting) return Eigen::Vector3d::Zero();
  const int i = l.segment;
  if (model_.interpolation == Interpolation::kLinear) {
    // slerp turns about one fixed axis at a constant rate.
    const Eigen::Vector3d phi = rotation_vector(rotations_[i].conjugate() * rotations_[i + 1]);
    return rotations_[i] * phi / (times_[i + 1] - times_[i]);
  }
  constexpr double kEps = 1e-6;
  const Eigen::Quaterniond delta =
      pose(t + kEps).orientation * pose(t - kEps).orientation.conjugate();
  return rotation_vector(delta) / (2.0 * kEps);
}

}  // namespace ubot
