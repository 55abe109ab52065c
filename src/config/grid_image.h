#pragma once
// Grey images for grid maps (docs/grid-maps.md): PNG (libpng) and PGM (P2 / P5), read as
// IR-SIM's matplotlib reads them: each sample divided by its maximum (255, 65535 or the PGM's
// maxval) in single precision, colour reduced to grey with IR-SIM's weights 0.2989 R + 0.5870 G
// + 0.1140 B (alpha ignored).
#include <string>
#include <vector>

namespace ubot::config {

struct GreyImage {
  int width = 0, height = 0;
  std::vector<double> grey;  // width * height values in [0, 1], rows top to bottom
  double at(int column, int row) const {
    return grey[static_cast<std::size_t>(row) * width + column];
  }
};

// How colour pixels become grey: IR-SIM's weights, or the plain mean of R, G, B (ROS
// map_server's rule).
enum class ColorToGrey { kIrsimWeights, kChannelMean };

// Reads a .png or .pgm file (by content: PNG signature or "P2"/"P5"). Throws ubot::Error
// "<path>: <reason>" (with the line of a bad PGM header token) for anything else.
GreyImage read_grey_image(const std::string& path, ColorToGrey rule = ColorToGrey::kIrsimWeights);

}  // namespace ubot::config
