// Depth and RGB cameras (SPEC §5, §6, §8) against analytic ground truth: the optical frame, depth
// along the optical axis (a facing plane reads its distance at every pixel; a sphere its exact
// entry point), the range rule, noise, media cuts and tints with every default the SPEC quotes,
// and determinism across thread counts.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>

#include "sensor_test_support.h"
#include "ubot/core/numbers.h"
#include "ubot/core/random.h"
#include "ubot/media/medium.h"
#include "ubot/sensors/camera/camera.h"

namespace ubot {
namespace {

using testing_support::make_sim;

const Camera& camera(const Simulation& sim, int i = 0) {
  return testing_support::sensor_as<Camera>(sim, i);
}

// A static robot at the origin facing +x with one camera (`keys`, flow-map body), plus
// `obstacles` (obstacle list items) and `extra` top-level YAML.
std::string camera_world(const std::string& keys, const std::string& obstacles = "",
                         const std::string& extra = "") {
  return testing_support::static_robot_world(keys, obstacles, extra);
}

// A wall x = `x` from y -100 to 100, 20 m tall.
std::string wall(double x, const std::string& more = "") {
  return fmt::format(
      "  - {{shape: {{name: linestring, vertices: [[{0}, -100], [{0}, 100]]}}, state: [0, 0, 0], "
      "height: 20{1}}}\n",
      x, more);
}

// Direction of pixel (u, v) in the camera link frame, optical z component 1.
Eigen::Vector3d link_direction(const CameraModel& c, int u, int v) {
  return {1.0, -(u - c.cx) / c.fx, -(v - c.cy) / c.fy};
}

std::uint8_t byte_of(double c) { return static_cast<std::uint8_t>(std::lround(c * 255.0)); }

TEST(CameraFrames, OpticalRotationIsRep103) {
  const Eigen::Quaterniond q = Camera::optical_rotation();
  EXPECT_EQ(q.x(), -0.5);
  EXPECT_EQ(q.y(), 0.5);
  EXPECT_EQ(q.z(), -0.5);
  EXPECT_EQ(q.w(), 0.5);
  // Optical z looks along the link's x, optical x along -y (right), optical y along -z (down).
  EXPECT_TRUE((q * Eigen::Vector3d::UnitZ()).isApprox(Eigen::Vector3d::UnitX(), 1e-15));
  EXPECT_TRUE((q * Eigen::Vector3d::UnitX()).isApprox(-Eigen::Vector3d::UnitY(), 1e-15));
  EXPECT_TRUE((q * Eigen::Vector3d::UnitY()).isApprox(-Eigen::Vector3d::UnitZ(), 1e-15));
  Simulation sim = make_sim(camera_world("name: rgb_camera, width: 8, height: 6"));
  EXPECT_EQ(camera(sim).optical_frame_id(), "robot_0/rgb_camera_0_optical");
}

TEST(DepthCamera, AFacingPlaneReadsItsDistanceAtEveryPixelNotTheRayLength) {
  // 120° wide: corner rays are ~2.2 times longer than the depth.
  Simulation sim = make_sim(camera_world(
      "name: depth_camera, width: 64, height: 48, horizontal_fov_deg: 120, offset: [0, 0, 10]",
      wall(5.0)));
  sim.step();
  const CameraImage& img = camera(sim).image();
  ASSERT_EQ(img.depth.size(), 64u * 48u);
  for (std::size_t p = 0; p < img.depth.size(); ++p) {
    ASSERT_NEAR(img.depth[p], 5.0, 1e-6) << "pixel " << p;
  }
  EXPECT_EQ(img.medium_pixels, 0);
  EXPECT_NEAR(img.pose.position.z(), 10.0, 1e-12);
}

TEST(DepthCamera, ASphereReadsItsAnalyticEntryPointsDepth) {
  // Sphere of radius 1 centred (6, 0.5, 1.0) (it rests on its object's z = 0), camera at z 1.2
  // pitched down by 0.1 rad and turned by 0.05 rad: each pixel's depth is t * (d . axis) for the
  // ray's exact entry t.
  Simulation sim = make_sim(camera_world(
      "name: depth_camera, width: 48, height: 36, horizontal_fov: 0.8, offset: [0, 0, 1.2], "
      "rpy: [0, 0.1, 0.05], max_depth: 20",
      "  - {shape: {name: sphere, radius: 1.0}, state: [6, 0.5, 0]}\n"));
  sim.step();
  const Camera& cam = camera(sim);
  const CameraImage& img = cam.image();
  const Eigen::Matrix3d r = img.pose.orientation.toRotationMatrix();
  const Eigen::Vector3d axis = r.col(0);
  const Eigen::Vector3d center(6, 0.5, 1.0);
  int seen = 0;
  for (int v = 0; v < img.height; ++v) {
    for (int u = 0; u < img.width; ++u) {
      const Eigen::Vector3d d = (r * link_direction(cam.params(), u, v)).normalized();
      const double t = media::entry_distance(img.pose.position, d, center, 1.0);
      const float got = img.depth[v * img.width + u];
      if (t == kInf) {
        EXPECT_EQ(got, 0.0f) << u << ", " << v;
        continue;
      }
      ++seen;
      EXPECT_NEAR(got, t * d.dot(axis), 2e-6) << u << ", " << v;
    }
  }
  EXPECT_GT(seen, 200);
}

TEST(DepthCamera, OutOfRangeOrNoHitIsZero) {
  // Wall at 5: beyond max_depth 4 -> 0; nearer than min_depth 6 -> 0; nothing at all -> 0.
  for (const std::string range : {"max_depth: 4", "min_depth: 6, max_depth: 9"}) {
    Simulation sim = make_sim(camera_world(
        "name: depth_camera, width: 8, height: 6, offset: [0, 0, 5], " + range, wall(5.0)));
    sim.step();
    for (float d : camera(sim).image().depth) ASSERT_EQ(d, 0.0f) << range;
  }
  Simulation empty = make_sim(camera_world("name: depth_camera, width: 8, height: 6"));
  empty.step();
  for (float d : camera(empty).image().depth) ASSERT_EQ(d, 0.0f);
}

TEST(DepthCamera, NoiseHasTheConfiguredSigma) {
  // 400 x 300 = 120000 pixels on a plane at 5 m, sigma 0.05: sample std within 2% (SPEC §0).
  Simulation sim = make_sim(camera_world(
      "name: depth_camera, width: 400, height: 300, offset: [0, 0, 5], noise: true, std: 0.05",
      wall(5.0)));
  sim.step();
  double sum = 0, sum2 = 0;
  const std::vector<float>& depth = camera(sim).image().depth;
  for (float d : depth) {
    sum += d - 5.0;
    sum2 += (d - 5.0) * (d - 5.0);
  }
  const double n = static_cast<double>(depth.size());
  const double mean = sum / n;
  const double sd = std::sqrt(sum2 / n - mean * mean);
  EXPECT_NEAR(sd, 0.05, 0.05 * 0.02);
  EXPECT_NEAR(mean, 0.0, 5.0 * 0.05 / std::sqrt(n));
}

TEST(DepthCamera, QuadraticNoiseGrowsWithTheSquareOfTheDepth) {
  // sigma = std + std_quadratic * depth^2: 0.001 + 0.002 * 16 = 0.033 at 4 m, 0.001 + 0.002 * 64
  // = 0.129 at 8 m; sample std within 2 % over 120000 pixels (SPEC §0).
  for (const double at : {4.0, 8.0}) {
    Simulation sim = make_sim(camera_world(
        "name: depth_camera, width: 400, height: 300, offset: [0, 0, 10], max_depth: 20, "
        "noise: true, std: 0.001, std_quadratic: 0.002",
        wall(at)));
    sim.step();
    double sum = 0, sum2 = 0;
    const std::vector<float>& depth = camera(sim).image().depth;
    for (float d : depth) {
      sum += d - at;
      sum2 += (d - at) * (d - at);
    }
    const double n = static_cast<double>(depth.size());
    const double mean = sum / n;
    const double sigma = 0.001 + 0.002 * at * at;
    EXPECT_NEAR(std::sqrt(sum2 / n - mean * mean), sigma, sigma * 0.02) << at;
    EXPECT_NEAR(mean, 0.0, 5.0 * sigma / std::sqrt(n)) << at;
  }
  // Off without `noise`, as `std` is.
  Simulation quiet = make_sim(camera_world(
      "name: depth_camera, width: 4, height: 4, offset: [0, 0, 5], std_quadratic: 0.002",
      wall(4.0)));
  quiet.step();
  for (float d : camera(quiet).image().depth) EXPECT_FLOAT_EQ(d, 4.0f);
}

// ---- media --------------------------------------------------------------------------------

std::string media(const std::string& cells) { return "media:\n" + cells; }

TEST(DepthCameraMedia, SeedExampleCutsAtTheEntryDepth) {
  // Wall at 12, cell centred 8 m ahead, radius 3, density 0.8 (SPEC §8): the centre pixel (odd
  // image: pixel (2, 2) looks along the axis) reads 5; every pixel reads its entry point's depth
  // (not the ray length), checked against the exact sphere entry.
  const std::string cell = "  - cells: [{position: [8, 0, 10], radius: 3, density: 0.8}]\n";
  Simulation sim =
      make_sim(camera_world("name: depth_camera, width: 5, height: 5, offset: [0, 0, 10], "
                            "horizontal_fov: 1.2, max_depth: 20",
                            wall(12.0), media(cell)));
  sim.step();
  const Camera& cam = camera(sim);
  const CameraImage& img = cam.image();
  EXPECT_NEAR(img.depth[2 * 5 + 2], 5.0, 1e-6);
  int cut = 0;
  for (int v = 0; v < 5; ++v) {
    for (int u = 0; u < 5; ++u) {
      const Eigen::Vector3d d = link_direction(cam.params(), u, v);
      const double t =
          media::entry_distance({0, 0, 10}, d.normalized(), {8, 0, 10}, 3.0, 12.0 * d.norm());
      const double expected = t < kInf ? t / d.norm() : 12.0;
      cut += t < kInf;
      EXPECT_NEAR(img.depth[v * 5 + u], expected, 1e-6) << u << ", " << v;
    }
  }
  EXPECT_EQ(img.medium_pixels, cut);
  EXPECT_GE(cut, 9);
  EXPECT_LT(cut, 25);  // the corners pass beside the cell
}

TEST(DepthCameraMedia, ThresholdSwitchAndInsideACell) {
  const std::string thin = "  - cells: [{position: [8, 0, 1], radius: 3, density: 0.049}]\n";
  const std::string keys =
      "name: depth_camera, width: 5, height: 5, offset: [0, 0, 1], max_depth: 20";
  // Below the 0.05 threshold: ignored.
  Simulation a = make_sim(camera_world(keys, wall(12.0), media(thin)));
  a.step();
  EXPECT_NEAR(camera(a).image().depth[12], 12.0, 1e-6);
  // A lower threshold sees it.
  Simulation b =
      make_sim(camera_world(keys + ", smoke_density_threshold: 0.04", wall(12.0), media(thin)));
  b.step();
  EXPECT_NEAR(camera(b).image().depth[12], 5.0, 1e-6);
  // The switch turns every medium off.
  const std::string thick = "  - cells: [{position: [8, 0, 1], radius: 3, density: 0.8}]\n";
  Simulation c =
      make_sim(camera_world(keys + ", enable_smoke_interference: false", wall(12.0), media(thick)));
  c.step();
  EXPECT_NEAR(camera(c).image().depth[12], 12.0, 1e-6);
  // Inside a cell: entry at 0, below min_depth -> 0 everywhere.
  const std::string around = "  - cells: [{position: [0.5, 0, 1], radius: 2, density: 0.8}]\n";
  Simulation d = make_sim(camera_world(keys, wall(12.0), media(around)));
  d.step();
  for (float x : camera(d).image().depth) EXPECT_EQ(x, 0.0f);
  // The radius scale shrinks the cell: entry at 8 - 1.5.
  Simulation e =
      make_sim(camera_world(keys + ", smoke_cell_radius_scale: 0.5", wall(12.0), media(thick)));
  e.step();
  EXPECT_NEAR(camera(e).image().depth[12], 6.5, 1e-6);
}

// ---- colour -------------------------------------------------------------------------------

// The shaded colour of a surface of colour `c` with normal `n`.
std::array<std::uint8_t, 3> shaded(const Eigen::Vector3d& c, const Eigen::Vector3d& n,
                                   const Lighting& l = {}) {
  const double s = l.ambient + l.diffuse * std::max(0.0, n.dot(l.direction));
  return {byte_of(c.x() * s), byte_of(c.y() * s), byte_of(c.z() * s)};
}

std::array<std::uint8_t, 4> pixel(const CameraImage& img, int u, int v) {
  const std::size_t p = 4 * (static_cast<std::size_t>(v) * img.width + u);
  return {img.rgba[p], img.rgba[p + 1], img.rgba[p + 2], img.rgba[p + 3]};
}

TEST(RgbCamera, ShadesObjectColoursGroundAndSky) {
  // A red wall 3 m tall at x = 6 (normal -x towards the camera), the ground below, sky above.
  Simulation sim = make_sim(camera_world(
      "name: rgb_camera, width: 9, height: 9, horizontal_fov: 1.5, offset: [0, 0, 1]",
      "  - {shape: {name: linestring, vertices: [[6, -100], [6, 100]]}, state: [0, 0, 0], "
      "height: 3, color: '#ff0000'}\n",
      "ground: {z: 0}\n"));
  sim.step();
  const CameraImage& img = camera(sim).image();
  const auto wall_rgb = shaded({1, 0, 0}, {-1, 0, 0});
  EXPECT_EQ(pixel(img, 4, 4),
            (std::array<std::uint8_t, 4>{wall_rgb[0], wall_rgb[1], wall_rgb[2], 255}));
  // Row 0 looks up by atan(4 / fy) = 0.64 rad: over the wall's top (3 m at 6 m needs 0.32).
  const std::array<std::uint8_t, 4> sky{byte_of(Lighting{}.sky[0]), byte_of(Lighting{}.sky[1]),
                                        byte_of(Lighting{}.sky[2]), 0};
  EXPECT_EQ(pixel(img, 4, 0), sky);
  // Row 8 looks down by 0.64 rad: the ground at 1 / tan(0.64) < 6 m.
  const auto g =
      shaded({Lighting{}.ground[0], Lighting{}.ground[1], Lighting{}.ground[2]}, {0, 0, 1});
  EXPECT_EQ(pixel(img, 4, 8), (std::array<std::uint8_t, 4>{g[0], g[1], g[2], 255}));
}

TEST(RgbCamera, TheWorldsLightSkyAndGroundColour) {
  const std::string red_wall =
      "  - {shape: {name: linestring, vertices: [[6, -100], [6, 100]]}, state: [0, 0, 0], "
      "height: 3, color: '#ff0000'}\n";
  const std::string keys =
      "name: rgb_camera, width: 9, height: 9, horizontal_fov: 1.5, offset: [0, 0, 1]";
  Simulation sim = make_sim(camera_world(
      keys, red_wall,
      "ground: {z: 0, color: '#336699'}\n"
      "light: {direction: [-1, 0, 1], ambient: 0.2, diffuse: 0.7, sky: [0.1, 0.2, 0.3]}\n"));
  sim.step();
  Lighting l;
  l.direction = Eigen::Vector3d(-1, 0, 1).normalized();
  l.ambient = 0.2;
  l.diffuse = 0.7;
  const CameraImage& img = camera(sim).image();
  const auto wall_rgb = shaded({1, 0, 0}, {-1, 0, 0}, l);
  EXPECT_EQ(pixel(img, 4, 4),
            (std::array<std::uint8_t, 4>{wall_rgb[0], wall_rgb[1], wall_rgb[2], 255}));
  EXPECT_NE(wall_rgb, shaded({1, 0, 0}, {-1, 0, 0}));  // not the default light's
  EXPECT_EQ(pixel(img, 4, 0),
            (std::array<std::uint8_t, 4>{byte_of(0.1), byte_of(0.2), byte_of(0.3), 0}));
  const auto g = shaded({0x33 / 255.0, 0x66 / 255.0, 0x99 / 255.0}, {0, 0, 1}, l);
  EXPECT_EQ(pixel(img, 4, 8), (std::array<std::uint8_t, 4>{g[0], g[1], g[2], 255}));
  // A light from behind the wall leaves it the ambient share alone.
  Simulation back = make_sim(camera_world(keys, red_wall, "light: {direction: [1, 0, 0]}\n"));
  back.step();
  const std::uint8_t ambient_red = byte_of(Lighting{}.ambient);
  EXPECT_EQ(pixel(camera(back).image(), 4, 4),
            (std::array<std::uint8_t, 4>{ambient_red, 0, 0, 255}));
}

// The red wall at 12 and a medium (`cells`) seen by a 5 x 5 rgb camera with `keys`.
CameraImage tinted(const std::string& keys, const std::string& media_yaml,
                   const std::string& wall_more = ", color: '#ff0000'") {
  Simulation sim =
      make_sim(camera_world("name: rgb_camera, width: 5, height: 5, offset: [0, 0, 1]" + keys,
                            wall(12.0, wall_more), media_yaml));
  sim.step();
  return camera(sim).image();
}

std::array<std::uint8_t, 4> blend(const Eigen::Vector3d& base, const Eigen::Vector3d& tint,
                                  double opacity, std::uint8_t alpha = 255) {
  const Eigen::Vector3d c = base + (tint - base) * opacity;
  return {byte_of(c.x()), byte_of(c.y()), byte_of(c.z()), alpha};
}

TEST(RgbCameraMedia, BlendsTowardsTheProvidersTintWithDefaultOpacity) {
  const Eigen::Vector3d red_lit =
      Eigen::Vector3d(1, 0, 0) *
      (Lighting{}.ambient + Lighting{}.diffuse * std::max(0.0, -Lighting{}.direction.x()));
  // density 0.8 x 0.75 = 0.6 (< 0.85), towards the medium's own tint.
  const CameraImage a = tinted("", media("  - tint: [0.2, 0.4, 0.6]\n    cells: [{position: [8, 0, "
                                         "1], radius: 3, density: 0.8}]\n"));
  EXPECT_EQ(pixel(a, 2, 2), blend(red_lit, {0.2, 0.4, 0.6}, 0.6));
  EXPECT_EQ(a.medium_pixels, 5);  // the cell (22° wide) covers the centre cross only
  // density 1 x 0.75 = 0.75; edge_factor 0.5 halves it: 0.375.
  const CameraImage b = tinted("", media("  - tint: [0.2, 0.4, 0.6]\n    cells: [{position: [8, 0, "
                                         "1], radius: 3, density: 1.0, edge_factor: 0.5}]\n"));
  EXPECT_EQ(pixel(b, 2, 2), blend(red_lit, {0.2, 0.4, 0.6}, 0.375));
  // opacity scale 1: density 1 gives 1, capped at the default maximum 0.85.
  const CameraImage c = tinted(", smoke_interference_opacity_scale: 1.0",
                               media("  - tint: [0.2, 0.4, 0.6]\n    cells: [{position: [8, 0, 1], "
                                     "radius: 3, density: 1.0}]\n"));
  EXPECT_EQ(pixel(c, 2, 2), blend(red_lit, {0.2, 0.4, 0.6}, 0.85));
  // A provider without a tint: the snapshot default grey 0.55.
  const CameraImage d =
      tinted("", media("  - cells: [{position: [8, 0, 1], radius: 3, density: 0.8}]\n"));
  EXPECT_EQ(pixel(d, 2, 2), blend(red_lit, {0.55, 0.55, 0.55}, 0.6));
  // Below the 0.05 threshold: untouched.
  const CameraImage e =
      tinted("", media("  - cells: [{position: [8, 0, 1], radius: 3, density: 0.04}]\n"));
  EXPECT_EQ(pixel(e, 2, 2), blend(red_lit, red_lit, 0.0));
  EXPECT_EQ(e.medium_pixels, 0);
}

TEST(RgbCameraMedia, LegacyTagMediaUseTheCamerasTint) {
  const Eigen::Vector3d red_lit =
      Eigen::Vector3d(1, 0, 0) *
      (Lighting{}.ambient + Lighting{}.diffuse * std::max(0.0, -Lighting{}.direction.x()));
  const std::string tagged =
      "  - {shape: {name: circle, radius: 3}, state: [8, 0, 0], unobstructed: true, "
      "tags: [AgentSensor.SmokeVolume], density: 0.8}\n";
  // The legacy cell sits at the object's z (0) with the circle's radius: the axis ray (z 1)
  // enters it at 8 - sqrt(9 - 1).
  Simulation sim = make_sim(camera_world("name: rgb_camera, width: 5, height: 5, offset: [0, 0, 1]",
                                         wall(12.0, ", color: '#ff0000'") + tagged));
  sim.step();
  EXPECT_EQ(pixel(camera(sim).image(), 2, 2), blend(red_lit, {0.48, 0.50, 0.52}, 0.6));
  Simulation custom =
      make_sim(camera_world("name: rgb_camera, width: 5, height: 5, offset: [0, 0, 1], "
                            "smoke_interference_tint: [0, 0, 1]",
                            wall(12.0, ", color: '#ff0000'") + tagged));
  custom.step();
  EXPECT_EQ(pixel(camera(custom).image(), 2, 2), blend(red_lit, {0, 0, 1}, 0.6));
}

TEST(RgbCameraMedia, SmokeBehindAWallTintsUnlessOcclusionIsOn) {
  const Eigen::Vector3d red_lit =
      Eigen::Vector3d(1, 0, 0) *
      (Lighting{}.ambient + Lighting{}.diffuse * std::max(0.0, -Lighting{}.direction.x()));
  const std::string behind =
      media("  - tint: [0, 1, 0]\n    cells: [{position: [16, 0, 1], radius: 2, density: 0.8}]\n");
  EXPECT_EQ(pixel(tinted("", behind), 2, 2), blend(red_lit, {0, 1, 0}, 0.6));  // the seed's way
  const CameraImage occluded = tinted(", media_occlusion: true", behind);
  EXPECT_EQ(pixel(occluded, 2, 2), blend(red_lit, red_lit, 0.0));
  EXPECT_EQ(occluded.medium_pixels, 0);
  // In front of the wall, occlusion changes nothing.
  const std::string front =
      media("  - tint: [0, 1, 0]\n    cells: [{position: [8, 0, 1], radius: 2, density: 0.8}]\n");
  EXPECT_EQ(pixel(tinted(", media_occlusion: true", front), 2, 2), blend(red_lit, {0, 1, 0}, 0.6));
  // preview_distance: cells entered farther along the ray are not looked for (entry at 6).
  EXPECT_EQ(pixel(tinted(", preview_distance: 5.9", front), 2, 2), blend(red_lit, red_lit, 0.0));
  EXPECT_EQ(pixel(tinted(", preview_distance: 6.1", front), 2, 2), blend(red_lit, {0, 1, 0}, 0.6));
}

TEST(RgbCameraMedia, CellsBlendFarthestFirstAndAlphaIsKept) {
  // Two cells on the axis: green at 6..8 (far), blue at 3..5 (near, applied last), no wall:
  // the sky pixel keeps alpha 0.
  const std::string two = media(
      "  - tint: [0, 1, 0]\n    cells: [{position: [7, 0, 1], radius: 1, density: 0.8}]\n"
      "  - tint: [0, 0, 1]\n    cells: [{position: [4, 0, 1], radius: 1, density: 0.4}]\n");
  Simulation sim =
      make_sim(camera_world("name: rgb_camera, width: 5, height: 5, offset: [0, 0, 1]", "", two));
  sim.step();
  const Eigen::Vector3d sky(Lighting{}.sky[0], Lighting{}.sky[1], Lighting{}.sky[2]);
  const Eigen::Vector3d after_green = sky + (Eigen::Vector3d(0, 1, 0) - sky) * 0.6;
  const Eigen::Vector3d after_blue = after_green + (Eigen::Vector3d(0, 0, 1) - after_green) * 0.3;
  EXPECT_EQ(pixel(camera(sim).image(), 2, 2), blend(after_blue, after_blue, 0.0, 0));
}

TEST(Cameras, DeterministicAcrossThreadCounts) {
  const std::string yaml = R"(
world: {width: 40, height: 40, offset: [-20, -20], step_time: 0.1}
ground: {z: 0}
robot:
  - kinematics: {name: diff}
    state: [0, 0, 0.3]
    velocity: [1, 0.2]
    sensors:
      - {name: depth_camera, width: 64, height: 48, offset: [0, 0, 1], noise: true, std: 0.02}
      - {name: rgb_camera, width: 64, height: 48, offset: [0, 0, 1]}
      - {name: depth_camera, width: 32, height: 24, offset: [0, 0, 1], rpy: [0, 0, 3.14], noise: true, std: 0.02}
obstacle:
  - {shape: {name: sphere, radius: 1}, state: [6, 1, 0], color: tomato}
  - {shape: {name: box, size: [1, 2, 1]}, state: [5, -2, 0], color: royalblue}
media:
  - cells: [{position: [4, 0, 1], radius: 1.5, density: 0.5}]
)";
  auto run = [&](int threads) {
    Simulation sim(load_world_from_string(yaml, "t.yaml", {.seed = 3}), {.threads = threads});
    std::vector<float> depth;
    std::vector<std::uint8_t> rgb;
    for (int k = 0; k < 5; ++k) {
      sim.step();
      for (int i : {0, 2}) {
        const auto& d = camera(sim, i).image().depth;
        depth.insert(depth.end(), d.begin(), d.end());
      }
      const auto& c = camera(sim, 1).image().rgba;
      rgb.insert(rgb.end(), c.begin(), c.end());
    }
    return std::make_pair(depth, rgb);
  };
  const auto one = run(1);
  EXPECT_EQ(one, run(2));
  EXPECT_EQ(one, run(0));
}

}  // namespace
}  // namespace ubot

