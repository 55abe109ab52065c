// Cameras through the bridge: <ns>/<camera>/image_raw (rgb8; depth as 16UC1 millimetres) and
// <ns>/<camera>/camera_info in the optical frame, the static link -> optical transform, on the
// in-memory transport and end to end over CycloneDDS on loopback.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "cyclone_test_support.h"
#include "ubot/config/load_world.h"
#include "ubot/ros2/bridge.h"
#include "ubot/ros2/cyclone_transport.h"
#include "ubot/ros2/fake_transport.h"
#include "ubot/sensors/camera/camera.h"

namespace ubot::ros2 {
namespace {

std::string camera_world(const std::string& robot) {
  return R"(
world: {width: 20, height: 20, offset: [-10, -10], step_time: 0.1}
ground: {z: 0}
robot:
  - name: )" +
         robot +
         R"(
    kinematics: {name: diff}
    state: [0, 0, 0]
    static: true
    sensors:
      - {name: rgb_camera, width: 16, height: 12, offset: [0.2, 0, 1.0], rpy: [0, 0.1, 0]}
      - {name: depth_camera, width: 8, height: 6, fx: 5, fy: 6, cx: 3.5, cy: 2.5, offset: [0.2, 0, 1]}
      - {name: depth_camera, width: 8, height: 6, update_rate_hz: 5, enabled: false}
obstacle:
  - {shape: {name: linestring, vertices: [[4, -10], [4, 10]]}, state: [0, 0, 0], height: 5, color: tomato}
)";
}

Simulation camera_sim(const std::string& robot = "rover") {
  return Simulation(load_world_from_string(camera_world(robot), "cams.yaml"), {.threads = 1});
}

const Camera& camera(const Simulation& sim, int i) {
  return static_cast<const Camera&>(*sim.sensors()[i]);
}

