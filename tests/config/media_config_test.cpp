// The world file's perception-media keys (SPEC §8): the top-level `media:` list, object tags and
// density (legacy path), and the smoke properties of lidars.
#include <gtest/gtest.h>

#include "load_error.h"
#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/media/medium_model.h"

namespace ubot {
namespace {

TEST(MediaConfig, SpecExampleAndDefaults) {
  const WorldModel m = load_world_from_string(R"(
robot:
  - name: robot_0
    sensors: [{name: lidar2d}]
media:
  - name: smoke_a
    medium_type: smoke
    active: true
    tint: [0.5, 0.6, 0.7]
    attach: robot_0
    cells:
      - {position: [8, 0, 0.5], radius: 3.0, density: 0.8, edge_factor: 0.5}
      - {position: [1, 2], density: 0.3}
  - cells: []
    active: false
)",
                                              "m.yaml");
  ASSERT_EQ(m.media->size(), 2u);
  const MediumModel& a = (*m.media)[0];
  EXPECT_EQ(a.name, "smoke_a");
  EXPECT_EQ(a.medium_type, "smoke");
  EXPECT_TRUE(a.active);
  EXPECT_EQ(a.tint.r, 0.5);
  EXPECT_EQ(a.tint.g, 0.6);
  EXPECT_EQ(a.tint.b, 0.7);
  EXPECT_EQ(a.attach, 0);
  ASSERT_EQ(a.cells.size(), 2u);
  EXPECT_EQ(a.cells[0].position, Eigen::Vector3d(8, 0, 0.5));
  EXPECT_EQ(a.cells[0].radius, 3.0);
  EXPECT_EQ(a.cells[0].density, 0.8);
  EXPECT_EQ(a.cells[0].edge_factor, 0.5);
  EXPECT_EQ(a.cells[1].position, Eigen::Vector3d(1, 2, 0));
  EXPECT_EQ(a.cells[1].radius, 1.5);  // SPEC §8 default
  EXPECT_EQ(a.cells[1].edge_factor, 1.0);
  EXPECT_TRUE(a.keyframes.empty());
  const MediumModel& b = (*m.media)[1];
  EXPECT_EQ(b.name, "medium_1");
  EXPECT_FALSE(b.active);
  EXPECT_EQ(b.attach, -1);
  EXPECT_EQ(b.tint.r, 0.55);  // default grey
  EXPECT_TRUE(b.cells.empty());
  // Lidars get the SPEC §8 smoke defaults.
  const media::SmokeSettings& smoke = m.objects[0].sensors[0].common.smoke;
  EXPECT_TRUE(smoke.enable_smoke_interference);
  EXPECT_EQ(smoke.smoke_density_threshold, 0.05);
  EXPECT_EQ(smoke.smoke_cell_radius_scale, 1.0);
  EXPECT_EQ(smoke.smoke_volume_tag, "AgentSensor.SmokeVolume");
}

TEST(MediaConfig, KeyframesCarryUnsetKeysForward) {
  const WorldModel m = load_world_from_string(R"(
media:
  - cells: [{position: [0, 0], density: 1}]
    loop: true
    keyframes:
      - {t: 0}
      - {t: 5, position_offset: [4, 0], density_scale: 0.5}
      - {t: 10, radius_scale: 2}
)",
                                              "m.yaml");
  const auto& k = (*m.media)[0].keyframes;
  ASSERT_EQ(k.size(), 3u);
  EXPECT_EQ(k[0].position_offset, Eigen::Vector3d::Zero());
  EXPECT_EQ(k[0].radius_scale, 1.0);
  EXPECT_EQ(k[0].density_scale, 1.0);
  EXPECT_EQ(k[1].position_offset, Eigen::Vector3d(4, 0, 0));
  EXPECT_EQ(k[1].density_scale, 0.5);
  EXPECT_EQ(k[2].t, 10.0);
  EXPECT_EQ(k[2].position_offset, Eigen::Vector3d(4, 0, 0));  // carried from t = 5
  EXPECT_EQ(k[2].density_scale, 0.5);
  EXPECT_EQ(k[2].radius_scale, 2.0);
  EXPECT_TRUE((*m.media)[0].loop);
}

