// What the top-down pictures show of cameras: the frustum's side edges from the camera, along
// its heading, at the analytic fov.
#include "ubot/viz/run_drawing.h"

#include <gtest/gtest.h>

#include <cmath>

#include "ubot/config/load_world.h"

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

}  // namespace
}  // namespace ubot::viz
