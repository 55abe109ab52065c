// The `depth_camera` and `rgb_camera` sensor entries (SPEC §5, §6, §8): defaults, intrinsics
// from a fov or given, and errors that name the key.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "load_error.h"
#include "ubot/config/load_world.h"
#include "ubot/core/error.h"

namespace ubot {
namespace {

std::string camera_error(const std::string& keys) {
  return testing_support::load_error("robot:\n  - sensors: [{" + keys + "}]\n");
}

SensorModel sensor(const std::string& keys) {
  return load_world_from_string("robot:\n  - sensors: [{" + keys + "}]\n", "w.yaml")
      .objects.at(0)
      .sensors.at(0);
}

TEST(CameraConfig, RgbDefaultsAreTheSeedDocuments) {
  const SensorModel s = sensor("name: rgb_camera");
  EXPECT_STREQ(s.type_name(), "rgb_camera");
  EXPECT_EQ(s.common.name, "rgb_camera_0");
  EXPECT_FALSE(s.common.update_rate_hz);  // every step, like the IR-SIM sensors
  const CameraModel& c = std::get<CameraModel>(s.params);
  EXPECT_FALSE(c.depth);
  EXPECT_EQ(c.width, 640);
  EXPECT_EQ(c.height, 480);
  // 90° horizontal fov: fx = 640 / (2 tan 45°) = 320; square pixels; centre of the pixel grid.
  EXPECT_NEAR(c.fx, 320.0, 1e-12);
  EXPECT_NEAR(c.fy, 320.0, 1e-12);
  EXPECT_EQ(c.cx, 319.5);
  EXPECT_EQ(c.cy, 239.5);
  EXPECT_EQ(c.min_depth, 0.01);   // near_clip
  EXPECT_EQ(c.max_depth, 100.0);  // far_clip
  EXPECT_EQ(c.smoke_interference_tint.r, 0.48);
  EXPECT_EQ(c.smoke_interference_tint.g, 0.50);
  EXPECT_EQ(c.smoke_interference_tint.b, 0.52);
  EXPECT_EQ(c.smoke_interference_opacity_scale, 0.75);
  EXPECT_EQ(c.max_smoke_interference_opacity, 0.85);
  EXPECT_EQ(c.preview_distance, 100.0);  // the far clip unless given
  EXPECT_FALSE(c.media_occlusion);
  // The media keys every lidar and camera has (SPEC §8).
  EXPECT_TRUE(s.common.smoke.enable_smoke_interference);
  EXPECT_EQ(s.common.smoke.smoke_density_threshold, 0.05);
  EXPECT_EQ(s.common.smoke.smoke_cell_radius_scale, 1.0);
  EXPECT_EQ(s.common.smoke.smoke_volume_tag, "AgentSensor.SmokeVolume");
}

TEST(CameraConfig, DepthDefaultsAndKeys) {
  const SensorModel s = sensor(
      "name: depth_camera, width: 80, height: 60, horizontal_fov_deg: 60, min_depth: 0.3, "
      "max_depth: 8, offset: [0.1, 0, 0.5], rpy: [0, 0.2, 0], std: 0.01, update_rate_hz: 15, "
      "smoke_density_threshold: 0.2, smoke_volume_tag: None");
  EXPECT_STREQ(s.type_name(), "depth_camera");
  const CameraModel& c = std::get<CameraModel>(s.params);
  EXPECT_TRUE(c.depth);
  EXPECT_NEAR(c.fx, 80.0 / (2.0 * std::tan(std::numbers::pi / 6.0)), 1e-12);
  EXPECT_EQ(c.fx, c.fy);
  EXPECT_EQ(c.cx, 39.5);
  EXPECT_EQ(c.cy, 29.5);
  EXPECT_EQ(c.min_depth, 0.3);
  EXPECT_EQ(c.max_depth, 8.0);
  EXPECT_EQ(c.offset, Eigen::Vector3d(0.1, 0, 0.5));
  EXPECT_EQ(c.rpy, Eigen::Vector3d(0, 0.2, 0));
  EXPECT_EQ(c.std, 0.01);
  EXPECT_EQ(s.common.update_rate_hz, 15.0);
  EXPECT_EQ(s.common.smoke.smoke_density_threshold, 0.2);
  EXPECT_EQ(s.common.smoke.smoke_volume_tag, "");
  const CameraModel d = std::get<CameraModel>(sensor("name: depth_camera").params);
  EXPECT_EQ(d.min_depth, 0.1);
  EXPECT_EQ(d.max_depth, 10.0);
}

TEST(CameraConfig, ExplicitIntrinsicsAndRgbMediaKeys) {
  const CameraModel c = std::get<CameraModel>(
      sensor("type: rgb_camera, width: 100, height: 50, fx: 90, fy: 80, cx: 48, cy: 26, "
             "near_clip: 0.5, far_clip: 30, smoke_interference_tint: [0.1, 0.2, 0.3], "
             "smoke_interference_opacity_scale: 0.5, max_smoke_interference_opacity: 0.6, "
             "preview_distance: 12, media_occlusion: true")
          .params);
  EXPECT_EQ(c.fx, 90.0);
  EXPECT_EQ(c.fy, 80.0);
  EXPECT_EQ(c.cx, 48.0);
  EXPECT_EQ(c.cy, 26.0);
  EXPECT_EQ(c.min_depth, 0.5);
  EXPECT_EQ(c.max_depth, 30.0);
  EXPECT_EQ(c.smoke_interference_tint.b, 0.3);
  EXPECT_EQ(c.smoke_interference_opacity_scale, 0.5);
  EXPECT_EQ(c.max_smoke_interference_opacity, 0.6);
  EXPECT_EQ(c.preview_distance, 12.0);
  EXPECT_TRUE(c.media_occlusion);
  // fy defaults to fx (square pixels).
  EXPECT_EQ(std::get<CameraModel>(sensor("name: rgb_camera, fx: 200").params).fy, 200.0);
}

void expect_error(const std::string& keys, const std::string& needle) {
  const std::string e = camera_error(keys);
  EXPECT_NE(e.find(needle), std::string::npos) << keys << "\n -> " << e;
}

TEST(CameraConfig, BadValuesNameTheirKey) {
  expect_error("name: depth_camera, width: 0", "sensors[0].width");
  expect_error("name: depth_camera, width: 0", "1 to 16384 pixels");
  expect_error("name: rgb_camera, height: 20000", "sensors[0].height");
  expect_error("name: rgb_camera, horizontal_fov: 0", "strictly between 0 and π");
  expect_error("name: rgb_camera, horizontal_fov: 3.1415926535897931", "strictly between 0 and π");
  expect_error("name: rgb_camera, horizontal_fov_deg: 200", "sensors[0].horizontal_fov_deg");
  expect_error("name: rgb_camera, horizontal_fov: 1, horizontal_fov_deg: 60", "not both");
  expect_error("name: rgb_camera, horizontal_fov: 1, fx: 100", "either a horizontal fov or fx");
  expect_error("name: rgb_camera, fy: 100", "fy needs fx");
  expect_error("name: rgb_camera, fx: 0", "sensors[0].fx");
  expect_error("name: depth_camera, min_depth: 5, max_depth: 2",
               "min_depth (5) must not exceed max_depth (2)");
  expect_error("name: rgb_camera, near_clip: 5, far_clip: 2", "sensors[0].near_clip");
  expect_error("name: depth_camera, max_depth: 70", "at most 65.535 m");
  expect_error("name: depth_camera, min_depth: -1", "sensors[0].min_depth");
  expect_error("name: rgb_camera, smoke_interference_tint: [0.5, 1.5, 0.5]",
               "sensors[0].smoke_interference_tint[1]");
  expect_error("name: rgb_camera, smoke_interference_tint: [0.5, 0.5]",
               "sensors[0].smoke_interference_tint");
  expect_error("name: rgb_camera, max_smoke_interference_opacity: 1.5",
               "max_smoke_interference_opacity: must be between 0 and 1, got 1.5");
  expect_error("name: rgb_camera, smoke_interference_opacity_scale: -1",
               "sensors[0].smoke_interference_opacity_scale");
  expect_error("name: rgb_camera, preview_distance: 0", "sensors[0].preview_distance");
  // rgb-only keys on a depth camera, and misspellings, are unknown keys.
  expect_error("name: depth_camera, media_occlusion: true", "media_occlusion");
  expect_error("name: depth_camera, max_dept: 3", "did you mean 'max_depth'");
  expect_error("name: rgb_camera, std: 0.1", "sensors[0].std");
}

}  // namespace
}  // namespace ubot
