#pragma once
// Colours as IR-SIM users write them in their YAML: read by the renderer and by cameras (which
// colour objects by their `color`), so they live here rather than in the renderer.
#include <optional>
#include <string>

namespace ubot {

struct Color {
  double r = 0.0, g = 0.0, b = 0.0, a = 1.0;  // each in [0, 1]
};

// A colour from a matplotlib / CSS name ("royalblue", "orangered"), a single-letter matplotlib
// code ("r", "k"), "#rrggbb" / "#rrggbbaa" hex, or "none". nullopt when unknown.
// Case-insensitive, with matplotlib's meanings: the 148 CSS4 names (gray and grey), the base
// codes b g r c m y k w (matplotlib values, e.g. "g" = (0, 0.5, 0)), the tab10 "tab:blue" ...
// "tab:gray"/"tab:grey", the cycle codes "C0".."C9" (= tab10), "#rgb" / "#rgba" hex, and a grey
// level written as a number in [0, 1] ("0.75"). "none" is transparent (alpha 0).
std::optional<Color> parse_color(const std::string& text);

}  // namespace ubot
