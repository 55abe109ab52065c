#include "cyclone_convert.h"

#include <algorithm>
#include <string>

namespace ubot::ros2::cyclone {
namespace {

char* c_str(const std::string& s) { return const_cast<char*>(s.c_str()); }
std::string from_c_str(const char* s) { return s ? std::string(s) : std::string(); }

template <class Seq, class T>
void set_view(T* buffer, std::size_t n, Seq& seq) {
  seq._maximum = seq._length = static_cast<uint32_t>(n);
  seq._buffer = buffer;
  seq._release = false;
}
template <class Seq, class T>
void view(const std::vector<T>& v, Seq& seq) {
  set_view(const_cast<T*>(v.data()), v.size(), seq);
}
// Cyclone serialises the bytes where they are, a sensor's buffer included.
template <class Seq>
void view(const Bytes& v, Seq& seq) {
  set_view(const_cast<std::uint8_t*>(v.data()), v.size(), seq);
}

}  // namespace

#include "ubot/ros2/gen/cyclone_messages.inc"

}  // namespace ubot::ros2::cyclone
