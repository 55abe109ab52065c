#pragma once
// The contact2d type's piece of each sink (defined in src/sensors/contact2d/contact2d_<piece>.cpp;
// see ubot/sensors/sink_pieces.h).
#include <cstdint>

#include "ubot/sensors/sink_pieces.h"

namespace ubot {

class Contact2d;
class JsonWriter;
struct ContactReading;

UBOT_DECLARE_SINK_PIECES(Contact2d)

// An object's contact sensor reading as frames.jsonl writes it, under "contact" in the object's
// entry of each step (collision_mode: contact) and in a contact2d sample (record library).
void write_contact_reading(JsonWriter& j, const ContactReading& r);

namespace ros2 {
struct MarkerArray;  // ubot/ros2/messages.h
// The sensor's reading as markers at height z (ros2_msgs library): a sphere list at the contact
// points, a line list of force lines, in the world frame.
MarkerArray contact_markers(const Contact2d& s, std::int64_t now_ns, double z);
}  // namespace ros2

}  // namespace ubot
