#pragma once
// The parameters of the contact2d sensor type (its YAML keys), read by
// src/sensors/contact2d/contact2d_config.cpp. The contact sensor has no functional parameter
// (every object in collision_mode: contact has one, written by the world each step): listing it
// adds its drawing, whose options live under its `plot:` (IR-SIM's Contact2D).
#include <array>
#include <string>
#include <string_view>

namespace ubot {

struct SensorCommon;
namespace config {
class Mapping;
}

struct Contact2dModel {
  static constexpr std::array<std::string_view, 1> kTypeNames{{"contact2d"}};
  const char* type_name() const { return "contact2d"; }
  double force_scale = 0.05;  // m of force line per newton
  double marker_size = 6.0;   // contact point marker (matplotlib points, its diameter)
  double linewidth = 1.5;     // force lines (points)
  double alpha = 0.9;
  std::string color = "#CC79A7";  // IR-SIM's palette `marker` colour (reddish purple)
};

namespace config {
void read_sensor(Mapping& m, std::string_view type, SensorCommon& common, Contact2dModel& params);
}  // namespace config

}  // namespace ubot
