#include "ubot/core/error.h"

#include <fmt/format.h>

namespace ubot {
namespace {

// At most the first `n` bytes of `text`, ending on a character boundary (UTF-8 continuation
// bytes are 10xxxxxx).
std::string_view utf8_prefix(std::string_view text, std::size_t n) {
  if (text.size() <= n) return text;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  return text.substr(0, n);
}

}  // namespace

std::string quote_value(std::string_view value) {
  if (value.size() <= kQuotedBytes) return fmt::format("'{}'", value);
  return fmt::format("'{}...' ({} bytes)", utf8_prefix(value, kQuotedBytes), value.size());
}

std::string bounded_message(std::string_view message) {
  if (message.size() <= kMessageBytes) return std::string(message);
  return fmt::format("{}... (a message of {} bytes, cut)", utf8_prefix(message, kMessageBytes),
                     message.size());
}

}  // namespace ubot
