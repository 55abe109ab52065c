#include "ubot/core/error.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace ubot {
namespace {

TEST(QuoteValue, QuotesAShortValueWhole) {
  EXPECT_EQ(quote_value("rover"), "'rover'");
  EXPECT_EQ(quote_value(std::string(kQuotedBytes, 'k')),
            "'" + std::string(kQuotedBytes, 'k') + "'");
}

TEST(QuoteValue, QuotesALongValueByItsFirstBytesAndItsLength) {
  const std::string value(25'000'000, 'k');
  EXPECT_EQ(quote_value(value), "'" + std::string(kQuotedBytes, 'k') + "...' (25000000 bytes)");
}

TEST(QuoteValue, CutsOnACharacterBoundary) {
  // 63 ASCII bytes then a 2-byte 'é': byte 64 is the middle of 'é', so the cut keeps 63 bytes.
  const std::string value = std::string(kQuotedBytes - 1, 'a') + "\xC3\xA9" + "tail";
  EXPECT_EQ(quote_value(value), "'" + std::string(kQuotedBytes - 1, 'a') + "...' (" +
                                    std::to_string(value.size()) + " bytes)");
}

TEST(BoundedMessage, KeepsAMessageAtTheLimitWhole) {
  const std::string message(kMessageBytes, 'm');
  EXPECT_EQ(bounded_message(message), message);
}

TEST(BoundedMessage, CutsALongerMessageAndSaysHowLongItWas) {
  const std::string message(kMessageBytes + 1, 'm');
  EXPECT_EQ(bounded_message(message), std::string(kMessageBytes, 'm') + "... (a message of " +
                                          std::to_string(kMessageBytes + 1) + " bytes, cut)");
}

TEST(ErrorFields, AnErrorOfAMessageAloneHasNoLocationAndIsItsOwnReason) {
  const Error e("scene: ray 0 starts too far out");
  EXPECT_FALSE(e.has_location());
  EXPECT_EQ(e.file(), "");
  EXPECT_EQ(e.line(), 0);
  EXPECT_EQ(e.column(), 0);
  EXPECT_EQ(e.key_path(), "");
  EXPECT_EQ(e.reason(), "scene: ray 0 starts too far out");
}

TEST(ErrorFields, TheMessageNamesThePartsTheLocationHas) {
  const Error full({"w.yaml", 3, 36, "robot[0].sensors[0].range_max"}, "expected a number");
  EXPECT_STREQ(full.what(), "w.yaml:3:36: robot[0].sensors[0].range_max: expected a number");
  EXPECT_TRUE(full.has_location());
  EXPECT_EQ(full.file(), "w.yaml");
  EXPECT_EQ(full.line(), 3);
  EXPECT_EQ(full.column(), 36);
  EXPECT_EQ(full.key_path(), "robot[0].sensors[0].range_max");
  EXPECT_EQ(full.reason(), "expected a number");

  const Error no_key({"w.yaml", 2, 6}, "malformed YAML: x");
  EXPECT_STREQ(no_key.what(), "w.yaml:2:6: malformed YAML: x");
  EXPECT_EQ(no_key.reason(), "malformed YAML: x");

  const Error file_only(ErrorLocation("/nowhere/w.yaml"), "file not found");
  EXPECT_STREQ(file_only.what(), "/nowhere/w.yaml: file not found");
  EXPECT_EQ(file_only.file(), "/nowhere/w.yaml");
  EXPECT_EQ(file_only.line(), 0);
  EXPECT_EQ(file_only.reason(), "file not found");

  const Error line_only({"map.pgm", 3, 0}, "PGM: expected the width");
  EXPECT_STREQ(line_only.what(), "map.pgm:3: PGM: expected the width");
  EXPECT_EQ(location_text(line_only.location()), "map.pgm:3");

  const Error unknown_line({"w.yaml", 0, 0, "world.width"}, "bad");
  EXPECT_STREQ(unknown_line.what(), "w.yaml: world.width: bad");
}

TEST(ErrorFields, AFileNameWithColonsAndDigitsStaysInTheFileField) {
  const Error e({"a:1:2/w.yaml", 4, 5, "world.width"}, "expected a number, got 'x: 1'");
  EXPECT_STREQ(e.what(), "a:1:2/w.yaml:4:5: world.width: expected a number, got 'x: 1'");
  EXPECT_EQ(e.file(), "a:1:2/w.yaml");
  EXPECT_EQ(e.line(), 4);
  EXPECT_EQ(e.column(), 5);
  EXPECT_EQ(e.reason(), "expected a number, got 'x: 1'");
}

TEST(ErrorFields, CopiesShareTheLocationAndCatchingAsRuntimeErrorKeepsTheMessage) {
  const Error e({"w.yaml", 1, 2, "k"}, "r");
  const Error copy = e;  // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_EQ(&copy.location(), &e.location());
  EXPECT_EQ(copy.reason(), "r");
  static_assert(std::is_nothrow_copy_constructible_v<Error>);
  try {
    throw Error({"w.yaml", 1, 2, "k"}, "r");
  } catch (const std::runtime_error& caught) {
    EXPECT_STREQ(caught.what(), "w.yaml:1:2: k: r");
  }
}

}  // namespace
}  // namespace ubot