TEST(BridgeCameras, ImagesCameraInfoAndOpticalFrames) {
  FakeTransport transport;
  Simulation sim = camera_sim();
  Bridge bridge(transport, sim);
  for (const char* topic : {"/rover/rgb_camera_0/image_raw", "/rover/rgb_camera_0/camera_info",
                            "/rover/depth_camera_0/image_raw", "/rover/depth_camera_1/image_raw"}) {
    EXPECT_NE(transport.writer_qos(topic), nullptr) << topic;
  }
  // Static transforms: per camera base_link -> link (the mount) and link -> optical.
  const auto statics = transport.messages<TFMessage>("/tf_static").at(0).transforms;
  ASSERT_EQ(statics.size(), 6u);
  EXPECT_EQ(statics[0].header.frame_id, "rover/base_link");
  EXPECT_EQ(statics[0].child_frame_id, "rover/rgb_camera_0");
  EXPECT_DOUBLE_EQ(statics[0].transform.translation.x, 0.2);
  EXPECT_DOUBLE_EQ(statics[0].transform.translation.z, 1.0);
  EXPECT_DOUBLE_EQ(statics[0].transform.rotation.y, std::sin(0.05));
  const TransformStamped& optical = statics[1];
  EXPECT_EQ(optical.header.frame_id, "rover/rgb_camera_0");
  EXPECT_EQ(optical.child_frame_id, "rover/rgb_camera_0_optical");
  EXPECT_EQ(optical.transform.translation.x, 0.0);
  EXPECT_EQ(optical.transform.rotation.x, -0.5);
  EXPECT_EQ(optical.transform.rotation.y, 0.5);
  EXPECT_EQ(optical.transform.rotation.z, -0.5);
  EXPECT_EQ(optical.transform.rotation.w, 0.5);
  EXPECT_EQ(statics[3].child_frame_id, "rover/depth_camera_0_optical");

  for (int k = 0; k < 2; ++k) {
    sim.step(bridge.commands(sim));
    bridge.publish(sim);
  }
  const auto rgb = transport.messages<Image>("/rover/rgb_camera_0/image_raw");
  ASSERT_EQ(rgb.size(), 2u);
  const Image& m = rgb.back();
  EXPECT_EQ(m.header.frame_id, "rover/rgb_camera_0_optical");
  EXPECT_EQ(m.header.stamp.nanosec, 200'000'000u);
  EXPECT_EQ(m.encoding, "rgb8");
  EXPECT_EQ(m.width, 16u);
  EXPECT_EQ(m.height, 12u);
  EXPECT_EQ(m.step, 48u);
  EXPECT_EQ(m.is_bigendian, 0);
  const CameraImage& img = camera(sim, 0).image();
  ASSERT_EQ(m.data.size(), 16u * 12u * 3u);
  for (std::size_t p = 0; p < 16 * 12; ++p) {
    for (int c = 0; c < 3; ++c) ASSERT_EQ(m.data[3 * p + c], img.rgba[4 * p + c]);
  }
  const auto infos = transport.messages<CameraInfo>("/rover/rgb_camera_0/camera_info");
  ASSERT_EQ(infos.size(), 2u);
  EXPECT_EQ(infos.back().header, m.header);

  // Depth: 16UC1 little-endian millimetres, 0 = no data; K and P from the explicit intrinsics.
  const Image d = transport.messages<Image>("/rover/depth_camera_0/image_raw").back();
  EXPECT_EQ(d.encoding, "16UC1");
  EXPECT_EQ(d.step, 16u);
  const CameraImage& depth = camera(sim, 1).image();
  int valid = 0;
  for (std::size_t p = 0; p < 8 * 6; ++p) {
    const int mm = d.data[2 * p] | d.data[2 * p + 1] << 8;
    EXPECT_EQ(mm, std::lround(depth.depth[p] * 1000.0)) << p;
    valid += mm > 0;
  }
  EXPECT_GT(valid, 10);
  // The wall at x = 4 seen from x = 0.2 along the axis: 3.8 m at every pixel that sees it.
  EXPECT_EQ(d.data[2 * (2 * 8 + 3)] | d.data[2 * (2 * 8 + 3) + 1] << 8, 3800);
  const CameraInfo info =
      transport.messages<CameraInfo>("/rover/depth_camera_0/camera_info").back();
  EXPECT_EQ(info.header.frame_id, "rover/depth_camera_0_optical");
  EXPECT_EQ(info.width, 8u);
  EXPECT_EQ(info.height, 6u);
  EXPECT_EQ(info.distortion_model, "plumb_bob");
  EXPECT_EQ(info.d, (std::vector<double>{0, 0, 0, 0, 0}));
  EXPECT_EQ(info.k, (std::array<double, 9>{5, 0, 3.5, 0, 6, 2.5, 0, 0, 1}));
  EXPECT_EQ(info.p, (std::array<double, 12>{5, 0, 3.5, 0, 0, 6, 2.5, 0, 0, 0, 1, 0}));
  EXPECT_EQ(info.r, (std::array<double, 9>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
  // A disabled camera publishes nothing.
  EXPECT_TRUE(transport.messages<Image>("/rover/depth_camera_1/image_raw").empty());
}

TEST(BridgeCameras, DepthImageArrivesOverCycloneLoopback) {
  testing::use_loopback_dds();
  auto transport = make_cyclone_transport({.domain_id = testing::test_domain()});
  const std::string robot = "cams_" + std::to_string(getpid());
  Simulation sim = camera_sim(robot);
  std::vector<Image> images;
  std::vector<CameraInfo> infos;
  auto sub = subscribe<Image>(*transport, "/" + robot + "/depth_camera_0/image_raw",
                              default_sensor_qos(), [&](const Image* m, std::string_view) {
                                if (m) images.push_back(*m);
                              });
  auto info_sub =
      subscribe<CameraInfo>(*transport, "/" + robot + "/depth_camera_0/camera_info",
                            default_sensor_qos(), [&](const CameraInfo* m, std::string_view) {
                              if (m) infos.push_back(*m);
                            });
  Bridge bridge(*transport, sim);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while ((images.empty() || infos.empty()) && std::chrono::steady_clock::now() < deadline) {
    sim.step(bridge.commands(sim));
    bridge.publish(sim);
    transport->spin(50'000'000);
  }
  ASSERT_FALSE(images.empty());
  ASSERT_FALSE(infos.empty());
  const Image& m = images.back();
  EXPECT_EQ(m.encoding, "16UC1");
  EXPECT_EQ(m.header.frame_id, robot + "/depth_camera_0_optical");
  ASSERT_EQ(m.data.size(), 8u * 6u * 2u);
  EXPECT_EQ(m.data[2 * (2 * 8 + 3)] | m.data[2 * (2 * 8 + 3) + 1] << 8, 3800);
  EXPECT_EQ(infos.back().k[0], 5.0);
  bridge.shutdown();
}

}  // namespace
}  // namespace ubot::ros2
