// ubot.ContactReading / ubot.ContactReport: an object's contact sensor in collision_mode: contact
// (docs/contact.md). Object.contact returns a copy, so a reading stays what it was when read, like
// every other attribute of ubot.Object.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdio>
#include <string>

#include "bindings.h"
#include "ubot/core/time.h"
#include "ubot/physics/contact_reading.h"

namespace py = pybind11;

namespace ubot::python {
namespace {

std::string report_text(const ContactReport& r) {
  char text[160];
  std::snprintf(text, sizeof text,
                "Contact(other=%d, point=(%.3f, %.3f), normal=(%.3f, %.3f), depth=%.4f, "
                "force=%.3f)",
                r.other, r.point.x(), r.point.y(), r.normal.x(), r.normal.y(), r.depth, r.force);
  return text;
}

void bind_report(py::module_& m) {
  py::class_<ContactReport>(m, "ContactReport",
                            "One contact seen from the object's side (docs/contact.md).")
      .def_readonly("other", &ContactReport::other, "the id of the object touched")
      .def_property_readonly(
          "point", [](const ContactReport& r) { return pair(r.point); }, "world frame, m, (2,)")
      .def_property_readonly(
          "normal", [](const ContactReport& r) { return pair(r.normal); },
          "unit, from `other` toward the object: the direction the contact pushes it")
      .def_readonly("depth", &ContactReport::depth, "m of overlap")
      .def_readonly("force", &ContactReport::force, "N along `normal`, average over the step")
      .def("__str__", report_text)
      .def("__repr__", report_text);
}

void bind_reading(py::module_& m) {
  py::class_<ContactReading>(m, "ContactReading",
                             "An object's contact sensor after the last step (docs/contact.md).")
      .def_readonly("in_contact", &ContactReading::in_contact)
      .def_readonly("partners", &ContactReading::partners, "ids touched, ascending, each once")
      .def_readonly("reports", &ContactReading::reports, "one ContactReport per touching pair")
      .def_property_readonly(
          "force", [](const ContactReading& r) { return pair(r.force); },
          "net contact force on the object, world frame, N, (2,)")
      .def_property_readonly(
          "contact_time", [](const ContactReading& r) { return nanos_to_seconds(r.contact_time); },
          "s touching in this episode, 0 while free")
      .def_property_readonly(
          "air_time", [](const ContactReading& r) { return nanos_to_seconds(r.air_time); },
          "s free, 0 while touching")
      .def_readonly("started", &ContactReading::started, "the last step began an episode")
      .def_readonly("ended", &ContactReading::ended, "the last step ended one")
      .def("__repr__", [](const ContactReading& r) {
        return "<ubot.ContactReading in_contact=" + std::string(r.in_contact ? "True" : "False") +
               " partners=" + std::to_string(r.partners.size()) + ">";
      });
}

}  // namespace

void bind_contacts(py::module_& m) {
  bind_report(m);
  bind_reading(m);
}

}  // namespace ubot::python
