// What the top-down pictures show: of cameras, the frustum's side edges from the camera, along
// its heading, at the analytic fov; of fields of view, a ring in the observer's colour around
// each object it detects; of many lidars, every sensor with its beams thinned by one stride past
// the beam budget; of long runs, trajectories thinned past theirs; run.gif's reduced frames.
#include "ubot/viz/run_drawing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "ubot/config/load_world.h"
#include "ubot/render/drawing.h"

namespace ubot::viz {
namespace {

TEST(RunDrawing, CameraFrustaAreTheirSideEdges) {
  Simulation sim(load_world_from_string(R"(
world: {width: 20, height: 20, offset: [-10, -10]}
robot:
  - kinematics: {name: diff}
    state: [1, 2, 0.5]
    static: true
    sensors:
      - {name: rgb_camera, width: 40, height: 30, horizontal_fov: 1.2, offset: [0.5, 0, 1]}
      - {name: depth_camera, width: 40, height: 30, max_depth: 2, offset: [0, 0, 1], rpy: [0, 0, 1]}
)",
                                        "w.yaml"),
                 {.threads = 1});
  sim.step();
  const render::Drawing d = RunDrawing(sim).draw(sim);
  ASSERT_EQ(d.beams.size(), 2u);
  // rgb: from the mount (0.5 m ahead along yaw 0.5), 3 m deep, edges at ±0.6 rad.
  const render::BeamsDrawing& rgb = d.beams[0];
  EXPECT_NEAR(rgb.origin.x(), 1 + 0.5 * std::cos(0.5), 1e-12);
  EXPECT_NEAR(rgb.origin.y(), 2 + 0.5 * std::sin(0.5), 1e-12);
  ASSERT_EQ(rgb.end_points.size(), 2u);
  for (int k = 0; k < 2; ++k) {
    const Eigen::Vector2d e = rgb.end_points[k] - rgb.origin;
    const double side = k == 0 ? 0.6 : -0.6;  // the left edge first (u = -0.5)
    EXPECT_NEAR(std::atan2(e.y(), e.x()), 0.5 + side, 1e-12);
    EXPECT_NEAR(e.norm(), 3.0 / std::cos(0.6), 1e-12);
  }
  EXPECT_FALSE(rgb.mark_hits);
  // depth: turned by its yaw 1 on top of the body's 0.5; as deep as its 2 m range.
  const render::BeamsDrawing& depth = d.beams[1];
  const Eigen::Vector2d mid = (depth.end_points[0] + depth.end_points[1]) / 2 - depth.origin;
  EXPECT_NEAR(std::atan2(mid.y(), mid.x()), 1.5, 1e-12);
  EXPECT_NEAR(mid.norm(), 2.0, 1e-12);
}

const std::string kKnownWorld = UBOT_SOURCE_DIR "/tests/data/fov_known_world.yaml";

// The straight RGB of pixel (x, y) of a straight-RGBA picture `width` pixels wide.
std::array<int, 3> pixel(const std::vector<std::uint8_t>& rgba, int width, int x, int y) {
  const std::size_t i = (static_cast<std::size_t>(y) * width + x) * 4;
  return {rgba[i], rgba[i + 1], rgba[i + 2]};
}

// tests/data/fov_known_world.yaml (hand-computed in tests/world/fov_test.cpp): after step 1 the
// watcher (a robot: green, matplotlib "g" = (0, 0.5, 0)) sees east and the wall; after step 6
// only north. north (black, "k") always sees the watcher.
TEST(RunDrawing, FovHighlightsRingWhatEachShownSectorDetects) {
  Simulation sim(load_world(kKnownWorld), {.threads = 1});
  RunDrawing drawing(sim);
  const render::Color green{0.0, 0.5, 0.0, 1.0}, black{0.0, 0.0, 0.0, 1.0};
  auto expect_highlights = [&](const render::Drawing& d,
                               const std::vector<std::pair<int, render::Color>>& expected) {
    ASSERT_EQ(d.highlights.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const auto& [id, color] = expected[i];
      const render::Shape& want = d.objects[id].shape;  // the detected object's own outline
      EXPECT_EQ(d.highlights[i].shape.kind, want.kind) << i;
      EXPECT_EQ(d.highlights[i].shape.center, want.center) << i;
      EXPECT_EQ(d.highlights[i].shape.vertices, want.vertices) << i;
      EXPECT_EQ(d.highlights[i].color.g, color.g) << i;
      EXPECT_EQ(d.highlights[i].color.a, 1.0) << i;
    }
  };
  // 700 x 600 px for the 14 m x 12 m world: 50 px/m, world (x, y) at pixel (50 x, 600 - 50 y).
  // east (r 0.5 at (8, 5)): its ring spans 25 + 3 .. 25 + 5 px from pixel (400, 350).
  const render::ImageSize size{700, 600};
  sim.step();
  drawing.record(sim);
  render::Drawing d = drawing.draw(sim);
  expect_highlights(d, {{1, green}, {3, green}, {0, black}});
  std::vector<std::uint8_t> rgba = render::render_rgba(d, size);
  const std::array<int, 3> ring = pixel(rgba, size.width_px, 428, 350);
  EXPECT_LT(ring[0], 40);
  EXPECT_NEAR(ring[1], 128, 20);
  EXPECT_LT(ring[2], 40);
  for (int k = 2; k <= 6; ++k) {
    sim.step();
    drawing.record(sim);
  }
  d = drawing.draw(sim);
  expect_highlights(d, {{2, green}, {0, black}});
  rgba = render::render_rgba(d, size);
  EXPECT_EQ(pixel(rgba, size.width_px, 428, 350), (std::array<int, 3>{255, 255, 255}));
}

TEST(RunDrawing, FovWithoutShowFovIsNotHighlighted) {
  Simulation sim(load_world_from_string(R"(
robot:
  - {kinematics: {name: diff}, state: [1, 1, 0], fov: 1.0, fov_radius: 5}
obstacle:
  - {shape: {name: circle, radius: 0.5}, state: [3, 1, 0]}
)",
                                        "w.yaml"),
                 {.threads = 1});
  sim.step();
  ASSERT_EQ(sim.world().fov_detected_objects(0), std::vector<int>{1});
  EXPECT_TRUE(RunDrawing(sim).draw(sim).highlights.empty());
}

