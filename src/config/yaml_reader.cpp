#include "yaml_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <yaml-cpp/eventhandler.h>

#include "ubot/core/color.h"
#include "ubot/core/error.h"

namespace ubot::config {
namespace {

std::string describe(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing";
  if (node.IsMap()) return "a mapping";
  if (node.IsSequence()) return "a list";
  return fmt::format("'{}'", node.Scalar());
}

std::optional<double> parse_number(const YAML::Node& node) {
  if (!node.IsScalar()) return std::nullopt;
  double value = 0.0;
  if (!YAML::convert<double>::decode(node, value)) return std::nullopt;
  return value;
}

// YAML forbids duplicate keys in a mapping, but yaml-cpp keeps one of them silently (so
// `radius: 1` then `radius: 2` would load without a word). The node tree has lost the duplicate,
// so the check walks the parser's events instead, keeping the keys seen in each open mapping.
class DuplicateKeyFinder : public YAML::EventHandler {
 public:
  explicit DuplicateKeyFinder(const std::string& file) : file_(file) {}

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override { node_done(); }
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { node_done(); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                const std::string& value) override {
    if (!open_.empty() && open_.back().is_map && open_.back().key_next) check_key(value, mark);
    node_done();
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    open_.push_back({false, false, {}});
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    open_.push_back({true, true, {}});
  }
  void OnMapEnd() override { close(); }

 private:
  struct Open {
    bool is_map;
    bool key_next;  // the next complete node in this mapping is a key (else a value)
    std::map<std::string, YAML::Mark> keys;
  };

  void check_key(const std::string& key, const YAML::Mark& mark) {
    const auto [it, inserted] = open_.back().keys.emplace(key, mark);
    if (inserted) return;
    throw Error(fmt::format(
        "{}:{}:{}: duplicate key '{}' (first at line {}, column {}; YAML "
        "allows a key once per mapping)",
        file_, mark.line + 1, mark.column + 1, key, it->second.line + 1, it->second.column + 1));
  }
  // A key or a value of the enclosing mapping is complete: keys and values alternate.
  void node_done() {
    if (!open_.empty() && open_.back().is_map) open_.back().key_next = !open_.back().key_next;
  }
  void close() {
    open_.pop_back();
    node_done();
  }

