// A world's load errors carry their file, line, column and key path as fields
// (ubot::Error::location()), equal to what the message says: the Python module's WorldError
// reads them from there, never from the text.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "ubot/config/load_world.h"
#include "ubot/core/error.h"

namespace ubot {
namespace {

// What an unknown key of one of IR-SIM's places adds (config/irsim_keys.h).
const std::string kIrsimNote = "; IR-SIM 2.12.0 has none either (docs/irsim-keys.md)";

// The error loading `load` gives (a test fails when it loads).
template <class F>
Error error_of_load(F&& load) {
  try {
    load();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "loaded without error";
  return Error("loaded without error");
}

Error fields_of_file(const std::string& path) {
  return error_of_load([&] { load_world(path); });
}

Error fields_of_string(const std::string& yaml) {
  return error_of_load([&] { load_world_from_string(yaml, "w.yaml"); });
}

// A folder whose name holds ':' and digits, as a message's "file:line:column" does: text
// parsing took "a" for the file, 1 and 2 for the line and column.
std::string folder_named_like_a_location() {
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "a:1:2";
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::string write_world_file(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

TEST(LoadErrorFields, ABadKeyInAWorldFileCarriesFileLineColumnAndKeyPath) {
  const std::string path = write_world_file(testing::TempDir() + "/bad_key.yaml",
                                            "world: {width: 10}\n"
                                            "robot:\n"
                                            "  - kinematics: {name: diff}\n"
                                            "    sensorz: []\n");
  const Error e = fields_of_file(path);
  EXPECT_EQ(std::string(e.what()),
            path + ":4:5: robot[0].sensorz: unknown key 'sensorz' (did you mean 'sensors'?)" +
                kIrsimNote);
  EXPECT_TRUE(e.has_location());
  EXPECT_EQ(e.file(), path);
  EXPECT_EQ(e.line(), 4);
  EXPECT_EQ(e.column(), 5);
  EXPECT_EQ(e.key_path(), "robot[0].sensorz");
  EXPECT_EQ(e.reason(), "unknown key 'sensorz' (did you mean 'sensors'?)" + kIrsimNote);
}

TEST(LoadErrorFields, ABadValueInANestedListCarriesItsIndexedKeyPath) {
  const Error e = fields_of_string(
      "robot:\n"
      "  - state: [1, 1, 0]\n"
      "  - state: [3, 1, 0]\n"
      "    sensors:\n"
      "      - {name: lidar2d, range_max: far}\n");
  EXPECT_EQ(std::string(e.what()),
            "w.yaml:5:36: robot[1].sensors[0].range_max: expected a number, got 'far'");
  EXPECT_EQ(e.file(), "w.yaml");
  EXPECT_EQ(e.line(), 5);
  EXPECT_EQ(e.column(), 36);
  EXPECT_EQ(e.key_path(), "robot[1].sensors[0].range_max");
  EXPECT_EQ(e.reason(), "expected a number, got 'far'");
}

TEST(LoadErrorFields, AFolderNamedLikeALocationStaysInTheFile) {
  const std::string path =
      write_world_file(folder_named_like_a_location() + "/w.yaml", "world:\n  width: wide\n");
  const Error e = fields_of_file(path);
  EXPECT_EQ(std::string(e.what()), path + ":2:10: world.width: expected a number, got 'wide'");
  EXPECT_EQ(e.file(), path);
  EXPECT_EQ(e.line(), 2);
  EXPECT_EQ(e.column(), 10);
  EXPECT_EQ(e.key_path(), "world.width");

  const Error missing = fields_of_file(folder_named_like_a_location() + "/missing.yaml");
  EXPECT_EQ(missing.file(), folder_named_like_a_location() + "/missing.yaml");
  EXPECT_EQ(missing.line(), 0);
  EXPECT_EQ(missing.column(), 0);
  EXPECT_EQ(missing.key_path(), "");
  EXPECT_EQ(missing.reason(), "file not found");
}

TEST(LoadErrorFields, ErrorsOfTheWholeFileCarryTheFileAlone) {
  const std::string empty =
      write_world_file(testing::TempDir() + "/empty_for_fields.yaml", "# nothing\n");
  const Error e = fields_of_file(empty);
  EXPECT_EQ(e.file(), empty);
  EXPECT_EQ(e.line(), 0);
  EXPECT_EQ(e.reason(), "the file is empty");

  const Error names = fields_of_string("robot:\n  - name: a\n  - name: a\n");
  EXPECT_EQ(names.file(), "w.yaml");
  EXPECT_EQ(names.line(), 0);
  EXPECT_EQ(names.key_path(), "");
  EXPECT_EQ(names.reason(), "object name 'a' is used twice; names must be unique");

  const Error directory = fields_of_file(folder_named_like_a_location());
  EXPECT_EQ(directory.file(), folder_named_like_a_location());
  EXPECT_EQ(directory.reason(), "is a directory, not a world file");
}

TEST(LoadErrorFields, YamlSyntaxErrorsCarryLineAndColumnWithoutAKeyPath) {
  const Error malformed = fields_of_string("world: {height: 10\nrobot: []\n");
  EXPECT_EQ(malformed.file(), "w.yaml");
  EXPECT_EQ(malformed.line(), 2);
  EXPECT_EQ(malformed.column(), 6);
  EXPECT_EQ(malformed.key_path(), "");
  EXPECT_EQ(malformed.reason(),
            "malformed YAML: did not find expected ',' or '}' (while parsing a flow mapping at "
            "line 1, column 8)");

  const Error duplicate = fields_of_string("world: {width: 1}\nworld: {width: 2}\n");
  EXPECT_EQ(duplicate.line(), 2);
  EXPECT_EQ(duplicate.column(), 1);
  EXPECT_EQ(duplicate.key_path(), "");

  const Error anchor = fields_of_string("robot: *nothing\n");
  EXPECT_EQ(anchor.line(), 1);
  EXPECT_EQ(anchor.column(), 8);
  EXPECT_EQ(anchor.reason(), "unknown anchor 'nothing'");

  const Error utf8 = fields_of_string("world:\n  name: \xff\n");
  EXPECT_EQ(utf8.line(), 2);
  EXPECT_EQ(utf8.column(), 9);
  EXPECT_EQ(utf8.reason(), "invalid UTF-8 (byte 0xFF); a world file must be UTF-8 text");

  const Error list = fields_of_string("- 1\n");
  EXPECT_EQ(list.line(), 1);
  EXPECT_EQ(list.column(), 1);
  EXPECT_EQ(list.reason(), "expected a mapping at the top level (world:, robot:, ...)");
}

TEST(LoadErrorFields, TwoReceiversDrivingOneObjectCarryTheLaterDeclaration) {
  const Error e = fields_of_string(
      "robot:\n"
      "  - ros2: {target: robot_1}\n"
      "  - kinematics: {name: omni}\n");
  EXPECT_EQ(e.file(), "w.yaml");
  EXPECT_EQ(e.line(), 3);
  EXPECT_EQ(e.column(), 5);
  EXPECT_EQ(e.key_path(), "robot[1]");
  EXPECT_EQ(e.reason().substr(0, 72),
            "the cmd_vel receivers of robot_1 and of robot_0 (w.yaml:2:20: robot[0].r");
}

TEST(LoadErrorFields, AnUnknownTopLevelKeyHasItAsItsKeyPath) {
  const Error e = fields_of_string("wrld: {height: 10}\n");
  EXPECT_EQ(e.line(), 1);
  EXPECT_EQ(e.column(), 1);
  EXPECT_EQ(e.key_path(), "wrld");
  EXPECT_EQ(e.reason(), "unknown key 'wrld' (did you mean 'world'?)");
}

}  // namespace
}  // namespace ubot
