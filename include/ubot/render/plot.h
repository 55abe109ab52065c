#pragma once
// Line plots of time series (e.g. an IMU's six channels): stacked panels sharing the x axis,
// drawn with Cairo into PNG files. Like the rest of render/, it knows nothing of worlds or
// sensors; the caller fills in the numbers.
#include <cstdint>
#include <string>
#include <vector>

#include "ubot/render/drawing.h"

namespace ubot::render {

struct PlotSeries {
  std::string label;
  Color color;
  std::vector<double> x, y;  // same length; a non-finite y breaks the line (e.g. no data)
};

struct PlotPanel {
  std::string y_label;  // written above the panel, e.g. "angular velocity [rad/s]"
  std::vector<PlotSeries> series;
};

struct Plot {
  std::string title;
  std::string x_label;            // under the bottom panel, e.g. "time [s]"
  std::vector<PlotPanel> panels;  // top to bottom
};

// Tick values at a "nice" step (1, 2 or 5 × 10^k) covering [lo, hi], at most max_ticks + 1
// of them, all inside [lo, hi]. Empty when the interval is empty or not finite.
std::vector<double> nice_ticks(double lo, double hi, int max_ticks);

// The plot as straight RGBA pixels (rows top to bottom), for tests and custom encoders.
std::vector<std::uint8_t> render_plot_rgba(const Plot& plot, ImageSize size);
// Renders to a PNG file; throws ubot::Error when it cannot be written.
void write_plot_png(const Plot& plot, ImageSize size, const std::string& path);

}  // namespace ubot::render
