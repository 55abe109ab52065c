#pragma once
// Strict reading of YAML nodes: every value is read through a Field that knows its file, line,
// column and key path, so any error says exactly where it is ("world.yaml:12:18:
// robot[0].sensors[0].range_max: expected a number, got 'far'"). Mappings are read through a
// Mapping that remembers which keys were asked for; finish() rejects any other key, with a
// "did you mean" hint.
#include <Eigen/Core>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ubot/config/yaml_document.h"
#include "ubot/core/error.h"
#include "ubot/core/numbers.h"

namespace ubot::config {

// Limits on numbers (docs/worlds.md, "Limits"): beyond them a value is nonsense, refused at
// load with its file:line:col.
inline constexpr double kMaxRateHz = 1e6;     // update / rotation rates, filter cut-offs
inline constexpr double kMaxRange = 1e6;      // m: sensor ranges and depths
inline constexpr double kMinStepTime = 1e-6;  // s: world.step_time (time is int64 ns)
inline constexpr double kMaxStepTime = 3600;  // s: world.step_time and sample_time

class Field {
 public:
  // Node `node` of `doc` (YamlDocument::kNone: a missing value, located at `mark`).
  Field(std::shared_ptr<const YamlDocument> doc, std::uint32_t node, std::string path,
        std::shared_ptr<const std::string> file, YamlMark mark);
  // A missing value at `path`, located where `parent` is.
  static Field missing(std::string path, const Field& parent);

  const std::string& path() const { return path_; }
  const std::shared_ptr<const std::string>& file() const { return file_; }
  // The whole document this value is part of.
  const std::shared_ptr<const YamlDocument>& document() const { return doc_; }
  // "file:line:column" (1-based) of the value, or of its parent when it is missing.
  std::string location() const;
  // The same as fields, with the key path: what an Error about this value carries.
  ErrorLocation where() const;
  // Throws ubot::Error "file:line:col: path: message", its location where().
  [[noreturn]] void fail(std::string_view message) const;

  bool is_null() const { return kind() == YamlKind::kNull; }
  bool is_map() const { return kind() == YamlKind::kMap; }
  bool is_sequence() const { return kind() == YamlKind::kSequence; }
  bool is_scalar() const { return kind() == YamlKind::kScalar; }
  // A scalar that reads as a number (what as_number() accepts before its limits), NaN aside.
  bool is_number() const;
  // The scalar's text as written ("" for any other value).
  std::string_view scalar() const;

  // Any number (".inf" allowed) whose magnitude, when finite, is at most kMaxMagnitude; every
  // other reader below goes through it, so no number of a world exceeds ±1e9 (integers aside).
  double as_number() const;
  double as_finite() const;  // a finite number
  // Finite, > 0 and <= max ("must be at most 1e+06 Hz, got 1e12"): rates, ranges.
  double as_at_most(double max, std::string_view unit) const;
  double as_positive() const;       // finite, > 0
  double as_non_negative() const;   // finite, >= 0
  double as_unit_interval() const;  // finite, in [0, 1] (densities, tints, opacities)
  std::int64_t as_integer() const;  // a whole number (rejects 2.5)
  bool as_bool() const;             // true/false (also YAML's True/False/yes/no)
  std::string as_string() const;    // a scalar
  std::string as_color() const;     // a colour ubot::parse_color reads ("#zzzzzz" is an error)
  // A sequence of numbers with a length in [min_size, max_size].
  std::vector<double> as_numbers(std::size_t min_size, std::size_t max_size) const;
  // Exactly three finite numbers (positions, velocities, roll / pitch / yaw).
  Eigen::Vector3d as_vector3() const;
  // A sequence of [x, y] pairs.
  std::vector<std::vector<double>> as_points(std::size_t min_points) const;
  // One of `choices`, else an error listing them (and the nearest).
  std::string as_choice(std::initializer_list<std::string_view> choices) const;
  std::string as_choice(std::span<const std::string_view> choices) const;

  // Elements of a sequence, pairs of a mapping, else 0.
  std::size_t size() const;
  Field item(std::size_t index) const;  // a sequence element, path "path[index]"
  // A mapping's keys in file order (empty for other values); a non-scalar key reads as "".
  std::vector<std::string> keys() const;

 private:
  friend class Mapping;
  [[noreturn]] void fail_type(std::string_view expected) const;
  YamlKind kind() const;  // kNull when missing
  std::string describe() const;
  std::optional<double> parse_number() const;

  std::shared_ptr<const YamlDocument> doc_;
  std::uint32_t node_ = YamlDocument::kNone;
  std::string path_;
  std::shared_ptr<const std::string> file_;
  YamlMark mark_;
};

class Mapping {
 public:
  // `field` must be a mapping (or null, read as empty); else an error.
  explicit Mapping(const Field& field);

  const Field& field() const { return field_; }
  bool has(std::string_view key) const;
  // The value under `key`, if present and not null. Marks the key as known.
  std::optional<Field> get(std::string_view key);
  // The value under `key`; an error naming the key when it is missing.
  Field require(std::string_view key);
  // Accepts `key` without reading it (kept for other tools, e.g. IR-SIM-only options).
  void ignore(std::string_view key) { remember(key); }
  // Rejects any key that was never asked for, suggesting the nearest known key.
  void finish() const;
  // What finish() adds about a key that is unknown here (`key` in, the clause out, "" for
  // nothing): for IR-SIM's places, that IR-SIM 2.12.0 has no such key (config/irsim_keys.h).
  using UnknownKeyNote = std::string (*)(std::string_view key);
  void note_unknown_keys(UnknownKeyNote note) { unknown_note_ = note; }

  double number(std::string_view key, double fallback);
  double positive(std::string_view key, double fallback);
  double non_negative(std::string_view key, double fallback);
  bool boolean(std::string_view key, bool fallback);
  std::string string(std::string_view key, std::string fallback);

 private:
  void remember(std::string_view key);
  Field field_;
  // The keys asked for, sorted and unique: a few per mapping, read once per object of a group,
  // so a flat vector (short keys need no allocation) rather than a node-based set.
  std::vector<std::string> known_;
  UnknownKeyNote unknown_note_ = nullptr;
};

// Parses a whole YAML file; missing, unreadable, empty or malformed files are ubot::Error with
// the file (and line/column for syntax errors).
// `progress` (if set) hears the bytes parsed now and then.
using ParseProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;
Field load_yaml_file(const std::string& path, const ParseProgress& progress = nullptr);
// Parses YAML text; `name` stands in for the file name in messages.
Field parse_yaml(const std::string& text, const std::string& name,
                 const ParseProgress& progress = nullptr);

// Levenshtein distance, for "did you mean" hints.
std::size_t edit_distance(std::string_view a, std::string_view b);
// The candidate nearest to `word` if it is close enough to be a likely typo, else "".
std::string nearest_word(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace ubot::config
