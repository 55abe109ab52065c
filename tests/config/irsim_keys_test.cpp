// The compatibility rule for keys (docs/irsim-keys.md) and the IR-SIM keys issue 13 added:
// random shapes, compound shapes, omni_angular, state_dim, has_velocity, fog_map.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>

#include "irsim_keys.h"
#include "load_error.h"

namespace ubot {
namespace {

using testing_support::load_error;

WorldModel load_irsim(const std::string& yaml) { return load_world_from_string(yaml, "keys.yaml"); }

bool has_warning(const WorldModel& m, const std::string& text) {
  return std::any_of(m.warnings.begin(), m.warnings.end(),
                     [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

// A world with `key: value` at `place`.
std::string world_with(config::KeyPlace place, const std::string& key) {
  using config::KeyPlace;
  const std::string v = key == "is_convex"                                 ? "true"
                        : key == "mode"                                    ? "rvo"
                        : key.ends_with("_range") && key != "center_range" ? "[0.1, 0.5]"
                        : key == "center_range"                            ? "[0, 0, 1, 1]"
                        : key == "step_mode"                               ? "internal"
                        : key == "non_overlapping"                         ? "true"
                        : key == "angle_range"                             ? "[-3.14, 3.14]"
                                                                           : "1";
  switch (place) {
    case KeyPlace::kWorld:
      return "world: {" + key + ": " + v + "}\n";
    case KeyPlace::kObject:
      return "robot:\n  - shape: {name: circle}\n    " + key + ": " + v + "\n";
    case KeyPlace::kKinematics:
      return "robot:\n  - kinematics: {name: diff, " + key + ": " + v + "}\n";
    case KeyPlace::kAnyKinematics:  // an acker's too
      return "robot:\n  - kinematics: {name: acker, " + key + ": " + v + "}\n";
    case KeyPlace::kDashBehavior:
      return "robot:\n  - kinematics: {name: diff}\n    behavior: {name: dash, " + key + ": " + v +
             "}\n";
    case KeyPlace::kRvoBehavior:
      return "robot:\n  - kinematics: {name: diff}\n    behavior: {name: rvo, " + key + ": " + v +
             "}\n";
    case KeyPlace::kDistribution:
      return "robot:\n  - number: 2\n    distribution: {name: random, " + key + ": " + v + "}\n";
    case KeyPlace::kShape:
      return "robot:\n  - shape: {name: polygon, " + key + ": " + v + "}\n";
    case KeyPlace::kLidar2d:
      break;
  }
  return "";
}

TEST(IrsimKeys, EveryAcceptedAndIgnoredKeyLoadsWithItsWarningAndIsDocumented) {
  std::ifstream in(std::string(UBOT_SOURCE_DIR) + "/docs/irsim-keys.md");
  std::stringstream docs;
  docs << in.rdbuf();
  ASSERT_FALSE(config::ignored_irsim_keys().empty());
  for (const config::IgnoredIrsimKey& k : config::ignored_irsim_keys()) {
    const std::string key(k.key);
    SCOPED_TRACE(key);
    const WorldModel m = load_irsim(world_with(k.place, key));
    EXPECT_TRUE(has_warning(
        m, "." + key + ": IR-SIM's key is accepted and ignored: " + std::string(k.reason)));
    EXPECT_NE(docs.str().find("`" + key + "`"), std::string::npos) << "not in docs/irsim-keys.md";
  }
}

TEST(IrsimKeys, OneWarningForAGroupSharingTheKey) {
  const WorldModel m = load_irsim(
      "robot:\n  - number: 5\n    kinematics: {name: diff}\n    behavior: {name: dash, vxmax: "
      "2}\n");
  EXPECT_EQ(
      std::count_if(m.warnings.begin(), m.warnings.end(),
                    [](const std::string& w) { return w.find("vxmax") != std::string::npos; }),
      1);
}

TEST(IrsimKeys, AKeyIrsimDoesNotKnowStaysAnError) {
  EXPECT_EQ(
      load_error("robot:\n  - kinematics: {name: diff}\n    behavior: {name: dash, "
                 "angle_tolerence: 0.2}\n"),
      "bad.yaml:3:28: robot[0].behavior.angle_tolerence: unknown key 'angle_tolerence' "
      "(did you mean 'angle_tolerance'?); IR-SIM 2.12.0 has none either (docs/irsim-keys.md)");
  EXPECT_EQ(load_error("robot:\n  - shape: {name: circle}\n    state_dims: 3\n"),
            "bad.yaml:3:5: robot[0].state_dims: unknown key 'state_dims' (did you mean "
            "'state_dim'?); IR-SIM 2.12.0 has none either (docs/irsim-keys.md)");
  // A rectangle's keys are IR-SIM's RectangleGeometry's only: no random ranges.
  EXPECT_NE(load_error("robot:\n  - shape: {name: rectangle, center_rang: [0, 0, 1, 1]}\n")
                .find("unknown key 'center_rang'"),
            std::string::npos);
}

// IR-SIM 2.12.0's keys that ubot reads with their meaning.
TEST(IrsimKeys, WorldFrictionAndRestitutionAreTheObjectsDefaults) {
  const WorldModel m = load_irsim(
      "world: {collision_mode: contact, friction: 0.9, restitution: 0.3}\n"
      "obstacle:\n  - shape: {name: circle}\n    mass: 1\n"
      "  - shape: {name: circle}\n    mass: 1\n    friction: 0.1\n    restitution: 0\n");
  ASSERT_EQ(m.objects.size(), 2u);
  EXPECT_EQ(m.objects[0].physics.friction, 0.9);
  EXPECT_EQ(m.objects[0].physics.restitution, 0.3);
  EXPECT_EQ(m.objects[1].physics.friction, 0.1);  // an object's own value wins
  EXPECT_EQ(m.objects[1].physics.restitution, 0.0);
  const WorldModel plain = load_irsim("obstacle:\n  - shape: {name: circle}\n");
  EXPECT_EQ(plain.objects[0].physics.friction, PhysicsModel{}.friction);
  EXPECT_EQ(load_error("world: {restitution: 1.5}\n"),
            "bad.yaml:1:22: world.restitution: must be between 0 and 1, got 1.5");
}

TEST(IrsimKeys, ColorCycleGivesTheGroupIrsimsPaletteInTurn) {
  const WorldModel m = load_irsim(
      "robot:\n  - number: 9\n    distribution: {name: circle, radius: 3, center: [5, 5]}\n"
      "    kinematics: {name: diff}\n    color: cycle\n"
      "obstacle:\n  - number: 2\n    shape: {name: circle}\n    color: cycle\n"
      "    distribution: {name: manual}\n    state: [[1, 1, 0], [3, 3, 0]]\n");
  ASSERT_EQ(m.objects.size(), 11u);
  // IR-SIM 2.12.0's palette_param.DEFAULT_CYCLE, per group, wrapping after 8.
  EXPECT_EQ(m.objects[0].color, "#009E73");
  EXPECT_EQ(m.objects[1].color, "#0072B2");
  EXPECT_EQ(m.objects[7].color, "#117733");
  EXPECT_EQ(m.objects[8].color, "#009E73");
  EXPECT_EQ(m.objects[9].color, "#009E73");  // the next group starts again
  EXPECT_EQ(m.objects[10].color, "#0072B2");
}

TEST(IrsimKeys, CustomValuesAndAnIrsimBlockOfASharedFile) {
  // `custom:` is the user's own: accepted whatever it holds.
  EXPECT_EQ(load_irsim("custom: {safe_margin: 0.3, list: [1, 2]}\nrobot:\n"
                       "  - shape: {name: circle}\n")
                .objects.size(),
            1u);
  // A file shared with another simulator: IR-SIM's blocks under `irsim:`, the rest not ours.
  const WorldModel shared = load_irsim(
      "other_simulator: {anything: [1, 2, 3]}\n"
      "irsim:\n  world: {width: 7, height: 8}\n  robot:\n    - shape: {name: circle}\n");
  EXPECT_EQ(shared.world.width, 7.0);
  EXPECT_EQ(shared.objects.size(), 1u);
  // Without it, an unknown top-level block is still an error.
  EXPECT_NE(load_error("other_simulator: {anything: 1}\n").find("unknown key 'other_simulator'"),
            std::string::npos);
}

TEST(IrsimKeys, StateDim) {
  EXPECT_FALSE(has_warning(load_irsim("robot:\n  - kinematics: {name: diff}\n    state_dim: 3\n"),
                           "state_dim"));
  EXPECT_TRUE(has_warning(load_irsim("robot:\n  - kinematics: {name: diff}\n    state_dim: 5\n"),
                          "state_dim 5 is accepted; ubot's diff state keeps its 3 values"));
  EXPECT_EQ(load_error("robot:\n  - kinematics: {name: acker}\n    state_dim: 3\n"),
            "bad.yaml:3:16: robot[0].state_dim: acker kinematics need a state_dim of at least 4, "
            "got 3");
}

TEST(RandomShape, CirclesDrawTheirRadiusInTheRange) {
  const WorldModel m = load_irsim(
      "obstacle:\n  - number: 200\n    shape: {name: circle, random_shape: true, radius: 5, "
      "radius_range: [0.3, 0.4]}\n");
  double low = 1.0, high = 0.0;
  for (const ObjectModel& o : m.objects) {
    low = std::min(low, o.shape.radius);
    high = std::max(high, o.shape.radius);
  }
  EXPECT_GE(low, 0.3);
  EXPECT_LT(high, 0.4);
  EXPECT_LT(low, 0.31);  // 200 uniform draws reach both ends of the range
  EXPECT_GT(high, 0.39);
}

TEST(RandomShape, ConvexPolygonsHaveEveryVertexAtTheAverageRadius) {
  const WorldModel m = load_irsim(
      "obstacle:\n  - number: 50\n    shape: {name: polygon, random_shape: true, is_convex: true, "
      "avg_radius_range: [1, 1], num_vertices_range: [5, 6], center_range: [2, 3, 2, 3]}\n");
  for (const ObjectModel& o : m.objects) {
    ASSERT_EQ(o.shape.vertices.size(), 5u);  // [5, 6): the high end is excluded, as numpy's
    for (const Eigen::Vector2d& v : o.shape.vertices) {
      EXPECT_NEAR((v - Eigen::Vector2d(2, 3)).norm(), 1.0, 1e-12);
    }
  }
}

TEST(RandomShape, SameSeedSameShapesAndObjectsDrawTheirOwn) {
  const std::string yaml =
      "obstacle:\n  - number: 2\n    shape: {name: polygon, random_shape: true}\n";
  const WorldModel a = load_irsim(yaml), b = load_irsim(yaml);
  EXPECT_EQ(a.objects[0].shape.vertices, b.objects[0].shape.vertices);
  EXPECT_NE(a.objects[0].shape.vertices, a.objects[1].shape.vertices);
  const WorldModel c = load_world_from_string(yaml, "keys.yaml", {.seed = 7});
  EXPECT_NE(a.objects[0].shape.vertices, c.objects[0].shape.vertices);
}

TEST(RandomShape, BadInput) {
  EXPECT_EQ(load_error("obstacle:\n  - shape: {name: rectangle, random_shape: true}\n"),
            "bad.yaml:2:44: obstacle[0].shape.random_shape: IR-SIM draws random circles, "
            "polygons and linestrings only");
  EXPECT_EQ(load_error("obstacle:\n  - shape: {name: polygon, random_shape: true, "
                       "irregularity_range: [0, 1.5]}\n"),
            "bad.yaml:2:72: obstacle[0].shape.irregularity_range[1]: must be in [0, 1], got 1.5");
  EXPECT_NE(load_error("obstacle:\n  - shape: {name: polygon, random_shape: true, "
                       "num_vertices_range: [4, 4]}\n")
                .find("expected [low, high) with 3 <= low < high"),
            std::string::npos);
}

TEST(Compound, PartsArePlacedByTheirPose) {
  const WorldModel m = load_irsim(R"(
robot:
  - shape:
      name: compound
      parts:
        - {name: rectangle, length: 0.8, width: 0.3}
        - {name: circle, radius: 0.2, pose: [1, 0, 0]}
        - {name: rectangle, length: 0.4, width: 0.2, pose: [0, 1, 1.5707963267948966]}
)");
  const ShapeModel& s = m.objects[0].shape;
  ASSERT_EQ(s.parts.size(), 3u);
  EXPECT_EQ(s.parts[1].center, Eigen::Vector2d(1, 0));
  // The third part turned a quarter: its (-0.2, -0.1) corner is at (0.1, 0.8).
  EXPECT_NEAR((s.parts[2].vertices[0] - Eigen::Vector2d(0.1, 0.8)).norm(), 0.0, 1e-12);
  // The outline is the parts' hull: it reaches the circle's far side.
  EXPECT_NEAR(s.bounding_circle().radius, s.bounding_radius(), 0.0);
  double reach = 0.0;
  for (const Eigen::Vector2d& v : s.vertices) reach = std::max(reach, v.x());
  EXPECT_NEAR(reach, 1.2, 1e-12);
}

TEST(Compound, BadInput) {
  EXPECT_EQ(load_error("robot:\n  - shape: {name: compound, parts: []}\n"),
            "bad.yaml:2:36: robot[0].shape.parts: expected a non-empty list of parts");
  EXPECT_EQ(
      load_error("robot:\n  - shape: {name: compound, parts: [{name: circle, color: red}]}\n"),
      "bad.yaml:2:59: robot[0].shape.parts[0].color: compound parts have no colour of their "
      "own (as in IR-SIM): colour the object");
  EXPECT_NE(load_error("robot:\n  - shape: {name: compound, parts: [{name: linestring, vertices: "
                       "[[0, 0], [1, 0]]}]}\n")
                .find("unknown value 'linestring'"),
            std::string::npos);
}

TEST(OmniAngular, ThreeComponentLimits) {
  const WorldModel m = load_irsim("robot:\n  - kinematics: {name: omni_angular}\n");
  const ObjectModel& o = m.objects[0];
  EXPECT_EQ(o.vel_max, (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(o.vel_min, (std::vector<double>{-1, -1, -1}));
  EXPECT_EQ(o.kinematics.alpha, (std::vector<double>{0.03, 0.03, 0.03}));
  EXPECT_EQ(load_error("robot:\n  - kinematics: {name: omni_angular}\n    vel_max: [1, 1]\n"),
            "bad.yaml:3:14: robot[0].vel_max: expected 3 numbers, got 2");
  EXPECT_NE(load_error("robot:\n  - kinematics: {name: omni_angular}\n    behavior: {name: rvo}\n")
                .find("behavior 'rvo' is available for diff and omni kinematics, not omni_angular"),
            std::string::npos);
}

TEST(Lidar2d, HasVelocity) {
  const WorldModel m =
      load_irsim("robot:\n  - sensors:\n      - {type: lidar2d, has_velocity: true}\n");
  EXPECT_TRUE(std::get<Lidar2dModel>(m.objects[0].sensors[0].params).has_velocity);
  EXPECT_NE(load_error("robot:\n  - sensors:\n      - {type: fmcw_lidar2d, has_velocity: true}\n")
                .find("applies to lidar2d; fmcw_lidar2d reports radial_velocity instead"),
            std::string::npos);
}

TEST(FogMapSettings, ReadFromTheWorld) {
  const WorldModel m = load_irsim("world: {fog_map: true, fog_map_resolution: 0.25}\n");
  EXPECT_TRUE(m.world.fog_map);
  EXPECT_EQ(m.world.fog_map_resolution, 0.25);
  EXPECT_FALSE(load_irsim("world: {}\n").world.fog_map);
  EXPECT_EQ(load_error("robot:\n  - number: 2\n    distribution: {name: random, 3d: true}\n"),
            "bad.yaml:3:38: robot[0].distribution.3d: 3D state generation is not implemented "
            "(IR-SIM raises NotImplementedError)");
}

}  // namespace
}  // namespace ubot

namespace ubot {
namespace {

// Issue 48: the key rule follows IR-SIM 2.12.0, and an unknown key of one of IR-SIM's places
// says that IR-SIM 2.12.0 has none either, naming the later release that added it when ubot knows
// one, and the docs page. ubot's own places (media, ROS 2, ...) say nothing about IR-SIM.
TEST(IrsimKeyRule, AnUnknownObjectKeySaysIrsim212HasNoneEither) {
  const std::string error =
      load_error("robot:\n  - shape: {name: circle}\n    goal_treshold: 0.2\n");
  EXPECT_NE(error.find("bad.yaml:3:5: robot[0].goal_treshold: unknown key 'goal_treshold' (did "
                       "you mean 'goal_threshold'?); IR-SIM 2.12.0 has none either "
                       "(docs/irsim-keys.md)"),
            std::string::npos)
      << error;
}

TEST(IrsimKeyRule, EveryIrsimPlaceNotesItsUnknownKeys) {
  for (const std::string& yaml :
       {std::string("world: {height: 10, gravity_z: 1}\n"),
        std::string("robot:\n  - kinematics: {name: diff, tau_x: 1}\n"),
        std::string(
            "robot:\n  - kinematics: {name: diff}\n    behavior: {name: rvo, polygons: 1}\n"),
        std::string("robot:\n  - number: 2\n    distribution: {name: random, spread: 1}\n"),
        std::string("robot:\n  - shape: {name: circle, radius: 1, theme: dark}\n")}) {
    const std::string error = load_error(yaml);
    EXPECT_NE(error.find("unknown key"), std::string::npos) << yaml << error;
    EXPECT_NE(error.find("; IR-SIM 2.12.0 has none either (docs/irsim-keys.md)"), std::string::npos)
        << yaml << error;
  }
}

TEST(IrsimKeyRule, UbotsOwnPlacesDoNotMentionIrsim) {
  const std::string error = load_error("light: {ambient: 0.5, glow: 1}\n");
  EXPECT_NE(error.find("unknown key"), std::string::npos) << error;
  EXPECT_EQ(error.find("IR-SIM"), std::string::npos) << error;
}

TEST(IrsimKeyRule, AKeyOfALaterReleaseIsNamedWithThatRelease) {
  EXPECT_TRUE(config::later_irsim_keys().empty());  // none known while 2.12.0 is the newest
  const config::LaterIrsimKey later[] = {{"theme", "2.13.0"}};
  EXPECT_EQ(config::unknown_irsim_key_note("theme", later),
            "IR-SIM 2.13.0 added it, after 2.12.0, which ubot reads (docs/irsim-keys.md)");
  EXPECT_EQ(config::unknown_irsim_key_note("themes", later),
            "IR-SIM 2.12.0 has none either (docs/irsim-keys.md)");
}

}  // namespace
}  // namespace ubot

namespace ubot {
namespace {

// IR-SIM 2.12.0's _PER_OBJECT_NUMBERS: a list of numbers under mass, friction or restitution
// gives each object of the group its own value (padded with the last), where vel_max's list is
// one vector for all.
TEST(IrsimKeys212, PhysicsListsHoldOneNumberPerObject) {
  const WorldModel m = load_irsim(
      "world: {collision_mode: contact}\n"
      "obstacle:\n  - number: 3\n    distribution: {name: manual}\n"
      "    state: [[1, 1, 0], [3, 1, 0], [5, 1, 0]]\n"
      "    kinematics: {name: omni}\n    shape: {name: circle, radius: 0.3}\n"
      "    mass: [0.5, 2]\n    friction: [0.1, 0.2, 0.3, 0.4]\n    restitution: 0.25\n"
      "    vel_max: [1, 1]\n");
  ASSERT_EQ(m.objects.size(), 3u);
  EXPECT_EQ(m.objects[0].physics.mass, std::optional<double>(0.5));
  EXPECT_EQ(m.objects[1].physics.mass, std::optional<double>(2.0));
  EXPECT_EQ(m.objects[2].physics.mass, std::optional<double>(2.0));  // padded with the last
  EXPECT_EQ(m.objects[0].physics.friction, 0.1);
  EXPECT_EQ(m.objects[2].physics.friction, 0.3);  // the fourth is cut
  for (const ObjectModel& o : m.objects) {
    EXPECT_EQ(o.physics.restitution, 0.25);
    EXPECT_EQ(o.vel_max, (std::vector<double>{1, 1}));
  }
}

}  // namespace
}  // namespace ubot

namespace ubot {
namespace {

// IR-SIM 2.12.0 clips a lidar's angle_range to a full turn (ClipTo2Pi); its lidar presets
// (usage/sensor_configs) write 2π as 6.2832.
TEST(IrsimKeys212, AnAngleRangeBeyondAFullTurnIsClippedToOne) {
  for (const std::string range : {"6.2832", "7"}) {
    const WorldModel m = load_irsim(
        "robot:\n  - kinematics: {name: diff}\n    sensors:\n      - {type: lidar2d, "
        "angle_range: " +
        range + ", number: 360}\n");
    const auto& lidar = std::get<Lidar2dModel>(m.objects.at(0).sensors.at(0).params);
    EXPECT_EQ(lidar.angle_range, 2.0 * std::numbers::pi) << range;
  }
}

}  // namespace
}  // namespace ubot
