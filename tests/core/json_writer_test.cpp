#include "ubot/core/json_writer.h"

#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace ubot {
namespace {

TEST(JsonWriter, WritesNestedStructures) {
  JsonWriter w;
  w.begin_object().key("a").value(1).key("b").begin_array().value(true).null().value("x");
  w.end_array().key("c").begin_object().end_object().end_object();
  EXPECT_EQ(w.str(), R"({"a":1,"b":[true,null,"x"],"c":{}})");
}

TEST(JsonWriter, PiecesFormattedApartJoinIntoTheSameArray) {
  // What FramesWriter does with a 1000-robot step's sensors: pieces of one array formatted by
  // their own writers, joined in order, give the bytes one writer gives.
  JsonWriter whole;
  whole.begin_object().key("s").begin_array();
  for (int i = 0; i < 5; ++i) whole.begin_object().key("i").value(i).end_object();
  whole.end_array().key("t").value(1).end_object();

  JsonWriter first, empty, second;
  for (int i = 0; i < 2; ++i) first.begin_object().key("i").value(i).end_object();
  for (int i = 2; i < 5; ++i) second.begin_object().key("i").value(i).end_object();
  EXPECT_EQ(first.str(), R"({"i":0},{"i":1})");
  JsonWriter joined;
  joined.begin_object().key("s").begin_array();
  joined.elements(first.str()).elements(empty.str()).elements(second.str());
  joined.end_array().key("t").value(1).end_object();
  EXPECT_EQ(joined.str(), whole.str());
  EXPECT_EQ(joined.str(), R"({"s":[{"i":0},{"i":1},{"i":2},{"i":3},{"i":4}],"t":1})");
}

TEST(JsonWriter, DoublesRoundTripExactly) {
  const std::vector<double> values = {0.1, 1.0 / 3.0, -2.5e-300, 123456789.123456789, 5.0};
  for (double v : values) {
    JsonWriter w;
    w.value(v);
    EXPECT_EQ(std::strtod(w.str().c_str(), nullptr), v) << w.str();
  }
  JsonWriter w;
  w.value(5.0);
  EXPECT_EQ(w.str(), "5");
}

TEST(JsonWriter, RoundedValuesArePlainDecimals) {
  const auto text = [](double v, int decimals) {
    JsonWriter w;
    w.value_rounded(v, decimals);
    return w.str();
  };
  EXPECT_EQ(text(2.5, 5), "2.5");
  EXPECT_EQ(text(-0.000123, 5), "-0.00012");
  EXPECT_EQ(text(3.0000001, 5), "3");
  EXPECT_EQ(text(-0.000001, 5), "0");
  EXPECT_EQ(text(0.00001, 5), "0.00001");  // value(double) writes "1e-05"
  EXPECT_EQ(text(-12.345678, 0), "-12");
  EXPECT_EQ(text(1.5, 9), "1.5");
  EXPECT_EQ(text(std::nan(""), 5), "null");
  EXPECT_EQ(text(std::numeric_limits<double>::infinity(), 5), "null");
  // Beyond 2^53 units: value(double)'s form of the rounded value.
  EXPECT_EQ(std::strtod(text(1e300, 5).c_str(), nullptr), std::round(1e300 * 1e5) / 1e5);
  EXPECT_NE(text(1e300, 5).find('e'), std::string::npos);
  EXPECT_THROW(text(1.0, 10), std::invalid_argument);
}

TEST(JsonWriter, RoundedValuesReadBackAsTheRoundedDouble) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> position(-2000.0, 2000.0);
  std::uniform_int_distribution<int> exponent(-8, 9);
  for (int i = 0; i < 100000; ++i) {
    const double v = position(rng) * std::pow(10.0, exponent(rng) - 3);
    for (const int decimals : {0, 3, 5, 9}) {
      JsonWriter w;
      w.value_rounded(v, decimals);
      const std::string& s = w.str();
      const double unit = std::pow(10.0, decimals);
      const double expected = std::round(v * unit) / unit;
      ASSERT_EQ(std::strtod(s.c_str(), nullptr), expected == 0 ? 0.0 : expected)
          << v << " to " << decimals << " places: " << s;
      if (std::abs(v * unit) < 9e15) {
        ASSERT_EQ(s.find_first_of("eE"), std::string::npos) << s;
        ASSERT_TRUE(s.find('.') == std::string::npos || s.back() != '0') << s;
      }
    }
  }
}

