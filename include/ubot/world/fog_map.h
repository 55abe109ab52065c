#pragma once
// IR-SIM's fog of map (`world.fog_map: true`, irsim/world/map/fog_map.py): a grid over the world
// whose cells start unexplored and are revealed, after every step, along each object's lidar
// beams (up to their measured ranges) or, for an object without a lidar, inside its field-of-view
// sector. It changes no measurement: it is an exploration record, drawn as a grey overlay over
// the obstacles (under the robots) and reported as explored_ratio in frames.jsonl.
#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>

namespace ubot {

class StateIo;

class FogMap {
 public:
  FogMap() = default;  // no fog (the world has fog_map off)
  // round(width / resolution) x round(height / resolution) cells (at least 1 each, ties to even
  // as Python's round), covering [offset, offset + size].
  FogMap(double width, double height, double resolution, const Eigen::Vector2d& offset);

  bool enabled() const { return nx_ > 0; }
  int nx() const { return nx_; }
  int ny() const { return ny_; }
  double cell_width() const { return rx_; }
  double cell_height() const { return ry_; }
  const Eigen::Vector2d& offset() const { return offset_; }
  // Cell (i, j) (i along x, j along y) has been seen.
  bool explored(int i, int j) const { return explored_[static_cast<std::size_t>(i) * ny_ + j]; }
  // Fraction of cells revealed, in [0, 1].
  double explored_ratio() const;

  // Reveals the cells along each beam from `pose` [x, y, yaw] at sensor-frame `angles`, sampled
  // every half cell up to the beam's range.
  void reveal_from_lidar(const Eigen::Vector3d& pose, std::span<const double> angles,
                         std::span<const double> ranges);
  // Reveals every cell whose centre lies within `radius` of `pose` and within fov / 2 of its
  // heading (no occlusion).
  void reveal_fov(const Eigen::Vector3d& pose, double fov, double radius);

 private:
  friend void io(StateIo& s, FogMap& f);  // state files
  void mark(double x, double y);
  int nx_ = 0, ny_ = 0;
  double rx_ = 0.0, ry_ = 0.0;
  Eigen::Vector2d offset_ = Eigen::Vector2d::Zero();
  std::vector<std::uint8_t> explored_;  // nx * ny, x-major
  std::size_t explored_count_ = 0;
};

}  // namespace ubot
