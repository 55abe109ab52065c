// What a live client sends: the first byte picks the reader, the rest is the frame. Text frames
// (JSON ops), binary frames (client message data, service calls), and the Twist / TwistStamped
// CDR a client publishes on cmd_vel. Every reader must return or throw ProtocolError, never crash.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "ubot/live/foxglove_protocol.h"
#include "ubot/ros2/cdr.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::span<const std::uint8_t> frame(data + 1, size - 1);
  try {
    switch (data[0] % 3) {
      case 0:
        ubot::live::parse_client_text(
            std::string_view(reinterpret_cast<const char*>(frame.data()), frame.size()));
        break;
      case 1:
        ubot::live::parse_client_binary(frame);
        break;
      default: {
        ubot::ros2::Twist twist;
        ubot::ros2::deserialize_cdr(frame, twist);
        ubot::ros2::TwistStamped stamped;
        ubot::ros2::deserialize_cdr(frame, stamped);
      }
    }
  } catch (const ubot::live::ProtocolError&) {
  }
  return 0;
}
