#pragma once
// Range checks for command-line values that CLI11's own validators let through: NaN and
// infinities pass CLI::PositiveNumber, and "-1" converts to 2^64 - 1 for an unsigned option.
// A failed check is a CLI11 validation error: a message naming the option, exit 2.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "ubot/sim/simulation.h"

namespace ubot::app {

// The most sensor threads `--threads` accepts (0 = all cores): the engine's bound, checked by the
// option's parser so that the message names the option.
using ubot::kMaxThreads;

namespace detail {

inline bool parse_double(const std::string& s, double& value) {
  char* end = nullptr;
  value = std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size();
}

template <class T>
bool parse_integer(const std::string& s, T& value) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace detail

// A finite number greater than 0.
inline const CLI::Validator kFinitePositive(
    [](std::string& s) -> std::string {
      double v = 0.0;
      if (!detail::parse_double(s, v) || !std::isfinite(v) || v <= 0.0) {
        return "expected a finite number greater than 0, got '" + s + "'";
      }
      return {};
    },
    "POSITIVE");

// A finite number (coordinates).
inline const CLI::Validator kFinite(
    [](std::string& s) -> std::string {
      double v = 0.0;
      if (!detail::parse_double(s, v) || !std::isfinite(v)) {
        return "expected a finite number, got '" + s + "'";
      }
      return {};
    },
    "FINITE");

// A whole number in 0 .. 2^64 - 1, written in decimal digits (no sign).
inline const CLI::Validator kUnsigned64(
    [](std::string& s) -> std::string {
      std::uint64_t v = 0;
      if (!detail::parse_integer(s, v)) {
        return "expected a whole number from 0 to 18446744073709551615, got '" + s + "'";
      }
      return {};
    },
    "UINT64");

// A whole number in [lo, hi]. Instead of CLI::Range, whose message changed between CLI11 2.3
// (Debian 12: "not in range 0 to 256") and 2.4 (Debian 13: "not in range [0 - 256]"): the
// command line says the same on every release.
inline CLI::Validator whole_number_in(long long lo, long long hi) {
  const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& s) -> std::string {
        long long v = 0;
        if (!detail::parse_integer(s, v) || v < lo || v > hi) {
          return "expected a whole number from " + range + ", got '" + s + "'";
        }
        return {};
      },
      "INT in " + range);
}

// A finite number in [lo, hi], said the same way on every CLI11 release (see whole_number_in)
// and without printing DBL_MAX in full, as CLI::NonNegativeNumber's message does.
inline CLI::Validator number_in(double lo, double hi) {
  const std::string range = fmt::format("{} to {}", lo, hi);
  return CLI::Validator(
      [lo, hi, range](std::string& s) -> std::string {
        double v = 0.0;
        if (!detail::parse_double(s, v) || !std::isfinite(v) || v < lo || v > hi) {
          return "expected a number from " + range + ", got '" + s + "'";
        }
        return {};
      },
      "NUMBER in " + range);
}

// A finite number ≥ 0.
inline const CLI::Validator kFiniteNonNegative(
    [](std::string& s) -> std::string {
      double v = 0.0;
      if (!detail::parse_double(s, v) || !std::isfinite(v) || v < 0.0) {
        return "expected a finite number ≥ 0, got '" + s + "'";
      }
      return {};
    },
    "NONNEGATIVE");

// `--frames`: every | none | a step count from 1 to 2^63 - 1.
inline const CLI::Validator kFramesChoice(
    [](std::string& s) -> std::string {
      std::int64_t n = 0;
      if (s == "every" || s == "none" || (detail::parse_integer(s, n) && n >= 1)) return {};
      return "expected 'every', 'none' or a step count from 1 to 9223372036854775807, got '" + s +
             "'";
    },
    "every|N|none");

}  // namespace ubot::app
