#include "yaml_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>

#include "ubot/core/color.h"
#include "ubot/core/error.h"
#include "ubot/core/input_files.h"

namespace ubot::config {
namespace {

// yaml-cpp's YAML::convert<double> (what worlds were read with before): a whole decimal number,
// trailing blanks allowed, or .inf / -.inf / .nan in their three spellings; out of range
// (1e400) is no number.
std::optional<double> parse_number_text(std::string_view text) {
  for (std::string_view inf : {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"}) {
    if (text == inf) return std::numeric_limits<double>::infinity();
  }
  for (std::string_view inf : {"-.inf", "-.Inf", "-.INF"}) {
    if (text == inf) return -std::numeric_limits<double>::infinity();
  }
  for (std::string_view nan : {".nan", ".NaN", ".NAN"}) {
    if (text == nan) return std::numeric_limits<double>::quiet_NaN();
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  if (text.size() > 1 && text[0] == '+' && text[1] != '-' && text[1] != '+') text.remove_prefix(1);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// yaml-cpp's YAML::convert<bool>: y/n, yes/no, true/false, on/off, each in lower case, upper
// case or capitalised.
std::optional<bool> parse_bool_text(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string capitalised = lower;
  if (!capitalised.empty()) {
    capitalised[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(capitalised[0])));
  }
  std::string upper = lower;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (text != lower && text != upper && text != capitalised) return std::nullopt;
  for (std::string_view t : {"y", "yes", "true", "on"}) {
    if (lower == t) return true;
  }
  for (std::string_view f : {"n", "no", "false", "off"}) {
    if (lower == f) return false;
  }
  return std::nullopt;
}

// The length of the UTF-8 sequence starting at text[i] (1 to 4), or 0 when it is not valid UTF-8
// (a stray continuation byte, a truncated sequence, an overlong form, a surrogate or a code point
// beyond U+10FFFF).
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b = byte(i);
  if (b < 0x80) return 1;
  std::size_t n = 0;
  std::uint32_t cp = 0;
  if ((b & 0xE0) == 0xC0) {
    n = 2, cp = b & 0x1F;
  } else if ((b & 0xF0) == 0xE0) {
    n = 3, cp = b & 0x0F;
  } else if ((b & 0xF8) == 0xF0) {
    n = 4, cp = b & 0x07;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

// YAML streams are Unicode text; yaml-cpp copies invalid bytes into the strings as they are, and
// an object name made of them would make frames.jsonl invalid JSON. Refused at the first one.
void check_utf8(std::string_view text, const std::string& name) {
  std::int64_t line = 1, column = 1;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_sequence_length(text, i);
    if (n == 0) {
      throw Error({name, line, column},
                  fmt::format("invalid UTF-8 (byte 0x{:02X}); a world file must be UTF-8 text",
                              static_cast<unsigned char>(text[i])));
    }
    if (text[i] == '\n') {
      ++line, column = 1;
    } else {
      ++column;
    }
    i += n;
  }
}

}  // namespace

Field::Field(std::shared_ptr<const YamlDocument> doc, std::uint32_t node, std::string path,
             std::shared_ptr<const std::string> file, YamlMark mark)
    : doc_(std::move(doc)),
      node_(node),
      path_(std::move(path)),
      file_(std::move(file)),
      mark_(mark) {
  if (node_ != YamlDocument::kNone && !is_null()) mark_ = doc_->mark(node_);
}

Field Field::missing(std::string path, const Field& parent) {
  return Field(parent.doc_, YamlDocument::kNone, std::move(path), parent.file_, parent.mark_);
}

YamlKind Field::kind() const {
  return node_ == YamlDocument::kNone ? YamlKind::kNull : doc_->node(node_).kind;
}

std::string_view Field::scalar() const {
  return node_ == YamlDocument::kNone ? std::string_view() : doc_->scalar(node_);
}

std::size_t Field::size() const {
  const YamlKind k = kind();
  return k == YamlKind::kSequence || k == YamlKind::kMap ? doc_->node(node_).size : 0;
}

std::optional<double> Field::parse_number() const {
  if (!is_scalar()) return std::nullopt;
  return parse_number_text(scalar());
}

bool Field::is_number() const { return parse_number().has_value(); }

std::string Field::describe() const {
  if (is_null()) return "nothing";
  if (is_map()) return "a mapping";
  if (is_sequence()) return "a list";
  return quote_value(scalar());
}

ErrorLocation Field::where() const {
  if (mark_.line < 0) return {*file_, 0, 0, path_};
  return {*file_, mark_.line + 1, mark_.column + 1, path_};
}

std::string Field::location() const { return location_text(where()); }

void Field::fail(std::string_view message) const { throw Error(where(), bounded_message(message)); }

void Field::fail_type(std::string_view expected) const {
  fail(fmt::format("expected {}, got {}", expected, describe()));
}

double Field::as_number() const {
  const auto value = parse_number();
  if (!value || std::isnan(*value)) fail_type("a number");
  // The one limit every number of a world obeys: beyond it a position, length, angle or time is
  // nonsense, and sums of such values (a sensor's offset on a body far out) could leave the
  // range Embree's ray checks accept (an abort, not an error).
  if (std::isfinite(*value) && std::abs(*value) > kMaxMagnitude) {
    fail(fmt::format("{} is beyond the limit of ±1e9 for any number in a world", scalar()));
  }
  return *value;
}

double Field::as_at_most(double max, std::string_view unit) const {
  const double value = as_positive();
  if (value > max) fail(fmt::format("must be at most {:g} {}, got {}", max, unit, scalar()));
  return value;
}

double Field::as_finite() const {
  const double value = as_number();
  if (!std::isfinite(value)) fail(fmt::format("expected a finite number, got {}", value));
  return value;
}

double Field::as_positive() const {
  const double value = as_finite();
  if (value <= 0.0) fail(fmt::format("must be greater than 0, got {}", value));
  return value;
}

double Field::as_unit_interval() const {
  const double value = as_finite();
  if (value < 0.0 || value > 1.0) fail(fmt::format("must be between 0 and 1, got {}", value));
  return value;
}

Eigen::Vector3d Field::as_vector3() const {
  as_numbers(3, 3);
  return {item(0).as_finite(), item(1).as_finite(), item(2).as_finite()};
}

double Field::as_non_negative() const {
  const double value = as_finite();
  if (value < 0.0) fail(fmt::format("must not be negative, got {}", value));
  return value;
}

std::int64_t Field::as_integer() const {
  // Not as_finite(): seeds and counts may exceed the ±1e9 limit of other numbers.
  const auto parsed = parse_number();
  if (!parsed || std::isnan(*parsed)) fail_type("a number");
  const double value = *parsed;
  if (!std::isfinite(value)) fail(fmt::format("expected a finite number, got {}", value));
  if (value != std::floor(value) || std::abs(value) > 9.0e15) {
    fail(fmt::format("expected a whole number, got {}", scalar()));
  }
  return static_cast<std::int64_t>(value);
}

bool Field::as_bool() const {
  const auto value = is_scalar() ? parse_bool_text(scalar()) : std::nullopt;
  if (!value) fail_type("true or false");
  return *value;
}

std::string Field::as_string() const {
  if (!is_scalar()) fail_type("a string");
  return std::string(scalar());
}

std::string Field::as_color() const {
  std::string value = as_string();
  if (!parse_color(value)) {
    fail(
        fmt::format("unknown colour {} (a matplotlib / CSS name such as 'royalblue', a "
                    "letter such as 'r', '#rrggbb', '#rrggbbaa', a grey level '0.75' or 'none')",
                    quote_value(value)));
  }
  return value;
}

std::vector<double> Field::as_numbers(std::size_t min_size, std::size_t max_size) const {
  if (!is_sequence()) {
    fail_type(min_size == max_size ? fmt::format("a list of {} numbers", min_size)
                                   : "a list of numbers");
  }
  if (size() < min_size || size() > max_size) {
    if (min_size == max_size) {
      fail(fmt::format("expected {} numbers, got {}", min_size, size()));
    }
    fail(fmt::format("expected {} to {} numbers, got {}", min_size, max_size, size()));
  }
  std::vector<double> values;
  values.reserve(size());
  for (std::size_t i = 0; i < size(); ++i) {
    // Read straight from the document: an element's Field (and its path "x[i]") is made only
    // to report an element as_number() refuses, with the same message.
    const std::uint32_t child = doc_->item(node_, i);
    const std::optional<double> value = doc_->node(child).kind == YamlKind::kScalar
                                            ? parse_number_text(doc_->scalar(child))
                                            : std::nullopt;
    if (!value || std::isnan(*value) ||
        (std::isfinite(*value) && std::abs(*value) > kMaxMagnitude)) {
      values.push_back(item(i).as_number());  // throws
      continue;
    }
    values.push_back(*value);
  }
  return values;
}

std::vector<std::vector<double>> Field::as_points(std::size_t min_points) const {
  if (!is_sequence()) fail_type("a list of [x, y] points");
  if (size() < min_points) {
    fail(fmt::format("needs at least {} vertices, got {}", min_points, size()));
  }
  std::vector<std::vector<double>> points;
  for (std::size_t i = 0; i < size(); ++i) {
    std::vector<double> p = item(i).as_numbers(2, 2);
    for (std::size_t k = 0; k < p.size(); ++k) {
      if (!std::isfinite(p[k])) item(i).item(k).as_finite();
    }
    points.push_back(std::move(p));
  }
  return points;
}

std::string Field::as_choice(std::initializer_list<std::string_view> choices) const {
  return as_choice(std::span<const std::string_view>(choices.begin(), choices.size()));
}

std::string Field::as_choice(std::span<const std::string_view> choices) const {
  const std::string value = as_string();
  for (std::string_view c : choices) {
    if (value == c) return value;
  }
  std::vector<std::string> names(choices.begin(), choices.end());
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  const std::string hint = nearest_word(value, names);
  fail(fmt::format("unknown value {} (expected one of: {}){}", quote_value(value), list,
                   hint.empty() ? "" : fmt::format("; did you mean '{}'?", hint)));
}

Field Field::item(std::size_t index) const {
  const std::uint32_t child = is_sequence() ? doc_->item(node_, index) : YamlDocument::kNone;
  return Field(doc_, child, fmt::format("{}[{}]", path_, index), file_, mark_);
}

std::vector<std::string> Field::keys() const {
  std::vector<std::string> out;
  if (!is_map()) return out;
  const std::span<const std::uint32_t> pairs = doc_->pairs(node_);
  for (std::size_t k = 0; k < pairs.size(); k += 2) out.emplace_back(doc_->scalar(pairs[k]));
  return out;
}

Mapping::Mapping(const Field& field) : field_(field) {
  if (!field.is_null() && !field.is_map()) {
    field.fail(fmt::format("expected a mapping of keys, got {}", field.describe()));
  }
}

bool Mapping::has(std::string_view key) const {
  return field_.is_map() && field_.doc_->find(field_.node_, key) != YamlDocument::kNone;
}

void Mapping::remember(std::string_view key) {
  const auto at = std::lower_bound(known_.begin(), known_.end(), key);
  if (at == known_.end() || *at != key) known_.emplace(at, key);
}

std::optional<Field> Mapping::get(std::string_view key) {
  remember(key);
  if (!field_.is_map()) return std::nullopt;
  const std::uint32_t child = field_.doc_->find(field_.node_, key);
  if (child == YamlDocument::kNone || field_.doc_->node(child).kind == YamlKind::kNull) {
    return std::nullopt;
  }
  const std::string path =
      field_.path().empty() ? std::string(key) : fmt::format("{}.{}", field_.path(), key);
  return Field(field_.doc_, child, path, field_.file(), field_.mark_);
}

Field Mapping::require(std::string_view key) {
  if (auto value = get(key)) return *value;
  field_.fail(fmt::format("missing required key '{}'", key));
}

void Mapping::finish() const {
  if (!field_.is_map()) return;
  const std::span<const std::uint32_t> pairs = field_.doc_->pairs(field_.node_);
  for (std::size_t k = 0; k < pairs.size(); k += 2) {
    const std::string_view name = field_.doc_->scalar(pairs[k]);
    if (std::binary_search(known_.begin(), known_.end(), name, std::less<>())) continue;
    const std::string key(name);
    const std::string path = field_.path().empty() ? key : fmt::format("{}.{}", field_.path(), key);
    const Field at(field_.doc_, pairs[k], field_.path(), field_.file(), field_.mark_);
    // A key longer than any real one is shown cut short, and its location is that of the
    // mapping (the key path would repeat it).
    if (key.size() > kQuotedBytes) at.fail(fmt::format("unknown key {}", quote_value(key)));
    const Field named(field_.doc_, pairs[k], path, field_.file(), field_.mark_);
    const std::string hint = nearest_word(key, known_);
    const std::string note = unknown_note_ ? unknown_note_(key) : std::string();
    named.fail(fmt::format("unknown key {}{}{}", quote_value(key),
                           hint.empty() ? "" : fmt::format(" (did you mean '{}'?)", hint),
                           note.empty() ? "" : "; " + note));
  }
}

double Mapping::number(std::string_view key, double fallback) {
  const auto f = get(key);
  return f ? f->as_number() : fallback;
}
double Mapping::positive(std::string_view key, double fallback) {
  const auto f = get(key);
  return f ? f->as_positive() : fallback;
}
double Mapping::non_negative(std::string_view key, double fallback) {
  const auto f = get(key);
  return f ? f->as_non_negative() : fallback;
}
bool Mapping::boolean(std::string_view key, bool fallback) {
  const auto f = get(key);
  return f ? f->as_bool() : fallback;
}
std::string Mapping::string(std::string_view key, std::string fallback) {
  const auto f = get(key);
  return f ? f->as_string() : fallback;
}

Field parse_yaml(const std::string& text, const std::string& name, const ParseProgress& progress) {
  check_utf8(text, name);
  const std::shared_ptr<const YamlDocument> doc = YamlDocument::parse(text, name, progress);
  if (doc->root() == YamlDocument::kNone || doc->node(doc->root()).kind == YamlKind::kNull) {
    throw Error(ErrorLocation(name), "the file is empty");
  }
  const YamlMark mark = doc->mark(doc->root());
  if (doc->node(doc->root()).kind != YamlKind::kMap) {
    throw Error({name, mark.line + 1, mark.column + 1},
                "expected a mapping at the top level (world:, robot:, ...)");
  }
  return Field(doc, doc->root(), "", std::make_shared<const std::string>(name), mark);
}

Field load_yaml_file(const std::string& path, const ParseProgress& progress) {
  const std::filesystem::file_status status = input_file_status(path, "file not found");
  if (std::filesystem::is_directory(status)) {
    throw Error(ErrorLocation(path), "is a directory, not a world file");
  }
  // A FIFO blocks and a device such as /dev/zero never ends: only regular files are read.
  if (!std::filesystem::is_regular_file(status)) {
    throw Error(ErrorLocation(path),
                "not a regular file (a device, FIFO or socket), not a world file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorLocation(path), "cannot be read");
  // Read at once into one string of the file's size (a stringstream would hold two copies).
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) throw Error(ErrorLocation(path), "cannot be read");
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return parse_yaml(text, path, progress);
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment distance: insertions, deletions, substitutions and transpositions
  // of neighbours ("range_mni" is one edit from "range_min"). Three rows of the table are
  // enough (a transposition looks two rows back), so memory is linear in the shorter word.
  if (a.size() < b.size()) std::swap(a, b);
  const std::size_t m = b.size();
  std::vector<std::size_t> before(m + 1), previous(m + 1), current(m + 1);
  for (std::size_t j = 0; j <= m; ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[m];
}

std::string nearest_word(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const auto& c : candidates) {
    // The distance is at least the difference in length: a word far longer than every
    // candidate (a 25 MB name) is compared with none.
    const std::size_t gap =
        word.size() > c.size() ? word.size() - c.size() : c.size() - word.size();
    if (gap >= best_distance) continue;
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

}  // namespace ubot::config
