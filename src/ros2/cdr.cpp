#include "ubot/ros2/cdr.h"

#include <fmt/format.h>

#include <cstring>
#include <string>

namespace ubot::ros2 {
namespace {

constexpr std::size_t kEncapsulation = 4;  // 00 01 00 00: CDR_LE, options 0

// Appends XCDR1 little-endian values; alignment is relative to the payload (after the
// encapsulation header). x86-64 and aarch64 are little-endian, so values are copied as they are.
// The per-message put() functions that drive it are generated (generate_messages.py).
class CdrWriter {
 public:
  explicit CdrWriter(std::vector<std::uint8_t>& out) : out_(out) {
    out_.assign({0x00, 0x01, 0x00, 0x00});
  }

  template <class T>
  void put(T value) {
    align(sizeof(T));
    append(&value, sizeof(T));
  }
  void put(bool value) { put<std::uint8_t>(value ? 1 : 0); }
  void put(const std::string& s) {
    put(static_cast<std::uint32_t>(s.size() + 1));
    append(s.data(), s.size());
    out_.push_back(0);
  }
  template <class T, std::size_t N>
  void put(const std::array<T, N>& a) {
    put_array(a.data(), N);
  }
  // A sequence of primitives: count, then the elements in one copy.
  template <class T>
  void put_sequence(const std::vector<T>& v) {
    put(static_cast<std::uint32_t>(v.size()));
    put_array(v.data(), v.size());
  }
  // A byte sequence, from wherever its bytes are (a sensor's buffer, when the message views it).
  void put_sequence(const Bytes& v) {
    put(static_cast<std::uint32_t>(v.size()));
    append(v.data(), v.size());
  }
  // A sequence of structs of scalars of one size (Point, ColorRGBA): their CDR layout is their
  // C++ layout, so the elements are one copy too.
  template <std::size_t kScalar, class T>
  void put_plain_sequence(const std::vector<T>& v) {
    static_assert(sizeof(T) % kScalar == 0 && alignof(T) == kScalar);
    put(static_cast<std::uint32_t>(v.size()));
    if (v.empty()) return;
    align(kScalar);
    append(v.data(), v.size() * sizeof(T));
  }

 private:
  template <class T>
  void put_array(const T* data, std::size_t n) {
    if (n == 0) return;
    align(sizeof(T));
    append(data, n * sizeof(T));
  }
  // n is a primitive's size, a power of two: the padding is a mask, not a division, and most
  // fields need none (a marker array is some 20,000 fields: this and append were most of it).
  void align(std::size_t n) {
    const std::size_t pad = (kEncapsulation - out_.size()) & (n - 1);
    if (pad != 0) out_.resize(out_.size() + pad, 0);
  }
  void append(const void* data, std::size_t n) {
    if (n == 0) return;  // an empty string's or sequence's data() may be null: no memcpy of it
    const std::size_t at = out_.size();
    out_.resize(at + n);
    std::memcpy(out_.data() + at, data, n);
  }

  std::vector<std::uint8_t>& out_;
};

// Reads what CdrWriter writes, checking every length against the bytes there are; on a failure
// it keeps the name of the field it was reading.
class CdrReader {
 public:
  explicit CdrReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  std::string start() {
    if (bytes_.size() < kEncapsulation) return "fewer than 4 bytes (no CDR encapsulation header)";
    if (bytes_[0] != 0x00 || (bytes_[1] != 0x01 && bytes_[1] != 0x03)) {
      return "not little-endian CDR (encapsulation header must be 00 01 or 00 03)";
    }
    at_ = kEncapsulation;
    return "";
  }
  const char* failed_field() const { return failed_; }
  bool runs_past() const { return runs_past_; }

