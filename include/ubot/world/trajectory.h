#pragma once
// Scripted 6-DoF motion (`trajectory:` of an object): timed waypoints interpolated smoothly, or
// a ballistic flight. The world moves a trajectory object to pose(t) at the end of every step.
//
// Waypoints (times t_0 < ... < t_n):
//   - cubic (default): each position axis is a C2 cubic spline through the waypoints with zero
//     velocity at t_0 and t_n (a periodic spline when looping); orientations follow Shoemake's
//     squad, which passes through every waypoint and keeps the angular velocity continuous for
//     evenly spaced waypoints (a rotation at a constant rate stays exactly constant).
//   - linear: positions on straight segments at constant velocity, orientations by slerp
//     (constant angular velocity within a segment).
//   Before t_0 the object rests at the first waypoint, after t_n at the last; a looping
//   trajectory (last waypoint = first) repeats with period t_n - t_0.
// Ballistic: position p0 + v0 t + g t²/2 with g = (0, 0, -kGravity), orientation q0 exp(ω_B t)
// (a constant body-frame angular velocity); it never ends.
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "ubot/config/world_model.h"
#include "ubot/core/pose3d.h"

namespace ubot {

// Standard gravity used by the world (ballistic flights) and the IMU (specific force), m/s².
inline constexpr double kGravity = 9.81;

class Trajectory {
 public:
  // The model must be valid (as the loader guarantees): at least 2 waypoints with increasing
  // times, or a ballistic flight.
  explicit Trajectory(const TrajectoryModel& model);

  Pose3d pose(double t) const;
  Eigen::Vector3d velocity(double t) const;      // world frame, m/s
  Eigen::Vector3d acceleration(double t) const;  // world frame, m/s² (0 at rest and on kinks)
  // World-frame angular velocity, rad/s: exact for ballistic flights and linear segments; for
  // squad a central difference over ±1 µs (error ~1e-10 rad/s).
  Eigen::Vector3d angular_velocity(double t) const;
  // Time from which the object rests at its last waypoint; +inf for loops and flights.
  double end_time() const;

 private:
  struct Local {
    int segment = 0;  // waypoint index i of the segment [t_i, t_i+1]
    double u = 0.0;   // (t - t_i) / h_i in [0, 1]
    bool resting = false;
  };
  Local locate(double t) const;
  void fit_spline();
  void fit_squad();

  TrajectoryModel model_;
  std::vector<double> times_;
  std::vector<Eigen::Vector3d> positions_;
  std::vector<Eigen::Vector3d> moments_;  // spline second derivatives at the waypoints
  std::vector<Eigen::Quaterniond> rotations_;
  std::vector<Eigen::Quaterniond> controls_;  // squad inner control points
  Eigen::Quaterniond ballistic_rotation_ = Eigen::Quaterniond::Identity();
};

}  // namespace ubot
