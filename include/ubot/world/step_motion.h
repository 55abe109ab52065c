#pragma once
// The motion of a planar object inside one world step (docs/sampling.md). IR-SIM moves an
// object by one Euler step, which says where it is at the step's two ends but not in between.
// Samples taken inside a step (an IMU faster than the world) see the motion with a constant
// body-frame twist that carries the pre-step pose exactly to the post-step pose: SE(2)'s
// geodesic, a circular arc at constant speed (a straight line when the heading is unchanged).
// For a constant command the arcs of successive steps join with a continuous velocity, so the
// path is one circle and the acceleration inside and across steps is the centripetal one: no
// kinks at step boundaries for a differencing IMU to turn into spikes.
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace ubot {

class StateIo;

class StepMotion {
 public:
  // At rest at [x, y, yaw].
  StepMotion(double x, double y, double yaw) : StepMotion(x, y, yaw, x, y, yaw) {}
  // From [x0, y0, yaw0] to [x1, y1, yaw1]. The turn is the heading change wrapped to (-π, π]
  // (IR-SIM wraps headings after each step, so larger turns in one step are not recoverable).
  StepMotion(double x0, double y0, double yaw0, double x1, double y1, double yaw1);

  // Position and heading (as a rotation about z) at fraction s of the step, s in [0, 1].
  // At s = 0 exactly the start pose; s = 1 is the end pose up to rounding (the world returns its
  // stored post-step pose there instead).
  void at(double s, Eigen::Vector2d& position, Eigen::Quaterniond& yaw) const;

 private:
  friend void io(StateIo& s, StepMotion& m);  // state files
  Eigen::Vector2d start_;
  Eigen::Matrix2d start_rotation_;  // R(yaw0)
  Eigen::Quaterniond start_yaw_;
  double turn_;            // heading change over the step, rad
  Eigen::Vector2d twist_;  // body-frame velocity × step duration (start frame), m
};

}  // namespace ubot