namespace ubot {
namespace {

TEST(DepthCameraMedia, CulledCellsGiveTheBruteForceAnswer) {
  // 60 random cells all around a tilted camera (behind it, beside it, straddling its plane,
  // above): each pixel's depth equals the nearest entry over all cells, tested per pixel.
  RandomStream rng(11);
  std::string cells;
  std::vector<std::pair<Eigen::Vector3d, double>> spheres;
  for (int k = 0; k < 60; ++k) {
    const Eigen::Vector3d c(rng.uniform(-6, 14), rng.uniform(-8, 8), rng.uniform(-3, 5));
    const double r = rng.uniform(0.2, 2.5);
    if ((c - Eigen::Vector3d(0, 0, 1)).norm() < r + 0.1) continue;  // not around the camera
    spheres.emplace_back(c, r);
    cells += fmt::format("{{position: [{}, {}, {}], radius: {}, density: 0.5}}, ", c.x(), c.y(),
                         c.z(), r);
  }
  Simulation sim = make_sim(camera_world(
      "name: depth_camera, width: 40, height: 30, horizontal_fov: 1.6, offset: [0, 0, 1], "
      "rpy: [0.1, -0.2, 0.3], min_depth: 0.0, max_depth: 12",
      "", "media:\n  - cells: [" + cells + "]\n"));
  sim.step();
  const Camera& cam = camera(sim);
  const CameraImage& img = cam.image();
  const Eigen::Matrix3d r = img.pose.orientation.toRotationMatrix();
  int cut = 0;
  for (int v = 0; v < img.height; ++v) {
    for (int u = 0; u < img.width; ++u) {
      const Eigen::Vector3d d = r * link_direction(cam.params(), u, v);
      double best = kInf;
      for (const auto& [c, rad] : spheres) {
        best = std::min(best, media::entry_distance(img.pose.position, d.normalized(), c, rad,
                                                    12.0 * d.norm()));
      }
      const double depth = best < kInf ? best / d.norm() : 0.0;
      cut += best < kInf;
      EXPECT_NEAR(img.depth[v * img.width + u], depth, 1e-5) << u << ", " << v;
    }
  }
  EXPECT_EQ(img.medium_pixels, cut);
  EXPECT_GT(cut, 100);
  EXPECT_LT(cut, img.width * img.height);
}

TEST(RgbCamera, ColorBytesRoundAsLround) {
  // Camera::color_byte is lround(clamp(c, 0, 1) * 255) without the call: every half-way point,
  // its neighbours and random values round the same.
  auto reference = [](double c) {
    return static_cast<std::uint8_t>(std::lround(std::clamp(c, 0.0, 1.0) * 255.0));
  };
  std::vector<double> values = {-1.0, -0.0, 0.0, 1.0, 2.0, 0.5, kInf, -kInf};
  for (int k = 0; k <= 510; ++k) {
    const double half = k / 510.0;
    for (const double c : {half, std::nextafter(half, -1.0), std::nextafter(half, 2.0)}) {
      values.push_back(c);
    }
  }
  RandomStream rng(7);
  for (int i = 0; i < 100000; ++i) values.push_back(rng.uniform(-0.1, 1.1));
  for (const double c : values) EXPECT_EQ(Camera::color_byte(c), reference(c)) << c;
}

TEST(RgbCameraMedia, CulledCellsGiveTheBruteForceAnswer) {
  // 40 random cells of random densities all around a tilted camera that sees only sky: each
  // pixel is the sky blended towards every cell its ray enters (within the far clip), farthest
  // first, tested per pixel, byte for byte.
  RandomStream rng(12);
  std::string cells;
  for (int k = 0; k < 40; ++k) {
    const Eigen::Vector3d c(rng.uniform(-6, 14), rng.uniform(-8, 8), rng.uniform(-3, 5));
    const double r = rng.uniform(0.2, 2.5);
    if ((c - Eigen::Vector3d(0, 0, 1)).norm() < r + 0.1) continue;  // not around the camera
    cells += fmt::format("{{position: [{}, {}, {}], radius: {}, density: {}}}, ", c.x(), c.y(),
                         c.z(), r, rng.uniform(0.0, 1.0));
  }
  Simulation sim = make_sim(camera_world(
      "name: rgb_camera, width: 40, height: 30, horizontal_fov: 1.6, offset: [0, 0, 1], "
      "rpy: [0.1, -0.2, 0.3], far_clip: 12",
      "", "media:\n  - tint: [0.1, 0.7, 0.3]\n    cells: [" + cells + "]\n"));
  sim.step();
  const Camera& cam = camera(sim);
  const CameraImage& img = cam.image();
  const Eigen::Matrix3d r = img.pose.orientation.toRotationMatrix();
  const media::MediumSnapshot& snapshot = sim.media()[0];
  int tinted = 0;
  for (int v = 0; v < img.height; ++v) {
    for (int u = 0; u < img.width; ++u) {
      const Eigen::Vector3d d = (r * link_direction(cam.params(), u, v)).normalized();
      std::vector<std::pair<double, double>> entries;  // (distance, opacity)
      for (const media::MediumCell& cell : snapshot.cells) {
        if (cell.effective_density() < 0.05) continue;
        const double t =
            media::entry_distance(img.pose.position, d, cell.position, cell.effective_radius(),
                                  cam.params().preview_distance);
        if (t < kInf) entries.emplace_back(t, std::min(cell.effective_density() * 0.75, 0.85));
      }
      std::sort(entries.begin(), entries.end(), std::greater<>());
      Eigen::Vector3d c(Lighting{}.sky[0], Lighting{}.sky[1], Lighting{}.sky[2]);
      const Eigen::Vector3d tint(0.1, 0.7, 0.3);
      for (const auto& [t, opacity] : entries) {
        for (int i = 0; i < 3; ++i) c[i] = c[i] + (tint[i] - c[i]) * opacity;
      }
      tinted += !entries.empty();
      EXPECT_EQ(pixel(img, u, v),
                (std::array<std::uint8_t, 4>{byte_of(c.x()), byte_of(c.y()), byte_of(c.z()), 0}))
          << u << ", " << v;
    }
  }
  EXPECT_EQ(img.medium_pixels, tinted);
  EXPECT_GT(tinted, 100);
  EXPECT_LT(tinted, img.width * img.height);
}

}  // namespace
}  // namespace ubot
