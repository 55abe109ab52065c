#include "ubot/ros2/messages.h"

namespace ubot::ros2 {

const MessageType& message_type(MessageKind kind) {
  static const MessageType kTypes[] = {
#define UBOT_ROS2_TYPE(T, pkg) {MessageKind::k##T, #pkg "/msg/" #T, #pkg "::msg::dds_::" #T "_"},
      UBOT_ROS2_MESSAGE_TYPES(UBOT_ROS2_TYPE)
#undef UBOT_ROS2_TYPE
  };
  return kTypes[static_cast<int>(kind)];
}

}  // namespace ubot::ros2
