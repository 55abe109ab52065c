#include "ubot/sensors/imu/imu_plot.h"

#include <limits>

namespace ubot::viz {
namespace {

// x red, y green, z blue (the RViz axis colours), darkened a little for white paper.
const render::Color kAxisColors[3] = {
    {0.85, 0.15, 0.15, 1.0}, {0.10, 0.60, 0.15, 1.0}, {0.15, 0.30, 0.90, 1.0}};

}  // namespace

ImuPlot::ImuPlot(const Imu& imu) : title_(imu.header().sensor_id + " (imu, sensor frame)") {}

void ImuPlot::record_step(const Imu& imu) {
  for (const ImuReading& sample : imu.step_samples()) record(sample);
}

void ImuPlot::record(const ImuReading& sample) {
  const FrameHeader& h = sample.header;
  const ImuSample& s = sample.data;
  constexpr double kGap = std::numeric_limits<double>::quiet_NaN();
  time_.push_back(nanos_to_seconds(h.stamp));
  for (int k = 0; k < 3; ++k) {
    channels_[k].push_back(h.valid ? s.angular_velocity[k] : kGap);
    channels_[3 + k].push_back(h.valid ? s.linear_acceleration[k] : kGap);
  }
}

render::Plot ImuPlot::plot() const {
  render::Plot p;
  p.title = title_;
  p.x_label = "time [s]";
  const char* names[6] = {"wx", "wy", "wz", "ax", "ay", "az"};
  p.panels.resize(2);
  p.panels[0].y_label = "angular velocity [rad/s]";
  p.panels[1].y_label = "specific force [m/s\u00b2]";
  for (int k = 0; k < 6; ++k) {
    p.panels[k / 3].series.push_back({names[k], kAxisColors[k % 3], time_, channels_[k]});
  }
  return p;
}

}  // namespace ubot::viz
