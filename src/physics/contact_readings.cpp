// The contact sensor of every object, from a step's contacts (IR-SIM's Contact2D.tick).
#include <algorithm>

#include "ubot/physics/contact_solver.h"

namespace ubot::physics {
namespace {

void add_report(std::vector<ContactReading>& readings, int id, int other, const Contact& c,
                double sign) {
  if (id < 0) return;  // the grid map (kGridMapId) has no sensor
  ContactReading& r = readings[id];
  r.in_contact = true;
  r.partners.push_back(other);
  r.reports.push_back({other, c.point, sign * c.normal, c.depth, c.normal_force});
  r.force += sign * c.force;
}

void tick(ContactReading& r, bool was_in_contact, Nanos step) {
  std::sort(r.partners.begin(), r.partners.end());
  r.partners.erase(std::unique(r.partners.begin(), r.partners.end()), r.partners.end());
  r.started = r.in_contact && !was_in_contact;
  r.ended = was_in_contact && !r.in_contact;
  if (r.in_contact) {
    r.contact_time += step;
    r.air_time = 0;
  } else {
    r.air_time += step;
    r.contact_time = 0;
  }
}

}  // namespace

void update_readings(std::span<const Contact> contacts, Nanos step,
                     std::vector<ContactReading>& readings) {
  std::vector<bool> was(readings.size());
  for (std::size_t i = 0; i < readings.size(); ++i) {
    was[i] = readings[i].in_contact;
    readings[i].in_contact = false;
    readings[i].partners.clear();
    readings[i].reports.clear();
    readings[i].force.setZero();
  }
  for (const Contact& c : contacts) {
    add_report(readings, c.a, c.b, c, 1.0);
    add_report(readings, c.b, c.a, c, -1.0);
  }
  for (std::size_t i = 0; i < readings.size(); ++i) tick(readings[i], was[i], step);
}

}  // namespace ubot::physics
