// The `contact2d` sensor type's YAML reader (compiled into the config library): its common
// properties and the drawing options under `plot:` (IR-SIM also accepts them flat).
#include "object_reader.h"
#include "sensor_fields.h"
#include "ubot/core/color.h"

namespace ubot::config {
namespace {

void read_drawing(Mapping& m, Contact2dModel& p) {
  p.force_scale = m.non_negative("force_scale", p.force_scale);
  p.marker_size = m.non_negative("marker_size", p.marker_size);
  p.linewidth = m.non_negative("linewidth", p.linewidth);
  if (auto f = m.get("alpha")) p.alpha = f->as_unit_interval();
  if (auto f = m.get("color")) {
    p.color = f->as_string();
    if (!parse_color(p.color)) f->fail("unknown colour '" + p.color + "'");
  }
}

}  // namespace

void read_sensor(Mapping& m, std::string_view, SensorCommon& common, Contact2dModel& params) {
  read_common(SensorKeys(m), common);
  read_drawing(m, params);
  if (auto f = m.get("plot")) {
    Mapping plot(*f);
    read_drawing(plot, params);
    plot.finish();
  }
}

}  // namespace ubot::config
