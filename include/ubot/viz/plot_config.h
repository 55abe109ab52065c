#pragma once
// An object's `plot:` options (IR-SIM's), read only when drawing a simulation
// (ubot/viz/run_drawing.h), as the WorldModel holds them (ObjectModel::plot).
#include <optional>
#include <string>

namespace ubot {

struct PlotModel {
  bool show_goal = true;
  bool show_trajectory = false;
  bool show_trail = false;
  bool show_fov = false;
  bool show_arrow = false;
  bool show_sensor = true;
  double arrow_length = 0.0;
  bool dashed = false;          // obj_linestyle '--' / ':' / '-.'
  std::optional<double> alpha;  // object alpha / sensor beam alpha
  std::optional<std::string> color;
};

}  // namespace ubot
