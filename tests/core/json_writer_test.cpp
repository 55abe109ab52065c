#include "ubot/core/json_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

namespace ubot {
namespace {

TEST(JsonWriter, WritesNestedStructures) {
  JsonWriter w;
  w.begin_object().key("a").value(1).key("b").begin_array().value(true).null().value("x");
  w.end_array().key("c").begin_object().end_object().end_object();
  EXPECT_EQ(w.str(), R"({"a":1,"b":[true,null,"x"],"c":{}})");
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

TEST(JsonWriter, NonFiniteBecomesNull) {
  JsonWriter w;
  const std::vector<double> v = {std::numeric_limits<double>::infinity(), std::nan("")};
  w.array(v);
  EXPECT_EQ(w.str(), "[null,null]");
}

TEST(JsonWriter, EscapesStrings) {
  JsonWriter w;
  w.value("a\"b\\c\nd\x01");
  EXPECT_EQ(w.str(), R"("a\"b\\c\nd\u0001")");
}

}  // namespace
}  // namespace ubot
