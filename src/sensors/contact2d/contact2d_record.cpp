// The contact2d type's frames.jsonl piece (compiled into the record library): its drawing
// parameters and its reading; also every object's reading in contact mode.
#include "frames_fields.h"
#include "ubot/record/frames_writer.h"
#include "ubot/sensors/contact2d/contact2d.h"
#include "ubot/sensors/contact2d/contact2d_sinks.h"

namespace ubot {
namespace {

void write_report(JsonWriter& j, const ContactReport& c) {
  j.begin_object()
      .key("other")
      .value(c.other)
      .key("point")
      .array(std::span<const double>(c.point.data(), 2))
      .key("normal")
      .array(std::span<const double>(c.normal.data(), 2))
      .key("depth")
      .value(c.depth)
      .key("force")
      .value(c.force)
      .end_object();
}

}  // namespace

void write_contact_reading(JsonWriter& j, const ContactReading& r) {
  j.begin_object().key("in_contact").value(r.in_contact).key("partners").array(r.partners);
  j.key("reports").begin_array();
  for (const ContactReport& c : r.reports) write_report(j, c);
  j.end_array()
      .key("force")
      .array(std::span<const double>(r.force.data(), 2))
      .key("contact_time")
      .value(nanos_to_seconds(r.contact_time))
      .key("air_time")
      .value(nanos_to_seconds(r.air_time))
      .key("started")
      .value(r.started)
      .key("ended")
      .value(r.ended)
      .end_object();
}

void write_frames_parameters(const FramesContext& f, const Contact2d& s) {
  const Contact2dModel& p = s.params();
  f.json.key("force_scale")
      .value(p.force_scale)
      .key("marker_size")
      .value(p.marker_size)
      .key("linewidth")
      .value(p.linewidth)
      .key("alpha")
      .value(p.alpha)
      .key("color")
      .value(p.color);
}

void write_frames_sample(const FramesContext& f, const Contact2d& s) {
  if (write_status(f.json, s.header())) write_contact_reading(f.json.key("contact"), s.reading());
}

}  // namespace ubot