TEST(RunDrawing, TrajectoriesStartAgainAfterAReset) {
  Simulation sim(load_world_from_string(R"(
robot:
  - {kinematics: {name: diff}, state: [1, 1, 0], goal: [8, 1, 0], behavior: {name: dash}}
)",
                                        "w.yaml"),
                 {.threads = 1});
  RunDrawing drawing(sim);
  for (int k = 0; k < 5; ++k) {
    sim.step();
    drawing.record(sim);
  }
  ASSERT_EQ(drawing.draw(sim).objects.at(0).trajectory.size(), 6u);  // the start and 5 steps
  sim.reset(sim.world().seed());
  drawing.record(sim);
  sim.step();
  drawing.record(sim);
  const render::Drawing picture = drawing.draw(sim);
  const auto& trail = picture.objects.at(0).trajectory;
  ASSERT_EQ(trail.size(), 2u);  // the new episode's start and its one step
  EXPECT_DOUBLE_EQ(trail[0].x(), 1.0);
}

// n static robots in a row, each with a 360-beam lidar.
Simulation lidar_robots(int n) {
  std::string yaml = "world: {width: 100, height: 10}\nrobot:\n";
  for (int i = 0; i < n; ++i) {
    yaml += "  - {kinematics: {name: diff}, static: true, state: [" + std::to_string(1 + i) +
            ", 5, 0], sensors: [{name: lidar2d, number: 360, angle_range: 6.28}]}\n";
  }
  return Simulation(load_world_from_string(yaml, "w.yaml"), {.threads = 1});
}

// World.png's budgets but for `n` beams, or `n` trajectory points.
PictureBudget beams(std::size_t n) {
  PictureBudget b;
  b.beams = n;
  return b;
}
PictureBudget points(std::size_t n) {
  PictureBudget b;
  b.trajectory_points = n;
  return b;
}

TEST(RunDrawing, PicturesThinEveryScanByOneStridePastTheBeamBudget) {
  // 20 000 beams at most: 60 scans of 360 (21 600) keep every 2nd beam, every sensor drawn.
  Simulation many = lidar_robots(60);
  many.step();
  const RunDrawing drawing(many);
  const render::Drawing d = drawing.draw(many);
  const render::Drawing full = drawing.draw(many, {}, beams(21600));
  ASSERT_EQ(full.beam_stride, 1u);
  EXPECT_EQ(d.beam_stride, 2u);
  ASSERT_EQ(d.beams.size(), 60u);
  for (std::size_t i = 0; i < d.beams.size(); ++i) {
    EXPECT_EQ(d.beams[i].origin.x(), 1.0 + static_cast<double>(i)) << i;  // in sensor order
    ASSERT_EQ(d.beams[i].end_points.size(), 180u);
    for (std::size_t k = 0; k < 180; ++k) {
      EXPECT_EQ(d.beams[i].end_points[k], full.beams[i].end_points[2 * k]) << i << ", " << k;
    }
  }
  EXPECT_EQ(d.caption, "t = 0.10 s   step 1   every 2nd beam");
  EXPECT_EQ(full.caption, "t = 0.10 s   step 1");
  // 1000 scans: every 18th beam (20 each); 21 600 within a 1000-beam budget: every 22nd, 23rd.
  Simulation crowd = lidar_robots(1000);
  crowd.step();
  const render::Drawing thin = RunDrawing(crowd).draw(crowd);
  EXPECT_EQ(thin.beams.size(), 1000u);
  EXPECT_EQ(thin.beams.back().end_points.size(), 20u);
  EXPECT_TRUE(thin.caption.ends_with("   every 18th beam")) << thin.caption;
  EXPECT_TRUE(drawing.draw(many, {}, beams(1000)).caption.ends_with("   every 22nd beam"));
  EXPECT_TRUE(drawing.draw(many, {}, beams(940)).caption.ends_with("   every 23rd beam"));
  EXPECT_TRUE(drawing.draw(many, {}, beams(1700)).caption.ends_with("   every 13th beam"));
  // Within the budget every scan is drawn whole and the caption is the usual one.
  Simulation few = lidar_robots(55);
  few.step();
  const render::Drawing all = RunDrawing(few).draw(few);
  EXPECT_EQ(all.beams.size(), 55u);
  EXPECT_EQ(all.beam_stride, 1u);
  EXPECT_EQ(all.caption, "t = 0.10 s   step 1");
}

