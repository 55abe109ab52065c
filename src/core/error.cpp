#include "ubot/core/error.h"

#include <fmt/format.h>

#include <algorithm>

namespace ubot {
namespace {

// At most the first `n` bytes of `text`, ending on a character boundary (UTF-8 continuation
// bytes are 10xxxxxx).
std::string_view utf8_prefix(std::string_view text, std::size_t n) {
  if (text.size() <= n) return text;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  return text.substr(0, n);
}

// What what() says before the reason: "file:line:column: key.path: ", the parts `where` has.
std::string prefix_of(const ErrorLocation& where) {
  std::string prefix = location_text(where);
  if (!prefix.empty()) prefix += ": ";
  if (!where.key_path.empty()) prefix += where.key_path + ": ";
  return prefix;
}

}  // namespace

std::string location_text(const ErrorLocation& where) {
  if (where.line <= 0) return where.file;
  if (where.column <= 0) return fmt::format("{}:{}", where.file, where.line);
  return fmt::format("{}:{}:{}", where.file, where.line, where.column);
}

Error::Error(ErrorLocation where, std::string_view reason)
    : Error(std::make_shared<const ErrorLocation>(std::move(where)), reason) {}

Error::Error(std::shared_ptr<const ErrorLocation> where, std::string_view reason)
    : std::runtime_error(prefix_of(*where) + std::string(reason)),
      where_(std::move(where)),
      reason_at_(prefix_of(*where_).size()) {}

const ErrorLocation& Error::location() const {
  static const ErrorLocation kNowhere;
  return where_ ? *where_ : kNowhere;
}

std::string_view Error::reason() const {
  // what() ends at the first NUL byte; a reason may be cut with it.
  const std::string_view message(what());
  return message.substr(std::min(reason_at_, message.size()));
}

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
