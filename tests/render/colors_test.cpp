#include <gtest/gtest.h>

#include "ubot/render/drawing.h"

namespace ubot::render {
namespace {

void expect_rgb(const std::string& text, int r, int g, int b, double a = 1.0) {
  SCOPED_TRACE(text);
  const std::optional<Color> color = parse_color(text);
  ASSERT_TRUE(color.has_value());
  EXPECT_NEAR(color->r, r / 255.0, 1e-9);
  EXPECT_NEAR(color->g, g / 255.0, 1e-9);
  EXPECT_NEAR(color->b, b / 255.0, 1e-9);
  EXPECT_NEAR(color->a, a, 1e-9);
}

void expect_unit(const std::string& text, double r, double g, double b) {
  SCOPED_TRACE(text);
  const std::optional<Color> color = parse_color(text);
  ASSERT_TRUE(color.has_value());
  EXPECT_DOUBLE_EQ(color->r, r);
  EXPECT_DOUBLE_EQ(color->g, g);
  EXPECT_DOUBLE_EQ(color->b, b);
  EXPECT_DOUBLE_EQ(color->a, 1.0);
}

TEST(ParseColor, Css4Names) {
  expect_rgb("royalblue", 0x41, 0x69, 0xE1);
  expect_rgb("orangered", 0xFF, 0x45, 0x00);
  expect_rgb("mediumorchid", 0xBA, 0x55, 0xD3);
  expect_rgb("limegreen", 0x32, 0xCD, 0x32);
  expect_rgb("gold", 0xFF, 0xD7, 0x00);
  expect_rgb("cyan", 0x00, 0xFF, 0xFF);
  expect_rgb("magenta", 0xFF, 0x00, 0xFF);
  expect_rgb("lime", 0x00, 0xFF, 0x00);
  expect_rgb("pink", 0xFF, 0xC0, 0xCB);
  expect_rgb("brown", 0xA5, 0x2A, 0x2A);
  expect_rgb("purple", 0x80, 0x00, 0x80);
  expect_rgb("orange", 0xFF, 0xA5, 0x00);
  expect_rgb("green", 0x00, 0x80, 0x00);  // CSS green, not lime
  expect_rgb("aliceblue", 0xF0, 0xF8, 0xFF);
  expect_rgb("yellowgreen", 0x9A, 0xCD, 0x32);
  expect_rgb("rebeccapurple", 0x66, 0x33, 0x99);
  expect_rgb("lightgoldenrodyellow", 0xFA, 0xFA, 0xD2);
}

TEST(ParseColor, GreyAndGraySpellingsAgree) {
  expect_rgb("grey", 0x80, 0x80, 0x80);
  expect_rgb("gray", 0x80, 0x80, 0x80);
  expect_rgb("darkslategrey", 0x2F, 0x4F, 0x4F);
  expect_rgb("darkslategray", 0x2F, 0x4F, 0x4F);
  expect_rgb("lightgrey", 0xD3, 0xD3, 0xD3);
  expect_rgb("dimgrey", 0x69, 0x69, 0x69);
}

TEST(ParseColor, CaseInsensitive) {
  expect_rgb("RoyalBlue", 0x41, 0x69, 0xE1);
  expect_rgb("ORANGERED", 0xFF, 0x45, 0x00);
  expect_rgb("Tab:Blue", 0x1F, 0x77, 0xB4);
  expect_rgb("#FFaa00", 0xFF, 0xAA, 0x00);
  expect_unit("K", 0.0, 0.0, 0.0);
}

TEST(ParseColor, MatplotlibBaseCodes) {
  expect_unit("b", 0.0, 0.0, 1.0);
  expect_unit("g", 0.0, 0.5, 0.0);
  expect_unit("r", 1.0, 0.0, 0.0);
  expect_unit("c", 0.0, 0.75, 0.75);
  expect_unit("m", 0.75, 0.0, 0.75);
  expect_unit("y", 0.75, 0.75, 0.0);
  expect_unit("k", 0.0, 0.0, 0.0);
  expect_unit("w", 1.0, 1.0, 1.0);
}

TEST(ParseColor, Tab10AndCycle) {
  expect_rgb("tab:blue", 0x1F, 0x77, 0xB4);
  expect_rgb("tab:orange", 0xFF, 0x7F, 0x0E);
  expect_rgb("tab:green", 0x2C, 0xA0, 0x2C);
  expect_rgb("tab:red", 0xD6, 0x27, 0x28);
  expect_rgb("tab:cyan", 0x17, 0xBE, 0xCF);
  expect_rgb("tab:gray", 0x7F, 0x7F, 0x7F);
  expect_rgb("tab:grey", 0x7F, 0x7F, 0x7F);
  expect_rgb("C0", 0x1F, 0x77, 0xB4);
  expect_rgb("C3", 0xD6, 0x27, 0x28);
}

TEST(ParseColor, Hex) {
  expect_rgb("#4169e1", 0x41, 0x69, 0xE1);
  expect_rgb("#ff000080", 0xFF, 0x00, 0x00, 0x80 / 255.0);
  expect_rgb("#f80", 0xFF, 0x88, 0x00);
  expect_rgb("#f808", 0xFF, 0x88, 0x00, 0x88 / 255.0);
}

TEST(ParseColor, NoneIsTransparent) {
  const std::optional<Color> none = parse_color("none");
  ASSERT_TRUE(none.has_value());
  EXPECT_EQ(none->a, 0.0);
  ASSERT_TRUE(parse_color("None").has_value());
}

TEST(ParseColor, GreyLevelString) {
  expect_unit("0.75", 0.75, 0.75, 0.75);
  expect_unit("0", 0.0, 0.0, 0.0);
  expect_unit("1", 1.0, 1.0, 1.0);
}

TEST(ParseColor, UnknownIsNullopt) {
  for (const std::string text :
       {"", "notacolor", "royal blue", "x", "#12345", "#ggg", "#", "#1234567", "tab:nope",
        "tab:", "C10", "1.5", "-0.1", "nan", "0.5x", " red", "xkcd:sky blue"}) {
    EXPECT_FALSE(parse_color(text).has_value()) << "'" << text << "'";
  }
}

}  // namespace
}  // namespace ubot::render
