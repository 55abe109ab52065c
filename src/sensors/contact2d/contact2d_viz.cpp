// The contact2d type's drawing (compiled into the viz library), as IR-SIM's Contact2D draws it: a
// marker at each contact point and a line along the contact normal, force × force_scale long.
#include "ubot/render/drawing.h"
#include "ubot/sensors/contact2d/contact2d.h"
#include "ubot/sensors/contact2d/contact2d_sinks.h"

namespace ubot::viz {
namespace {

// Pictures are drawn at 100 px per inch, where a matplotlib point is 100/72 px.
constexpr double kPxPerPoint = 100.0 / 72.0;

}  // namespace

// Every contact whatever the stride: a few arrows.
render::BeamsDrawing sensor_beams(const Contact2d& s, std::size_t) {
  const Contact2dModel& p = s.params();
  render::BeamsDrawing b;
  b.color = parse_color(p.color).value_or(render::Color{0.8, 0.475, 0.655, 1.0});
  b.color.a *= p.alpha;
  b.line_width_px = p.linewidth * kPxPerPoint;
  b.start_mark_radius_px = 0.5 * p.marker_size * kPxPerPoint;
  b.mark_hits = false;
  b.over_objects = true;
  for (const ContactReport& c : s.reading().reports) {
    b.start_points.push_back(c.point);
    b.end_points.push_back(c.point + c.normal * (c.force * p.force_scale));
  }
  return b;
}

std::optional<std::size_t> beam_count(const Contact2d& s) { return s.reading().reports.size(); }

}  // namespace ubot::viz
