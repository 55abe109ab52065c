#include "yaml_reader.h"

#include <gtest/gtest.h>

#include <memory>

#include "support/error_of.h"
#include "ubot/core/error.h"

namespace ubot::config {
namespace {

Field parse(const std::string& text) {
  const auto doc = YamlDocument::parse(text, "w.yaml");
  return Field(doc, doc->root(), "", std::make_shared<const std::string>("w.yaml"), YamlMark());
}

using testing_support::error_of;

TEST(YamlReader, ReadsTypedValues) {
  Mapping m(parse("a: 1.5\nb: True\nc: hello\nd: [1, 2, 3]\ne: .inf\nf: 7\n"));
  EXPECT_DOUBLE_EQ(m.number("a", 0), 1.5);
  EXPECT_TRUE(m.boolean("b", false));
  EXPECT_EQ(m.string("c", ""), "hello");
  EXPECT_EQ(m.get("d")->as_numbers(3, 3), (std::vector<double>{1, 2, 3}));
  EXPECT_TRUE(std::isinf(m.number("e", 0)));
  EXPECT_EQ(m.get("f")->as_integer(), 7);
  EXPECT_DOUBLE_EQ(m.number("missing", 4.0), 4.0);
  m.finish();
}

TEST(YamlReader, TypeErrorsNameLineColumnAndPath) {
  Mapping root(parse("robot:\n  - sensors:\n      - range_max: far\n"));
  Mapping robot(root.require("robot").item(0));
  Mapping sensor(robot.require("sensors").item(0));
  const std::string msg = error_of([&] { sensor.number("range_max", 0); });
  EXPECT_EQ(msg, "w.yaml:3:20: robot[0].sensors[0].range_max: expected a number, got 'far'");
}

TEST(YamlReader, UnknownKeySuggestsTheNearest) {
  Mapping m(parse("range_max: 5\nrange_mni: 0\n"));
  m.number("range_max", 0);
  m.number("range_min", 0);
  const std::string msg = error_of([&] { m.finish(); });
  EXPECT_EQ(msg, "w.yaml:2:1: range_mni: unknown key 'range_mni' (did you mean 'range_min'?)");
}

TEST(YamlReader, IntegersRejectFractions) {
  Mapping m(parse("number: 2.5\n"));
  EXPECT_EQ(error_of([&] { m.get("number")->as_integer(); }),
            "w.yaml:1:9: number: expected a whole number, got 2.5");
}

TEST(YamlReader, ChoicesListTheAlternatives) {
  Mapping m(parse("name: cirle\n"));
  EXPECT_EQ(error_of([&] {
              m.get("name")->as_choice({"circle", "rectangle"});
            }),
            "w.yaml:1:7: name: unknown value 'cirle' (expected one of: circle, rectangle); did "
            "you mean 'circle'?");
}

TEST(YamlReader, RangeChecks) {
  Mapping m(parse("r: -1\nz: 0\nn: .nan\n"));
  EXPECT_NE(error_of([&] { m.get("r")->as_positive(); }).find("must be greater than 0"),
            std::string::npos);
  EXPECT_NE(error_of([&] { m.get("z")->as_positive(); }).find("must be greater than 0"),
            std::string::npos);
  EXPECT_NE(error_of([&] { m.get("n")->as_number(); }).find("expected a number"),
            std::string::npos);
}

TEST(YamlReader, ListLengths) {
  Mapping m(parse("p: [1, 2]\nq: 3\n"));
  EXPECT_EQ(error_of([&] { m.get("p")->as_numbers(3, 3); }),
            "w.yaml:1:4: p: expected 3 numbers, got 2");
  EXPECT_EQ(error_of([&] { m.get("q")->as_numbers(3, 3); }),
            "w.yaml:2:4: q: expected a list of 3 numbers, got '3'");
}

TEST(YamlReader, FileErrors) {
  EXPECT_EQ(error_of([] { load_yaml_file("/nonexistent/world.yaml"); }),
            "/nonexistent/world.yaml: file not found");
}

TEST(EditDistance, Basics) {
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(nearest_word("lidr2d", {"lidar2d", "fmcw_lidar2d"}), "lidar2d");
  EXPECT_EQ(nearest_word("zzzzzz", {"lidar2d"}), "");
}

}  // namespace
}  // namespace ubot::config