TEST(MediaConfig, SensorSmokeKeysAndLegacyObjectKeys) {
  const WorldModel m = load_world_from_string(R"(
robot:
  - sensors:
      - {name: lidar2d, enable_smoke_interference: false, smoke_density_threshold: 0.2,
         smoke_cell_radius_scale: 0.5, smoke_volume_tag: MySmoke}
      - {name: fmcw_lidar2d, smoke_volume_tag: ""}
      - {name: lidar2d, smoke_volume_tag: null}
      - {name: lidar2d, smoke_volume_tag: None}
obstacle:
  - number: 2
    tags: [AgentSensor.SmokeVolume, other]
    density: 0.4
  - number: 2
    tags: [[a], [b, c]]
  - tags: single
)",
                                              "m.yaml");
  const auto& s = m.objects[0].sensors;
  EXPECT_FALSE(s[0].common.smoke.enable_smoke_interference);
  EXPECT_EQ(s[0].common.smoke.smoke_density_threshold, 0.2);
  EXPECT_EQ(s[0].common.smoke.smoke_cell_radius_scale, 0.5);
  EXPECT_EQ(s[0].common.smoke.smoke_volume_tag, "MySmoke");
  for (int i = 1; i <= 3; ++i) EXPECT_EQ(s[i].common.smoke.smoke_volume_tag, "") << i;
  // A list of tags is shared by the group (not split one per object as IR-SIM lists are).
  const std::vector<std::string> both = {"AgentSensor.SmokeVolume", "other"};
  EXPECT_EQ(m.objects[1].tags, both);
  EXPECT_EQ(m.objects[2].tags, both);
  EXPECT_EQ(m.objects[1].density, 0.4);
  EXPECT_EQ(m.objects[3].tags, std::vector<std::string>{"a"});
  EXPECT_EQ(m.objects[4].tags, (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(m.objects[4].density, 1.0);  // default
  EXPECT_EQ(m.objects[5].tags, std::vector<std::string>{"single"});
  EXPECT_TRUE(m.objects[0].tags.empty());
}

std::string media_error(const std::string& yaml) { return testing_support::load_error(yaml); }

TEST(MediaConfig, BadMediaHavePreciseMessages) {
  const std::pair<const char*, const char*> cases[] = {
      {"media: {cells: []}\n", "bad.yaml:1:8: media: expected a list of media"},
      {"media:\n  - {cells: [{position: [1, 2], density: 0.5}], colour: red}\n",
       "bad.yaml:2:49: media[0].colour: unknown key 'colour'"},
      {"media:\n  - {name: a}\n", "bad.yaml:2:5: media[0]: missing required key 'cells'"},
      {"media:\n  - cells: [{position: [1, 2]}]\n",
       "bad.yaml:2:13: media[0].cells[0]: missing required key 'density'"},
      {"media:\n  - cells: [{position: [1, 2], density: 1.5}]\n",
       "bad.yaml:2:41: media[0].cells[0].density: must be between 0 and 1, got 1.5"},
      {"media:\n  - cells: [{position: [1, 2], density: 0.5, edge_factor: -1}]\n",
       "bad.yaml:2:59: media[0].cells[0].edge_factor: must be between 0 and 1, got -1"},
      {"media:\n  - cells: [{position: [1, 2], density: 0.5, radius: -1}]\n",
       "bad.yaml:2:54: media[0].cells[0].radius: must not be negative, got -1"},
      {"media:\n  - cells: [{position: [1], density: 0.5}]\n",
       "bad.yaml:2:24: media[0].cells[0].position: expected 2 to 3 numbers, got 1"},
      {"media:\n  - cells: [{position: [1, 2], density: 0.5, velocity: [1, 0]}]\n",
       "bad.yaml:2:46: media[0].cells[0].velocity: unknown key 'velocity'"},
      {"media:\n  - {tint: [1, 1, 2], cells: []}\n",
       "bad.yaml:2:19: media[0].tint[2]: must be between 0 and 1, got 2"},
      {"robot:\n  - name: robot_0\nmedia:\n  - {attach: robot_1, cells: []}\n",
       "bad.yaml:4:14: media[0].attach: no object is named 'robot_1'; did you mean 'robot_0'?"},
      {"media:\n  - {name: a, cells: []}\n  - {name: a, cells: []}\n",
       "bad.yaml:3:5: media[1]: medium name 'a' is used twice"},
      {"media:\n  - cells: []\n    keyframes: [{t: 1}, {t: 1}]\n",
       "bad.yaml:3:29: media[0].keyframes[1].t: keyframe times must increase, got 1 after 1"},
      {"media:\n  - cells: []\n    keyframes: [{position_offset: [1, 0]}]\n",
       "bad.yaml:3:17: media[0].keyframes[0]: missing required key 't'"},
      {"media:\n  - cells: []\n    keyframes: [{t: 0, density: 0.5}]\n",
       "bad.yaml:3:24: media[0].keyframes[0].density: unknown key 'density'"},
      {"media:\n  - cells: []\n    loop: true\n",
       "bad.yaml:3:11: media[0].loop: loop needs at least two keyframes"},
      {"obstacle:\n  - density: 2\n",
       "bad.yaml:2:14: obstacle[0].density: must be between 0 and 1, got 2"},
      {"obstacle:\n  - tags: {a: 1}\n",
       "bad.yaml:2:11: obstacle[0].tags: expected a tag or a list of tags"},
      {"robot:\n  - sensors: [{name: lidar2d, smoke_density_treshold: 0.1}]\n",
       "bad.yaml:2:31: robot[0].sensors[0].smoke_density_treshold: unknown key "
       "'smoke_density_treshold' (did you mean 'smoke_density_threshold'?)"},
      {"robot:\n  - sensors: [{name: lidar2d, smoke_cell_radius_scale: -1}]\n",
       "bad.yaml:2:56: robot[0].sensors[0].smoke_cell_radius_scale: must not be negative, got -1"},
      {"robot:\n  - sensors: [{name: lidar2d, enable_smoke_interference: sometimes}]\n",
       "bad.yaml:2:58: robot[0].sensors[0].enable_smoke_interference: expected true or false, got "
       "'sometimes'"},
  };
  for (const auto& [yaml, message] : cases) EXPECT_EQ(media_error(yaml), message) << yaml;
}

}  // namespace
}  // namespace ubot