  template <class T>
  bool get(T& value, const char* field) {
    if (!take(sizeof(T), sizeof(T), field)) return false;
    std::memcpy(&value, bytes_.data() + at_ - sizeof(T), sizeof(T));
    return true;
  }
  bool get(bool& value, const char* field) {
    std::uint8_t byte = 0;
    if (!get(byte, field)) return false;
    value = byte != 0;
    return true;
  }
  bool get(std::string& s, const char* field) {
    std::uint32_t size = 0;
    if (!get(size, field)) return false;
    if (size == 0 || !take(1, size, field)) return fail(field, true);
    s.assign(reinterpret_cast<const char*>(bytes_.data() + at_ - size), size - 1);
    return true;
  }
  template <class T, std::size_t N>
  bool get_array(std::array<T, N>& a, const char* field) {
    return get_elements(a.data(), N, field);
  }
  template <class T>
  bool get_sequence(std::vector<T>& v, const char* field) {
    if (!get_size(v, field, sizeof(T))) return false;
    return get_elements(v.data(), v.size(), field);
  }
  bool get_sequence(Bytes& v, const char* field) { return get_sequence(v.own(), field); }
  template <std::size_t kScalar, class T>
  bool get_plain_sequence(std::vector<T>& v, const char* field) {
    if (!get_size(v, field, sizeof(T))) return false;
    if (v.empty()) return true;
    if (!take(kScalar, v.size() * sizeof(T), field)) return false;
    std::memcpy(static_cast<void*>(v.data()), bytes_.data() + at_ - v.size() * sizeof(T),
                v.size() * sizeof(T));
    return true;
  }
  // A sequence's count, checked against the bytes left (each element takes at least
  // `min_element` of them) before the vector is sized: a hostile count allocates nothing.
  template <class T>
  bool get_size(std::vector<T>& v, const char* field, std::size_t min_element = 1) {
    std::uint32_t n = 0;
    if (!get(n, field)) return false;
    if (n > (bytes_.size() - at_) / min_element) return fail(field, true);
    v.resize(n);
    return true;
  }

 private:
  template <class T>
  bool get_elements(T* data, std::size_t n, const char* field) {
    if (n == 0) return true;
    if (!take(sizeof(T), n * sizeof(T), field)) return false;
    if constexpr (std::is_same_v<T, bool>) {
      for (std::size_t i = 0; i < n; ++i) data[i] = bytes_[at_ - n + i] != 0;
    } else {
      std::memcpy(data, bytes_.data() + at_ - n * sizeof(T), n * sizeof(T));
    }
    return true;
  }
  // Aligns to `alignment` and steps over `n` bytes, if there are that many.
  bool take(std::size_t alignment, std::size_t n, const char* field) {
    const std::size_t offset = at_ - kEncapsulation;
    const std::size_t aligned = at_ + (alignment - offset % alignment) % alignment;
    if (aligned > bytes_.size() || n > bytes_.size() - aligned) return fail(field, false);
    at_ = aligned + n;
    return true;
  }
  bool fail(const char* field, bool runs_past) {
    failed_ = field;
    runs_past_ = runs_past;
    return false;
  }

  std::span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
  const char* failed_ = "";
  bool runs_past_ = false;
};

#include "ubot/ros2/gen/message_cdr.inc"

template <class M>
void serialize(const M& message, std::vector<std::uint8_t>& out) {
  CdrWriter w(out);
  put(w, message);
}

template <class M>
std::string deserialize(std::span<const std::uint8_t> bytes, M& out) {
  CdrReader r(bytes);
  if (std::string e = r.start(); !e.empty()) return e;
  if (get(r, out)) return "";
  const char* type = message_type(MessageTraits<M>::kind).ros_name;
  if (r.runs_past()) {
    return fmt::format("{}: its {} runs past it (the message ends early)", type, r.failed_field());
  }
  return fmt::format("{}: the message ends early, at its field {}", type, r.failed_field());
}

}  // namespace

#define UBOT_ROS2_CDR(T, pkg)                                                \
  void serialize_cdr(const T& message, std::vector<std::uint8_t>& out) {     \
    serialize(message, out);                                                 \
  }                                                                          \
  std::string deserialize_cdr(std::span<const std::uint8_t> bytes, T& out) { \
    return deserialize(bytes, out);                                          \
  }
UBOT_ROS2_MESSAGE_TYPES(UBOT_ROS2_CDR)
#undef UBOT_ROS2_CDR

void serialize_cdr(MessageKind kind, const void* message, std::vector<std::uint8_t>& out) {
  switch (kind) {
#define UBOT_ROS2_SERIALIZE_KIND(T, pkg)                 \
  case MessageKind::k##T:                                \
    serialize_cdr(*static_cast<const T*>(message), out); \
    return;
    UBOT_ROS2_MESSAGE_TYPES(UBOT_ROS2_SERIALIZE_KIND)
#undef UBOT_ROS2_SERIALIZE_KIND
  }
}

}  // namespace ubot::ros2