// Three dashing robots recorded for 10 steps: 11 points each.
TEST(RunDrawing, TrajectoriesPastTheBudgetKeepEveryMthPointAndTheLast) {
  Simulation sim(load_world_from_string(R"(
robot:
  - {kinematics: {name: diff}, state: [1, 1, 0], goal: [9, 1, 0], behavior: {name: dash}}
  - {kinematics: {name: diff}, state: [1, 3, 0], goal: [9, 3, 0], behavior: {name: dash}}
  - {kinematics: {name: diff}, state: [1, 5, 0], goal: [9, 5, 0], behavior: {name: dash}}
)",
                                        "w.yaml"),
                 {.threads = 1});
  RunDrawing drawing(sim);
  for (int k = 0; k < 10; ++k) {
    sim.step();
    drawing.record(sim);
  }
  const render::Drawing all = drawing.draw(sim, {}, points(33));
  ASSERT_EQ(all.objects.at(0).trajectory.size(), 11u);
  EXPECT_EQ(all.caption, "t = 1.00 s   step 10");
  // 33 points within 10: every 4th (0, 4, 8) and the last (10).
  const render::Drawing thin = drawing.draw(sim, {}, points(10));
  EXPECT_EQ(thin.caption, "t = 1.00 s   step 10   trajectories: every 4th point");
  for (std::size_t id = 0; id < 3; ++id) {
    const auto& full = all.objects.at(id).trajectory;
    const auto& kept = thin.objects.at(id).trajectory;
    ASSERT_EQ(kept.size(), 4u) << id;
    EXPECT_EQ(kept[0], full[0]);
    EXPECT_EQ(kept[1], full[4]);
    EXPECT_EQ(kept[2], full[8]);
    EXPECT_EQ(kept[3], full[10]);  // where the robot is now
  }
  // The default budget (200 000 points) leaves them whole.
  EXPECT_EQ(drawing.draw(sim).objects.at(2).trajectory, all.objects.at(2).trajectory);
}

TEST(RunDrawing, GifFramesOfLargeWorldsAreHalfTheSideWithSmallerBudgets) {
  render::Drawing d;
  d.width = 200;
  d.height = 100;
  d.objects.resize(kGifFullObjects);
  const render::ImageSize picture = render::fit_image(d, 800);
  const GifFrames small = gif_frames(d, picture);
  EXPECT_EQ(small.size.width_px, 800);
  EXPECT_EQ(small.size.height_px, 400);
  EXPECT_EQ(small.budget.beams, kPictureBeams);
  EXPECT_EQ(small.budget.trajectory_points, kPictureTrajectoryPoints);
  EXPECT_EQ(small.budget.caption_note, "");
  EXPECT_EQ(small.sample_stride, 1);
  d.objects.resize(kGifFullObjects + 1);
  const GifFrames large = gif_frames(d, picture);
  EXPECT_EQ(large.size.width_px, 400);
  EXPECT_EQ(large.size.height_px, 200);
  EXPECT_EQ(large.budget.beams, 2000u);
  EXPECT_EQ(large.budget.trajectory_points, 50000u);
  EXPECT_EQ(large.budget.caption_note, "   frames 400 px, every 2nd sample");
  EXPECT_EQ(large.sample_stride, 2);
  // A frame every 5th sample for 1500 objects, 34th for 10 000.
  d.objects.resize(5 * kGifFullObjects);
  EXPECT_EQ(gif_frames(d, picture).sample_stride, 5);
  d.objects.resize(10000);
  EXPECT_EQ(gif_frames(d, picture).sample_stride, 34);
  // Never under 200 px a side.
  EXPECT_EQ(gif_frames(d, {300, 150}).size.width_px, 200);
}

