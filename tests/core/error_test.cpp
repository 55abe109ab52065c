#include "ubot/core/error.h"

#include <gtest/gtest.h>

#include <string>

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

}  // namespace
}  // namespace ubot
