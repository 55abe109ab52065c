#pragma once
// The one exception type ubot throws at its API edges. Messages name the file, line, column and
// key path (config) or the field (data) that is wrong; hot paths never throw. An error about a
// place in a file also carries that place as fields (Error::location()), so readers such as the
// Python module's WorldError take them as they are instead of parsing the message.
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace ubot {

// A place in a file an error is about. Each part is optional: "" and 0 say it is unknown.
struct ErrorLocation {
  ErrorLocation() = default;
  // The file as a whole ("file: reason").
  explicit ErrorLocation(std::string file) : file(std::move(file)) {}
  // A line and column of the file (column 0: the line only), and the key path there if any.
  ErrorLocation(std::string file, std::int64_t line, std::int64_t column, std::string key_path = {})
      : file(std::move(file)), line(line), column(column), key_path(std::move(key_path)) {}

  std::string file;         // the file as the message names it
  std::int64_t line = 0;    // 1-based
  std::int64_t column = 0;  // 1-based; 0 with a line: the line only ("image.pgm:3")
  std::string key_path;     // where in the file's structure: "robot[1].sensors[0].range_max"
};

// "file:line:column" of `where`, with the parts it has ("file" alone when the line is unknown,
// "file:line" when the column is).
std::string location_text(const ErrorLocation& where);

class Error : public std::runtime_error {
 public:
  // A message alone: no location, reason() is the whole message.
  using std::runtime_error::runtime_error;
  // what() is "file:line:column: key.path: reason" with the parts `where` has (a message
  // without a file, line or key path has no such prefix), bit for bit what the readers wrote
  // before the fields existed.
  Error(ErrorLocation where, std::string_view reason);

  // Whether the error was made with a location (the parts may still be empty).
  bool has_location() const { return where_ != nullptr; }
  // The location, or an empty one.
  const ErrorLocation& location() const;
  const std::string& file() const { return location().file; }
  std::int64_t line() const { return location().line; }
  std::int64_t column() const { return location().column; }
  const std::string& key_path() const { return location().key_path; }
  // what() without the location prefix: what is wrong, not where.
  std::string_view reason() const;

 private:
  Error(std::shared_ptr<const ErrorLocation> where, std::string_view reason);
  // Shared and immutable, so copying an Error (as throwing may) never throws.
  std::shared_ptr<const ErrorLocation> where_;
  std::size_t reason_at_ = 0;
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