TEST(RunDrawing, ABeamBudgetThinsEveryScanByOneStride) {
  // The live page's rule: 100 scans of 360 within 8000 beams: every 5th beam of every scan.
  Simulation sim = lidar_robots(100);
  sim.step();
  const RunDrawing drawing(sim);
  const render::Drawing full = drawing.draw(sim, {.sensors = true, .beams_at_most = 40000});
  const render::Drawing thin = drawing.draw(sim, {.sensors = true, .beams_at_most = 8000});
  ASSERT_EQ(full.beam_stride, 1u);
  ASSERT_EQ(full.beams.size(), 100u);
  EXPECT_EQ(thin.beam_stride, 5u);
  ASSERT_EQ(thin.beams.size(), 100u);
  for (std::size_t i = 0; i < thin.beams.size(); ++i) {
    ASSERT_EQ(thin.beams[i].end_points.size(), 72u) << i;
    ASSERT_EQ(thin.beams[i].hit.size(), 72u) << i;
    for (std::size_t k = 0; k < 72; ++k) {
      EXPECT_EQ(thin.beams[i].end_points[k], full.beams[i].end_points[5 * k]) << i << ", " << k;
      EXPECT_EQ(thin.beams[i].hit[k], full.beams[i].hit[5 * k]) << i << ", " << k;
    }
  }
  // A scan keeps 16 beams at the least (a fan); past that, scans are drawn while they fit:
  // 360 / 22 → 17 beams each, 470 scans within 8000.
  Simulation crowd = lidar_robots(1000);
  crowd.step();
  const render::Drawing fans =
      RunDrawing(crowd).draw(crowd, {.sensors = true, .beams_at_most = 8000});
  EXPECT_EQ(fans.beam_stride, 22u);
  ASSERT_EQ(fans.beams.size(), 8000u / 17u);
  for (const auto& b : fans.beams) EXPECT_EQ(b.end_points.size(), 17u);
}

// IR-SIM's fog of map: the unexplored cells over the obstacles and under the robots; a robot's
// field of view clears the cells around it after a step.
TEST(RunDrawing, FogCoversTheObstaclesAndLiesUnderTheRobots) {
  Simulation sim(load_world_from_string(R"(
world: {width: 4, height: 4, fog_map: true, fog_map_resolution: 0.5}
robot:
  - state: [2, 2, 0]
    fov: 6.28  # (6.2832 would wrap to 2e-5 rad, as IR-SIM's WrapTo2Pi does)
    fov_radius: 0.6
obstacle:
  - shape: {name: circle, radius: 0.2}
    state: [3.5, 3.5, 0]
)",
                                        "fog.yaml"),
                 {.threads = 1});
  render::Drawing d = RunDrawing(sim).draw(sim);
  ASSERT_TRUE(d.fog.has_value());
  EXPECT_EQ(d.fog->nx, 8);
  EXPECT_EQ(d.fog->ny, 8);
  EXPECT_EQ(std::count(d.fog->fogged.begin(), d.fog->fogged.end(), 1), 64);  // nothing seen yet
  ASSERT_EQ(d.objects.size(), 2u);
  EXPECT_EQ(d.objects_under_fog, 1u);
  EXPECT_EQ(d.objects[0].shape.radius, 0.2);  // the obstacle first, under the fog
  sim.step();
  d = RunDrawing(sim).draw(sim);
  // The four cells around (2, 2) have centres 0.35 m away: within 0.6 m, revealed.
  EXPECT_EQ(std::count(d.fog->fogged.begin(), d.fog->fogged.end(), 1), 60);
  EXPECT_EQ(d.fog->fogged[3 * 8 + 3], 0);
  EXPECT_EQ(d.fog->fogged[0], 1);
}

TEST(RunDrawing, CompoundShapesDrawEveryPart) {
  Simulation sim(load_world_from_string(R"(
robot:
  - shape:
      name: compound
      parts:
        - {name: rectangle, length: 0.8, width: 0.3}
        - {name: circle, radius: 0.2, pose: [1, 0, 0]}
    state: [2, 2, 0]
)",
                                        "compound.yaml"),
                 {.threads = 1});
  const render::Drawing d = RunDrawing(sim).draw(sim);
  ASSERT_EQ(d.objects.size(), 2u);
  EXPECT_FALSE(d.fog.has_value());
  EXPECT_EQ(d.objects[0].shape.kind, render::Shape::Kind::kCircle);  // the other part first
  EXPECT_EQ(d.objects[0].shape.center, Eigen::Vector2d(3, 2));
  EXPECT_EQ(d.objects[1].shape.kind, render::Shape::Kind::kPolygon);  // arrow and goal on it
  EXPECT_TRUE(d.objects[1].pose.has_value());
}

}  // namespace
}  // namespace ubot::viz
