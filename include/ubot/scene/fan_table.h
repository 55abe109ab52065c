#pragma once
// A 2D fan's fixed beam pattern (a lidar's scan angles) with each beam's unit direction, made
// once, for Scene::cast_fan(origin, heading, table, ...).
//
// A scan at `heading` casts beam i at yaw heading + angle(i), along the table's (cos, sin) of
// angle(i) turned by the heading's (cos, sin): one sincos a scan instead of one a beam, which
// was a seventh of a small lidar world's step. The turned vector is within a few ulp of
// (cos, sin) of the summed yaw, so hits move by ~1e-15 relative (up to 4e-15 in the examples);
// direction() is the exact vector the scan casts, so a cast() along it gives the same hit.
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

#include <Eigen/Core>

namespace ubot::scene {

class FanTable {
 public:
  // The rotation of one scan.
  struct Heading {
    double yaw = 0.0;
    double cos = 1.0;
    double sin = 0.0;
  };
  static Heading heading(double yaw) { return {yaw, std::cos(yaw), std::sin(yaw)}; }

  // Throws ubot::Error on a non-finite angle.
  explicit FanTable(std::vector<double> angles);

  std::size_t size() const { return angles_.size(); }
  const std::vector<double>& angles() const { return angles_; }
  bool sorted() const { return sorted_; }  // ascending
  double max_abs_angle() const { return max_abs_; }

  // Beam i's direction in a scan at heading h: the direction cast_fan() uses.
  double dx(const Heading& h, std::size_t i) const { return h.cos * cos_[i] - h.sin * sin_[i]; }
  double dy(const Heading& h, std::size_t i) const { return h.sin * cos_[i] + h.cos * sin_[i]; }
  Eigen::Vector3d direction(const Heading& h, std::size_t i) const {
    return {dx(h, i), dy(h, i), 0.0};
  }

 private:
  std::vector<double> angles_, cos_, sin_;
  bool sorted_ = true;
  double max_abs_ = 0.0;
};

}  // namespace ubot::scene
