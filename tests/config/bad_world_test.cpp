// Every kind of bad world file gets a message naming the file, line, column and key path.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "load_error.h"
#include "ubot/config/load_world.h"
#include "ubot/core/error.h"

namespace ubot {
namespace {

using testing_support::BadCase;

std::string error_of(const std::string& yaml) { return testing_support::load_error(yaml); }

const BadCase kCases[] = {
    {"unknown top-level key", "wrld: {height: 10}\n",
     "bad.yaml:1:1: wrld: unknown key 'wrld' (did you mean 'world'?)"},
    {"unknown object key", "robot:\n  - kinematic: {name: diff}\n",
     "bad.yaml:2:5: robot[0].kinematic: unknown key 'kinematic' (did you mean 'kinematics'?)"
     "; IR-SIM 2.12.0 has none either (docs/irsim-keys.md)"},
    {"misspelt shape name", "obstacle:\n  - shape: {name: cirle, radius: 1}\n",
     "bad.yaml:2:19: obstacle[0].shape.name: unknown value 'cirle' (expected one of: circle, "
     "rectangle, polygon, linestring, box, sphere, cylinder, mesh, compound); did you mean "
     "'circle'?"},
    {"wrong type", "robot:\n  - sensors:\n      - {name: lidar2d, range_max: far}\n",
     "bad.yaml:3:36: robot[0].sensors[0].range_max: expected a number, got 'far'"},
    {"negative radius", "obstacle:\n  - shape: {name: circle, radius: -1}\n",
     "bad.yaml:2:35: obstacle[0].shape.radius: must be greater than 0, got -1"},
    {"polygon with two vertices",
     "obstacle:\n  - shape: {name: polygon, vertices: [[0, 0], [1, 1]]}\n",
     "bad.yaml:2:38: obstacle[0].shape.vertices: needs at least 3 vertices, got 2"},
    {"number 0", "robot:\n  - number: 0\n",
     "bad.yaml:2:13: robot[0].number: must be at least 1, got 0"},
    {"number 2.5", "robot:\n  - number: 2.5\n",
     "bad.yaml:2:13: robot[0].number: expected a whole number, got 2.5"},
    {"malformed YAML", "world: {height: 10\nrobot: []\n",
     "bad.yaml:2:6: malformed YAML: did not find expected ',' or '}' (while parsing a flow "
     "mapping at line 1, column 8)"},
    {"lidar with 0 beams", "robot:\n  - sensors:\n      - {name: lidar2d, number: 0}\n",
     "bad.yaml:3:33: robot[0].sensors[0].number: a lidar needs at least 1 beam, got 0"},
    {"range_min > range_max",
     "robot:\n  - sensors:\n      - {name: lidar2d, range_min: 6, range_max: 5}\n",
     "bad.yaml:3:36: robot[0].sensors[0].range_min: range_min (6) must not exceed range_max (5)"},
    {"unknown collision mode", "world: {collision_mode: bounce}\n",
     "bad.yaml:1:25: world.collision_mode: unknown value 'bounce' (expected one of: stop, "
     "unobstructed, unobstructed_obstacles, reactive, contact)"},
    {"unknown sensor type", "robot:\n  - sensors:\n      - {name: lidar3}\n",
     "bad.yaml:3:16: robot[0].sensors[0].name: unknown value 'lidar3' (expected one of: lidar2d, "
     "fmcw_lidar2d, lidar3d, imu, depth_camera, rgb_camera, contact2d); did you mean 'lidar3d'?"},
    {"unknown kinematics", "robot:\n  - kinematics: {name: tank}\n",
     "bad.yaml:2:24: robot[0].kinematics.name: unknown value 'tank' (expected one of: diff, omni, "
     "omni_angular, acker, static)"},
    {"state too short", "robot:\n  - state: [1]\n",
     "bad.yaml:2:12: robot[0].state: expected 2 to 4 numbers, got 1"},
    {"bool expected", "obstacle:\n  - static: maybe\n",
     "bad.yaml:2:13: obstacle[0].static: expected true or false, got 'maybe'"},
    {"negative step time", "world: {step_time: -0.1}\n",
     "bad.yaml:1:20: world.step_time: must be greater than 0, got -0.1"},
    {"vel_min above vel_max", "robot:\n  - vel_min: [2, -1]\n    vel_max: [1, 1]\n",
     "bad.yaml:2:14: robot[0].vel_min: vel_min[0] = 2 exceeds vel_max[0] = 1"},
    {"rvo on acker", "robot:\n  - kinematics: {name: acker}\n    behavior: {name: rvo}\n",
     "bad.yaml:3:22: robot[0].behavior.name: behavior 'rvo' is available for diff and omni "
     "kinematics, not acker"},
    {"duplicate names", "robot:\n  - name: a\n  - name: a\n",
     "bad.yaml: object name 'a' is used twice; names must be unique"},
    {"top level is a list", "- 1\n- 2\n",
     "bad.yaml:1:1: expected a mapping at the top level (world:, robot:, ...)"},
};

TEST(BadWorld, EveryCaseHasAPreciseMessage) {
  for (const BadCase& c : kCases) {
    EXPECT_EQ(error_of(c.yaml), c.message) << c.what;
  }
}

// Every case's error carries the parts its message names as fields (Error::location()), and
// the message is exactly those parts and the reason: nothing is left for a reader to parse.
TEST(BadWorld, EveryCaseCarriesItsLocationAsFields) {
  for (const BadCase& c : kCases) {
    try {
      load_world_from_string(c.yaml, "bad.yaml");
      ADD_FAILURE() << c.what << ": no error";
    } catch (const Error& e) {
      EXPECT_TRUE(e.has_location()) << c.what;
      EXPECT_EQ(e.file(), "bad.yaml") << c.what;
      const std::string where =
          e.line() > 0 ? fmt::format("{}:{}:{}", e.file(), e.line(), e.column()) : e.file();
      const std::string key = e.key_path().empty() ? "" : fmt::format("{}: ", e.key_path());
      EXPECT_EQ(fmt::format("{}: {}{}", where, key, e.reason()), e.what()) << c.what;
    }
  }
}

TEST(BadWorld, MissingAndEmptyFiles) {
  try {
    load_world("/nonexistent/dir/world.yaml");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/dir/world.yaml: file not found");
  }
  const std::string empty = testing::TempDir() + "/empty_world.yaml";
  std::ofstream(empty) << "  \n# only a comment\n";
  try {
    load_world(empty);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), empty + ": the file is empty");
  }
}

}  // namespace
}  // namespace ubot