TEST(JsonWriter, NonFiniteBecomesNull) {
  JsonWriter w;
  const std::vector<double> v = {std::numeric_limits<double>::infinity(), std::nan("")};
  w.array(v);
  EXPECT_EQ(w.str(), "[null,null]");
}

// What the writer must match byte for byte: std::to_chars's shortest form, "null" when not
// finite (the writer's fast paths must not change a single byte of frames.jsonl).
std::string reference(double v) {
  if (!std::isfinite(v)) return "null";
  char buffer[32];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof(buffer), v).ptr);
}

std::string reference_array(const std::vector<double>& values) {
  std::string s = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) s += ',';
    s += reference(values[i]);
  }
  s += ']';
  return s;
}

// Whole numbers around the fast path's limit (|v| < 1e5, where "100000" becomes "1e+05"),
// signed zeros, halves, tiny and huge magnitudes and random doubles of every exponent.
std::vector<double> tricky_doubles() {
  std::vector<double> v;
  for (int i = -100010; i <= 100010; ++i) v.push_back(i);
  for (double x : {1e5, -1e5, 99999.5, 1e15, 1e16, 123456.0, 0.5, -0.5, 1e-300, 5e-324, -0.0, 0.0,
                   std::nextafter(1e5, 0.0), std::nextafter(1.0, 2.0), 1.0 / 3.0}) {
    v.push_back(x);
  }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t bits = rng();
    const double x = std::bit_cast<double>(bits);
    if (std::isfinite(x)) v.push_back(x);
    v.push_back(std::ldexp(static_cast<double>(bits >> 11), -53) * 20.0);  // lidar-like ranges
  }
  v.push_back(std::numeric_limits<double>::infinity());
  v.push_back(-std::numeric_limits<double>::quiet_NaN());
  return v;
}

TEST(JsonWriter, ArraysMatchToCharsByteForByte) {
  const std::vector<double> values = tricky_doubles();
  JsonWriter w;
  w.array(values);
  EXPECT_EQ(w.str(), reference_array(values));
  // Single values take the same path.
  for (double x : {-0.0, 100000.0, 99999.0, 7.25}) {
    JsonWriter one;
    one.value(x);
    EXPECT_EQ(one.str(), reference(x));
  }
}

TEST(JsonWriter, FloatArraysAreWrittenAsTheirDoubles) {
  std::vector<float> floats = {0.0f, 1.0f, -0.0f, -1.0f, 0.1f, 0.8f, 1e-30f, 3.4e38f, 2.5f};
  std::mt19937 rng(3);
  for (int i = 0; i < 5000; ++i)
    floats.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(rng())));
  std::vector<double> doubles(floats.begin(), floats.end());
  JsonWriter w;
  w.array(std::span<const float>(floats));
  EXPECT_EQ(w.str(), reference_array(doubles));
}

TEST(JsonWriter, BoolAndIntArrays) {
  // Longer than the writer's 4 kB staging buffer, so its flushes are covered too.
  std::vector<std::uint8_t> flags;
  std::string expected = "[";
  for (int i = 0; i < 3000; ++i) {
    flags.push_back(static_cast<std::uint8_t>((i * 7) % 3));  // 0, 1 and 2 (non-zero = true)
    if (i > 0) expected += ',';
    expected += flags.back() ? "true" : "false";
  }
  JsonWriter w;
  w.begin_object().key("valid").bool_array(flags).key("ids");
  const std::vector<int> ids = {0, -7, 2147483647, -2147483647 - 1};
  w.array(std::span<const int>(ids)).key("none").array(std::span<const int>()).end_object();
  EXPECT_EQ(w.str(),
            R"({"valid":)" + expected + R"(],"ids":[0,-7,2147483647,-2147483648],"none":[]})");
}

TEST(JsonWriter, EscapesStrings) {
  JsonWriter w;
  w.value("a\"b\\c\nd\x01");
  EXPECT_EQ(w.str(), R"("a\"b\\c\nd\u0001")");
}

}  // namespace
}  // namespace ubot
