#pragma once
// Mapping between the structs of messages.h and the C types idlc generates from
// src/ros2/idl/*.idl, generated from the same files (generate_messages.py). to_c() makes a
// non-owning view (strings and sequences point into the C++ message, sequences of structs into
// a Scratch; CycloneDDS serialises the view during dds_write, so it only has to outlive that
// call); from_c() copies.
#include <cstddef>
#include <memory>
#include <type_traits>
#include <vector>

#include "builtin_interfaces.h"
#include "geometry_msgs.h"
#include "nav_msgs.h"
#include "rosgraph_msgs.h"
#include "sensor_msgs.h"
#include "std_msgs.h"
#include "tf2_msgs.h"
#include "ubot/ros2/messages.h"
#include "visualization_msgs.h"

namespace ubot::ros2::cyclone {

// Storage for the C elements of sequences of structs while a view is alive. Its blocks are kept
// across messages: reset() before each one makes them free again without freeing them.
class Scratch {
 public:
  // `n` value-initialised C structs, valid until the next reset().
  template <class C>
  C* make(std::size_t n) {
    static_assert(std::is_trivially_copyable_v<C> && alignof(C) <= alignof(std::max_align_t));
    if (n == 0) return nullptr;
    if (used_ == blocks_.size()) blocks_.emplace_back();
    std::vector<std::max_align_t>& block = blocks_[used_++];
    block.resize((n * sizeof(C) + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
    C* elements = reinterpret_cast<C*>(block.data());
    std::uninitialized_value_construct_n(elements, n);
    return elements;
  }
  void reset() { used_ = 0; }

 private:
  std::vector<std::vector<std::max_align_t>> blocks_;
  std::size_t used_ = 0;
};

template <class M>
struct CType;
#define UBOT_CTYPE(T, pkg)                                                                    \
  template <>                                                                                 \
  struct CType<T> {                                                                           \
    using type = pkg##_msg_dds__##T##_;                                                       \
    static const dds_topic_descriptor_t* descriptor() { return &pkg##_msg_dds__##T##__desc; } \
  };
UBOT_ROS2_MESSAGE_TYPES(UBOT_CTYPE)
#undef UBOT_CTYPE

#include "ubot/ros2/gen/cyclone_messages.h"

}  // namespace ubot::ros2::cyclone
