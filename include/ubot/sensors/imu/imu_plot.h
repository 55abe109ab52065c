#pragma once
// Collects an IMU's samples over a run and turns them into a two-panel line plot: angular
// velocity (x, y, z) and specific force (x, y, z) against time, sensor frame. Samples that are
// not Valid leave gaps in the lines.
#include <array>
#include <string>
#include <vector>

#include "ubot/render/plot.h"
#include "ubot/sensors/imu/imu.h"

namespace ubot::viz {

class ImuPlot {
 public:
  explicit ImuPlot(const Imu& imu);
  // Appends one sample.
  void record(const ImuReading& sample);
  // Appends every sample the IMU took in the last step (Imu::step_samples()), in time order.
  void record_step(const Imu& imu);
  render::Plot plot() const;
  std::size_t size() const { return time_.size(); }

 private:
  std::string title_;
  std::vector<double> time_;
  std::array<std::vector<double>, 6> channels_;  // wx, wy, wz, ax, ay, az
};

}  // namespace ubot::viz
