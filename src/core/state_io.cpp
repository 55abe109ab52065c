#include "ubot/core/state_io.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "ubot/core/error.h"

namespace ubot {

static_assert(std::endian::native == std::endian::little,
              "state files are little-endian; a big-endian build would need byte swaps here");

StateIo StateIo::writer() { return StateIo(); }

StateIo StateIo::reader(std::span<const std::uint8_t> bytes, std::string what) {
  StateIo io;
  io.reading_ = true;
  io.in_ = bytes;
  io.what_ = std::move(what);
  return io;
}

StateIo::Section::Section(StateIo& io, std::string_view name, std::int64_t index)
    : io_(io), size_(io.section_.size()) {
  if (!io_.reading_) return;  // only errors read the path
  if (!name.empty()) {
    if (!io_.section_.empty()) io_.section_ += '.';
    io_.section_ += name;
  }
  if (index >= 0) io_.section_ += fmt::format("[{}]", index);
}

StateIo::Section::~Section() { io_.section_.resize(size_); }

void StateIo::fail(std::string_view message) const {
  throw Error(fmt::format("{}: {} (at byte {}{}{})", what_, message, at_,
                          section_.empty() ? "" : ", reading ", section_));
}

void StateIo::mismatch(std::uint64_t in_file, std::size_t here, std::string_view what) const {
  fail(fmt::format("{} {} in the file, {} in this world", in_file, what, here));
}

void StateIo::ids(std::vector<int>& v, std::int64_t count, std::string_view what) {
  values(v);
  if (!reading_) return;
  for (const int id : v) {
    if (id < -1 || id >= count) fail(fmt::format("{} {} of {}", what, id, count));
  }
}

void StateIo::finish() const {
  if (reading_ && at_ != in_.size()) {
    fail(fmt::format("{} bytes left over after the state", in_.size() - at_));
  }
}

void StateIo::put(const void* p, std::size_t n) {
  if (n == 0) return;
  const auto* b = static_cast<const std::uint8_t*>(p);
  out_.insert(out_.end(), b, b + n);
}

void StateIo::get(void* p, std::size_t n) {
  if (n == 0) return;  // (an empty list's data() may be null: no memcpy)
  if (n > left()) fail(fmt::format("the file ends early ({} bytes wanted, {} left)", n, left()));
  std::memcpy(p, in_.data() + at_, n);
  at_ += n;
}

void StateIo::value(bool& v) {
  std::uint8_t b = v ? 1 : 0;
  value(b);
  if (reading_) {
    if (b > 1) fail(fmt::format("a flag reads {}, not 0 or 1", b));
    v = b == 1;
  }
}

#define UBOT_STATE_PLAIN(T)   \
  void StateIo::value(T& v) { \
    if (reading_) {           \
      get(&v, sizeof(T));     \
    } else {                  \
      put(&v, sizeof(T));     \
    }                         \
  }
UBOT_STATE_PLAIN(std::uint8_t)
UBOT_STATE_PLAIN(std::uint16_t)
UBOT_STATE_PLAIN(std::uint32_t)
UBOT_STATE_PLAIN(std::uint64_t)
UBOT_STATE_PLAIN(std::int32_t)
UBOT_STATE_PLAIN(std::int64_t)
UBOT_STATE_PLAIN(float)
#undef UBOT_STATE_PLAIN

void StateIo::value(double& v) {
  if (!reading_) {
    put(&v, sizeof v);
    return;
  }
  get(&v, sizeof v);
  if (max_abs_ > 0.0 && !(std::abs(v) <= max_abs_)) {
    fail(fmt::format("the value {} is not a finite number within ±{:g}", v, max_abs_));
  }
}

void StateIo::check_bound(const double* p, std::size_t n) const {
  if (max_abs_ <= 0.0) return;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(std::abs(p[i]) <= max_abs_)) {
      fail(fmt::format("the value {} is not a finite number within ±{:g}", p[i], max_abs_));
    }
  }
}

void StateIo::count(std::uint64_t& n, std::size_t min_item_bytes) {
  value(n);
  if (reading_ && n > left() / std::max<std::size_t>(min_item_bytes, 1)) {
    fail(fmt::format("a count of {} items does not fit in the {} bytes left", n, left()));
  }
}

void StateIo::value(std::string& v) {
  std::uint64_t n = v.size();
  count(n, 1);
  if (reading_) {
    v.resize(static_cast<std::size_t>(n));
    get(v.data(), v.size());
  } else {
    put(v.data(), v.size());
  }
}

}  // namespace ubot
