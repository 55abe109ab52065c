#pragma once
// The one exception type ubot throws at its API edges. Messages name the file, line, column and
// key path (config) or the field (data) that is wrong; hot paths never throw.
#include <stdexcept>
#include <string>
#include <string_view>

namespace ubot {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How much of a long value a message quotes, and the most a message says: a world's values may
// be megabytes long (a 25 MB name), a message stays a few lines.
inline constexpr std::size_t kQuotedBytes = 64;
inline constexpr std::size_t kMessageBytes = 4096;

// A value as a message shows it: 'value', or a long one by its first bytes and its length
// ('kkkk...' (25000000 bytes)), cut on a UTF-8 character boundary.
std::string quote_value(std::string_view value);
// `message`, or its first kMessageBytes saying how long it was.
std::string bounded_message(std::string_view message);

}  // namespace ubot