  const std::string& file_;
  std::vector<Open> open_;
};

void check_duplicate_keys(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DuplicateKeyFinder finder(name);
  parser.HandleNextDocument(finder);  // YAML::Load reads the first document only
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
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_sequence_length(text, i);
    if (n == 0) {
      throw Error(
          fmt::format("{}:{}:{}: invalid UTF-8 (byte 0x{:02X}); a world file must be "
                      "UTF-8 text",
                      name, line, column, static_cast<unsigned char>(text[i])));
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

Field::Field(YAML::Node node, std::string path, std::shared_ptr<const std::string> file,
             YAML::Mark mark)
    : node_(std::move(node)), path_(std::move(path)), file_(std::move(file)), mark_(mark) {
  if (node_.IsDefined() && !node_.IsNull()) mark_ = node_.Mark();
}

std::string Field::location() const {
  if (mark_.line < 0) return *file_;
  return fmt::format("{}:{}:{}", *file_, mark_.line + 1, mark_.column + 1);
}

void Field::fail(std::string_view message) const {
  if (path_.empty()) throw Error(fmt::format("{}: {}", location(), message));
  throw Error(fmt::format("{}: {}: {}", location(), path_, message));
}

void Field::fail_type(std::string_view expected) const {
  fail(fmt::format("expected {}, got {}", expected, describe(node_)));
}

double Field::as_number() const {
  const auto value = parse_number(node_);
  if (!value || std::isnan(*value)) fail_type("a number");
  // The one limit every number of a world obeys: beyond it a position, length, angle or time is
  // nonsense, and sums of such values (a sensor's offset on a body far out) could leave the
  // range Embree's ray checks accept (an abort, not an error).
  if (std::isfinite(*value) && std::abs(*value) > kMaxMagnitude) {
    fail(fmt::format("{} is beyond the limit of ±1e9 for any number in a world", node_.Scalar()));
  }
  return *value;
}

double Field::as_at_most(double max, std::string_view unit) const {
  const double value = as_positive();
  if (value > max) fail(fmt::format("must be at most {:g} {}, got {}", max, unit, node_.Scalar()));
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
  const auto parsed = parse_number(node_);
  if (!parsed || std::isnan(*parsed)) fail_type("a number");
  const double value = *parsed;
  if (!std::isfinite(value)) fail(fmt::format("expected a finite number, got {}", value));
  if (value != std::floor(value) || std::abs(value) > 9.0e15) {
    fail(fmt::format("expected a whole number, got {}", node_.Scalar()));
  }
  return static_cast<std::int64_t>(value);
}

bool Field::as_bool() const {
  bool value = false;
  if (!node_.IsScalar() || !YAML::convert<bool>::decode(node_, value)) {
    fail_type("true or false");
  }
  return value;
}

std::string Field::as_string() const {
  if (!node_.IsScalar()) fail_type("a string");
  return node_.Scalar();
}

std::string Field::as_color() const {
  std::string value = as_string();
  if (!parse_color(value)) {
    fail(
        fmt::format("unknown colour '{}' (a matplotlib / CSS name such as 'royalblue', a "
                    "letter such as 'r', '#rrggbb', '#rrggbbaa', a grey level '0.75' or 'none')",
                    value));
  }
  return value;
}

std::vector<double> Field::as_numbers(std::size_t min_size, std::size_t max_size) const {
  if (!node_.IsSequence()) {
    fail_type(min_size == max_size ? fmt::format("a list of {} numbers", min_size)
                                   : "a list of numbers");
  }
  if (node_.size() < min_size || node_.size() > max_size) {
    if (min_size == max_size) {
      fail(fmt::format("expected {} numbers, got {}", min_size, node_.size()));
    }
    fail(fmt::format("expected {} to {} numbers, got {}", min_size, max_size, node_.size()));
  }
  std::vector<double> values;
  values.reserve(node_.size());
  for (std::size_t i = 0; i < node_.size(); ++i) values.push_back(item(i).as_number());
  return values;
}

std::vector<std::vector<double>> Field::as_points(std::size_t min_points) const {
  if (!node_.IsSequence()) fail_type("a list of [x, y] points");
  if (node_.size() < min_points) {
    fail(fmt::format("needs at least {} vertices, got {}", min_points, node_.size()));
  }
  std::vector<std::vector<double>> points;
  for (std::size_t i = 0; i < node_.size(); ++i) {
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
  fail(fmt::format("unknown value '{}' (expected one of: {}){}", value, list,
                   hint.empty() ? "" : fmt::format("; did you mean '{}'?", hint)));
}

Field Field::item(std::size_t index) const {
  return Field(node_[index], fmt::format("{}[{}]", path_, index), file_, mark_);
}

Mapping::Mapping(const Field& field) : field_(field) {
  if (!field.is_null() && !field.is_map()) {
    field.fail(fmt::format("expected a mapping of keys, got {}", describe(field.node())));
  }
}

bool Mapping::has(std::string_view key) const {
  return !field_.is_null() && field_.node()[std::string(key)].IsDefined();
}

std::optional<Field> Mapping::get(std::string_view key) {
  known_.emplace(key);
  if (field_.is_null()) return std::nullopt;
  const YAML::Node child = field_.node()[std::string(key)];
  if (!child.IsDefined() || child.IsNull()) return std::nullopt;
  const std::string path =
      field_.path().empty() ? std::string(key) : fmt::format("{}.{}", field_.path(), key);
  return Field(child, path, field_.file(), field_.node().Mark());
}

Field Mapping::require(std::string_view key) {
  if (auto value = get(key)) return *value;
  field_.fail(fmt::format("missing required key '{}'", key));
}

void Mapping::finish() const {
  if (field_.is_null()) return;
  const std::vector<std::string> known(known_.begin(), known_.end());
  for (const auto& entry : field_.node()) {
    const std::string key = entry.first.Scalar();
    if (known_.contains(key)) continue;
    const std::string path = field_.path().empty() ? key : fmt::format("{}.{}", field_.path(), key);
    const Field at(entry.first, field_.path(), field_.file(), field_.node().Mark());
    // A key longer than any real one gets no hint (the edit distance is quadratic: a 25 MB key
    // took a minute and 3.7 GB) and is shown cut short.
    constexpr std::size_t kLongKey = 64;
    if (key.size() > kLongKey) {
      at.fail(
          fmt::format("unknown key '{}...' ({} characters)", key.substr(0, kLongKey), key.size()));
    }
    const Field named(entry.first, path, field_.file(), field_.node().Mark());
    const std::string hint = nearest_word(key, known);
    named.fail(fmt::format("unknown key '{}'{}", key,
                           hint.empty() ? "" : fmt::format(" (did you mean '{}'?)", hint)));
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

Field parse_yaml(const std::string& text, const std::string& name) {
  check_utf8(text, name);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw Error(fmt::format("{}:{}:{}: malformed YAML: {}", name, e.mark.line + 1,
                            e.mark.column + 1, e.msg));
  }
  check_duplicate_keys(text, name);  // the text parsed: its events are well-formed
  if (!root.IsDefined() || root.IsNull()) throw Error(fmt::format("{}: the file is empty", name));
  if (!root.IsMap()) {
    throw Error(fmt::format("{}:{}:{}: expected a mapping at the top level (world:, robot:, ...)",
                            name, root.Mark().line + 1, root.Mark().column + 1));
  }
  return Field(root, "", std::make_shared<const std::string>(name), root.Mark());
}

Field load_yaml_file(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw Error(fmt::format("{}: file not found", path));
  if (std::filesystem::is_directory(status)) {
    throw Error(fmt::format("{}: is a directory, not a world file", path));
  }
  // A FIFO blocks and a device such as /dev/zero never ends: only regular files are read.
  if (!std::filesystem::is_regular_file(status)) {
    throw Error(
        fmt::format("{}: not a regular file (a device, FIFO or socket), not a world file", path));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot be read", path));
  std::stringstream text;
  text << in.rdbuf();
  return parse_yaml(text.str(), path);
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment distance: insertions, deletions, substitutions and transpositions
  // of neighbours ("range_mni" is one edit from "range_min").
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

std::string nearest_word(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

}  // namespace ubot::config
