#pragma once
// The messages of messages.h in the bytes a ROS 2 rmw puts on the wire (and rosbag2 stores):
// the encapsulation header 00 01 00 00 (CDR, little-endian) followed by the XCDR1 payload of the
// final, keyless type, with every primitive aligned to its size (8 for float64) counted from the
// start of the payload, strings as uint32 length (NUL included) + bytes + NUL, sequences as a
// uint32 count + elements, fixed arrays as their elements. No padding is added after the last
// field. Tests compare these bytes with CycloneDDS's own serialiser for every type.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ubot/ros2/messages.h"

namespace ubot::ros2 {

// Replaces the contents of `out` (its capacity is reused).
#define UBOT_ROS2_SERIALIZE(T, pkg) \
  void serialize_cdr(const T& message, std::vector<std::uint8_t>& out);
UBOT_ROS2_MESSAGE_TYPES(UBOT_ROS2_SERIALIZE)
#undef UBOT_ROS2_SERIALIZE

// The same for a message known by its kind (`message` points to the struct of that kind).
void serialize_cdr(MessageKind kind, const void* message, std::vector<std::uint8_t>& out);

}  // namespace ubot::ros2

namespace ubot::ros2 {

// Reads every message of the list: CDR as above, little-endian (CDR_LE or PL_CDR_LE
// encapsulation), e.g. the commands the live server's Foxglove clients send. Returns "" or why
// the bytes are not one such message (too short, another encapsulation, a string or sequence past
// the end, naming the field); bytes left after the message are allowed, as rmw implementations
// pad to 4. A sequence's count is checked against the bytes left before anything is allocated.
#define UBOT_ROS2_DESERIALIZE(T, pkg) \
  std::string deserialize_cdr(std::span<const std::uint8_t> bytes, T& out);
UBOT_ROS2_MESSAGE_TYPES(UBOT_ROS2_DESERIALIZE)
#undef UBOT_ROS2_DESERIALIZE

}  // namespace ubot::ros2
