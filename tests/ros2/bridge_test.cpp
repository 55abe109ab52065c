// The bridge against the in-memory transport: topics, QoS, message contents against the
// simulation's own state, and cmd_vel driving a robot then handing it back to its behaviour.
#include "ubot/ros2/bridge.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/ros2/fake_transport.h"
#include "ubot/sensors/imu/imu.h"
#include "ubot/sensors/lidar2d/lidar2d.h"
#include "ubot/sensors/lidar3d/lidar3d.h"

namespace ubot::ros2 {
namespace {

constexpr const char* kWorld = R"(
world: {width: 20, height: 20, step_time: 0.1}
robot:
  - name: robot_0
    kinematics: {name: diff}
    state: [2, 3, 0.5]
    goal: [15, 15, 0]
    vel_min: [-1, -1]
    vel_max: [1, 1]
    behavior: {name: dash}
    z: 0.25
    sensors:
      - {name: lidar2d, range_max: 8, angle_range: 3.14, number: 31, offset: [0.2, 0.1, 0.3], z: 0.4}
      - {name: lidar2d, range_max: 4, number: 5}
  - name: robot 1
    kinematics: {name: omni}
    state: [10, 10, 1.0]
    velocity: [0.3, -0.2]
    ros2: {use_inf: true, sensor_qos: {reliability: best_effort, depth: 2}}
    sensors:
      - {name: lidar2d, range_max: 2, number: 9}
  - name: car
    kinematics: {name: acker, wheelbase: 2}
    shape: {name: rectangle, length: 3, width: 1.5}
    state: [5, 15, 0, 0.2]
    velocity: [0.5, 0.2]
    ros2: {enabled: false}
obstacle:
  - shape: {name: circle, radius: 1}
    state: [6, 5, 0]
)";

Simulation make_sim(const std::string& yaml = kWorld) {
  return Simulation(load_world_from_string(yaml, "bridge.yaml"), {.threads = 1});
}

// kWorld with `ros2: <ros2>` added to robot_0 (after its `z: 0.25` line).
std::string with_robot_0_ros2(const std::string& ros2) {
  std::string yaml = kWorld;
  yaml.replace(yaml.find("    z: 0.25"), 11, "    z: 0.25\n    ros2: " + ros2);
  return yaml;
}

Twist bridge_twist(double vx, double vy, double wz) {
  Twist t;
  t.linear = {vx, vy, 0};
  t.angular.z = wz;
  return t;
}

TEST(Bridge, TopicsQosAndStaticTransforms) {
  FakeTransport transport;
  Simulation sim = make_sim();
  Bridge bridge(transport, sim);
  EXPECT_EQ(bridge.robot_namespace(0), "/robot_0");
  EXPECT_EQ(bridge.robot_namespace(1), "/robot_1");
  for (const char* topic : {"/clock", "/tf", "/robot_0/odom", "/robot_0/scan",
                            "/robot_0/lidar2d_1/scan", "/robot_1/odom", "/robot_1/scan"}) {
    ASSERT_NE(transport.writer_qos(topic), nullptr) << topic;
  }
  EXPECT_EQ(transport.writer_qos("/car/odom"), nullptr);  // ros2.enabled: false
  EXPECT_EQ(transport.writer_qos("/robot_0/scan")->reliability, Reliability::kReliable);
  EXPECT_EQ(transport.writer_qos("/robot_0/scan")->durability, Durability::kVolatile);
  EXPECT_EQ(transport.writer_qos("/robot_1/scan")->reliability, Reliability::kBestEffort);
  EXPECT_EQ(transport.writer_qos("/robot_1/scan")->depth, 2);
  EXPECT_EQ(transport.writer_qos("/tf_static")->durability, Durability::kTransientLocal);
  EXPECT_EQ(transport.subscriber_count("/robot_0/cmd_vel"), 1);
  EXPECT_EQ(transport.subscriber_count("/robot_1/cmd_vel"), 1);
  EXPECT_EQ(transport.subscriber_count("/car/cmd_vel"), 0);

  const auto statics = transport.messages<TFMessage>("/tf_static");
  ASSERT_EQ(statics.size(), 1u);
  ASSERT_EQ(statics[0].transforms.size(), 3u);
  const TransformStamped& t = statics[0].transforms[0];
  EXPECT_EQ(t.header.frame_id, "robot_0/base_link");
  EXPECT_EQ(t.child_frame_id, "robot_0/lidar2d_0");
  EXPECT_EQ(t.child_frame_id, sim.sensors()[0]->header().frame_id);
  EXPECT_DOUBLE_EQ(t.transform.translation.x, 0.2);
  EXPECT_DOUBLE_EQ(t.transform.translation.y, 0.1);
  EXPECT_DOUBLE_EQ(t.transform.translation.z, 0.4);
  EXPECT_DOUBLE_EQ(t.transform.rotation.z, std::sin(0.15));
  EXPECT_DOUBLE_EQ(t.transform.rotation.w, std::cos(0.15));
  EXPECT_EQ(statics[0].transforms[2].header.frame_id, "robot 1/base_link");
}

TEST(Bridge, ClockTfOdometryAndScansFollowTheSimulation) {
  FakeTransport transport;
  Simulation sim = make_sim();
  Bridge bridge(transport, sim);
  bridge.publish(sim);  // initial state
  for (int k = 1; k <= 7; ++k) {
    sim.step(bridge.commands(sim));
    bridge.publish(sim);
  }
  const auto clocks = transport.messages<Clock>("/clock");
  ASSERT_EQ(clocks.size(), 8u);
  EXPECT_EQ(clocks[0].clock.sec, 0);
  EXPECT_EQ(clocks[0].clock.nanosec, 0u);
  EXPECT_EQ(clocks[7].clock.sec, 0);
  EXPECT_EQ(clocks[7].clock.nanosec, 700'000'000u);

  const World& w = sim.world();
  const auto tf = transport.messages<TFMessage>("/tf").back();
  ASSERT_EQ(tf.transforms.size(), 2u);
  EXPECT_EQ(tf.transforms[0].header.frame_id, "map");
  EXPECT_EQ(tf.transforms[0].child_frame_id, "robot_0/base_link");
  EXPECT_EQ(tf.transforms[0].transform.translation.x, w.object(0).state[0]);
  EXPECT_EQ(tf.transforms[0].transform.translation.y, w.object(0).state[1]);
  EXPECT_EQ(tf.transforms[0].transform.translation.z, 0.25);
  EXPECT_DOUBLE_EQ(tf.transforms[0].transform.rotation.z, std::sin(w.object(0).state[2] / 2));

  const Odometry odom = transport.messages<Odometry>("/robot_0/odom").back();
  EXPECT_EQ(odom.header.stamp.nanosec, 700'000'000u);
  EXPECT_EQ(odom.header.frame_id, "map");
  EXPECT_EQ(odom.child_frame_id, "robot_0/base_link");
  EXPECT_EQ(odom.pose.pose.position.x, w.object(0).state[0]);
  // diff: body twist (v, 0, ω)
  EXPECT_EQ(odom.twist.twist.linear.x, w.object(0).velocity[0]);
  EXPECT_EQ(odom.twist.twist.linear.y, 0.0);
  EXPECT_EQ(odom.twist.twist.angular.z, w.object(0).velocity[1]);
  EXPECT_NE(odom.twist.twist.linear.x, 0.0);
  // omni: (forward, lateral, 0) as its kinematics reports it
  const Odometry odom1 = transport.messages<Odometry>("/robot_1/odom").back();
  EXPECT_EQ(odom1.twist.twist.linear.x, w.object(1).velocity[0]);
  EXPECT_EQ(odom1.twist.twist.linear.y, w.object(1).velocity[1]);
  EXPECT_EQ(odom1.twist.twist.angular.z, 0.0);

  const auto scans = transport.messages<LaserScan>("/robot_0/scan");
  ASSERT_EQ(scans.size(), 7u);  // one per step (sampled every step), none before the first
  const auto& lidar = static_cast<const Lidar2d&>(*sim.sensors()[0]);
  const LaserScanMessage expected = lidar.to_message();
  EXPECT_EQ(scans.back().header.frame_id, "robot_0/lidar2d_0");
  EXPECT_EQ(scans.back().header.stamp.nanosec, 700'000'000u);
  EXPECT_EQ(scans.back().ranges, expected.ranges);
  EXPECT_EQ(scans.back().intensities, expected.intensities);
  EXPECT_EQ(scans.back().angle_min, expected.angle_min);
  EXPECT_EQ(scans.back().angle_increment, expected.angle_increment);
  EXPECT_EQ(scans.back().range_max, 8.0f);
  // use_inf (REP 117) for robot 1: its 2 m lidar sees nothing, so every range is +inf.
  const auto far = transport.messages<LaserScan>("/robot_1/scan").back();
  ASSERT_EQ(far.ranges.size(), 9u);
  for (float r : far.ranges) EXPECT_EQ(r, std::numeric_limits<float>::infinity());
}

TEST(Bridge, CmdVelDrivesTheRobotThenItsBehaviourTakesOverAfterTheTimeout) {
  FakeTransport transport;
  Simulation sim = make_sim();
  Bridge bridge(transport, sim);
  const double v = -0.4, w = 0.3, dt = 0.1;
  transport.inject("/robot_0/cmd_vel", bridge_twist(v, 0.9, w));  // linear.y: not used by diff
  std::vector<double> s = sim.world().object(0).state;
  for (int k = 0; k < 6; ++k) {  // the steps at 0.0 .. 0.5 s: exactly the timeout still holds
    sim.step(bridge.commands(sim));
    ASSERT_TRUE(bridge.receiver(0)->is_active()) << k;
    // IR-SIM's diff step with the commanded (v, ω).
    s[0] += std::cos(s[2]) * v * dt;
    s[1] += std::sin(s[2]) * v * dt;
    s[2] += w * dt;
    EXPECT_NEAR(sim.world().object(0).state[0], s[0], 1e-12);
    EXPECT_NEAR(sim.world().object(0).state[1], s[1], 1e-12);
    EXPECT_NEAR(sim.world().object(0).state[2], s[2], 1e-12);
    EXPECT_EQ(sim.world().object(0).velocity, Eigen::Vector2d(v, w));
  }
  // 0.6 s, more than 0.5 s after the command: released; the dash behaviour drives again, as a world
  // started from this state would.
  WorldModel model = load_world_from_string(kWorld, "bridge.yaml");
  model.objects[0].state = sim.world().object(0).state;
  model.objects[0].velocity = {v, w};
  World reference(model);
  reference.step();
  sim.step(bridge.commands(sim));
  EXPECT_FALSE(bridge.receiver(0)->is_active());
  EXPECT_EQ(bridge.receiver(0)->timeout_count(), 1u);
  EXPECT_EQ(sim.world().object(0).state, reference.object(0).state);
  EXPECT_NE(sim.world().object(0).velocity, Eigen::Vector2d(v, w));
}

TEST(Bridge, OutOfLimitsCommandsAreRefusedAndTheBehaviourKeepsDriving) {
  FakeTransport transport;
  Simulation sim = make_sim();
  Bridge bridge(transport, sim);
  transport.inject("/robot_0/cmd_vel", bridge_twist(2.0, 0, 0));
  const auto commands = bridge.commands(sim);
  EXPECT_FALSE(commands[0].has_value());
  EXPECT_FALSE(bridge.receiver(0)->is_active());
  EXPECT_EQ(bridge.receiver(0)->last_error(), "robot_0: linear.x = 2 is beyond the limits [-1, 1]");
}

TEST(Bridge, TargetCanBeAnotherObjectAndShutdownReleases) {
  FakeTransport transport;
  Simulation sim = make_sim(with_robot_0_ros2("{target: car}"));
  Bridge bridge(transport, sim);
  transport.inject("/robot_0/cmd_vel", bridge_twist(0.5, 0, 0.1));
  auto commands = bridge.commands(sim);
  EXPECT_FALSE(commands[0].has_value());
  ASSERT_TRUE(commands[2].has_value());
  EXPECT_DOUBLE_EQ((*commands[2])[0], 0.5);
  EXPECT_DOUBLE_EQ((*commands[2])[1], std::atan(0.1 * 2 / 0.5));
  bridge.shutdown();
  EXPECT_FALSE(bridge.receiver(0)->is_active());
  commands = bridge.commands(sim);
  EXPECT_FALSE(commands[2].has_value());
}

TEST(Bridge, TargetSetToNullLooksTheRobotItselfUpAgain) {
  FakeTransport transport;
  Simulation sim = make_sim(with_robot_0_ros2("{target: car}"));
  Bridge bridge(transport, sim);
  bridge.receiver(0)->set_target(nullptr);
  transport.inject("/robot_0/cmd_vel", bridge_twist(0.5, 0, 0.1));
  const auto commands = bridge.commands(sim);
  EXPECT_FALSE(commands[2].has_value());
  ASSERT_TRUE(commands[0].has_value());
  EXPECT_EQ(*commands[0], Eigen::Vector2d(0.5, 0.1));
}

TEST(Bridge, WithoutAutoStartTheReceiverWaitsForRestart) {
  FakeTransport transport;
  Simulation sim = make_sim(with_robot_0_ros2("{auto_start: false}"));
  Bridge bridge(transport, sim);
  EXPECT_FALSE(bridge.receiver(0)->is_ready());
  EXPECT_TRUE(bridge.receiver(1)->is_ready());
  EXPECT_EQ(transport.subscriber_count("/robot_0/cmd_vel"), 0);
  transport.inject("/robot_0/cmd_vel", bridge_twist(0.5, 0, 0.1));
  EXPECT_FALSE(bridge.commands(sim)[0].has_value());
  ASSERT_TRUE(bridge.receiver(0)->restart());
  transport.inject("/robot_0/cmd_vel", bridge_twist(0.5, 0, 0.1));
  EXPECT_TRUE(bridge.commands(sim)[0].has_value());
}

TEST(Bridge, UnknownTargetIsAnError) {
  FakeTransport transport;
  Simulation sim = make_sim(with_robot_0_ros2("{target: nobody}"));
  try {
    Bridge bridge(transport, sim);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "robot_0: ros2.target: no object named 'nobody'");
  }
}

TEST(Bridge, PointCloudImuAndImageHooks) {
  FakeTransport transport;
  Simulation sim = make_sim();
  Bridge bridge(transport, sim);
  PointCloudData cloud;
  cloud.header = {"robot_0/lidar3d_0", "robot_0/lidar3d_0", 3, 1'500'000'000, true,
                  SampleStatus::kValid};
  cloud.points = {{1.5f, -2.0f, 0.25f, 0.8f, 7, 0.01f}, {3.0f, 4.0f, -1.0f, 0.0f, 15, 0.05f}};
  bridge.publish_points(0, "lidar3d_0", cloud);
  bridge.publish_points(0, "lidar3d_1", cloud);
  const auto clouds = transport.messages<PointCloud2>("/robot_0/points");
  ASSERT_EQ(clouds.size(), 1u);
  EXPECT_EQ(transport.messages<PointCloud2>("/robot_0/lidar3d_1/points").size(), 1u);
  const PointCloud2& pc = clouds[0];
  EXPECT_EQ(pc.header.stamp.sec, 1);
  EXPECT_EQ(pc.header.stamp.nanosec, 500'000'000u);
  EXPECT_EQ(pc.header.frame_id, "robot_0/lidar3d_0");
  EXPECT_EQ(pc.height, 1u);
  EXPECT_EQ(pc.width, 2u);
  EXPECT_EQ(pc.point_step, 24u);
  EXPECT_EQ(pc.row_step, 48u);
  EXPECT_FALSE(pc.is_bigendian);
  EXPECT_TRUE(pc.is_dense);
  ASSERT_EQ(pc.fields.size(), 6u);
  const char* names[] = {"x", "y", "z", "intensity", "ring", "time"};
  const std::uint32_t offsets[] = {0, 4, 8, 12, 16, 20};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(pc.fields[i].name, names[i]);
    EXPECT_EQ(pc.fields[i].offset, offsets[i]);
    EXPECT_EQ(pc.fields[i].datatype, i == 4 ? PointField::UINT16 : PointField::FLOAT32);
    EXPECT_EQ(pc.fields[i].count, 1u);
  }
  ASSERT_EQ(pc.data.size(), 48u);
  float y1;
  std::uint16_t ring1;
  std::memcpy(&y1, pc.data.data() + 24 + 4, 4);
  std::memcpy(&ring1, pc.data.data() + 24 + 16, 2);
  EXPECT_EQ(y1, 4.0f);
  EXPECT_EQ(ring1, 15);
  EXPECT_EQ(pc.data[18], 0);  // padding
  EXPECT_EQ(pc.data[19], 0);

  ImuData imu;
  imu.header = {"robot_0/imu_0", "robot_0/imu_0", 0, 20'000'000, true, SampleStatus::kValid};
  imu.orientation = Eigen::Quaterniond(Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitZ()));
  imu.orientation_variance = Eigen::Vector3d::Zero();
  imu.angular_velocity = {0.1, 0.2, 0.3};
  imu.angular_velocity_variance = Eigen::Vector3d(1e-4, 2e-4, 3e-4);
  imu.linear_acceleration = {0, 0, 9.81};
  bridge.publish_imu(0, "imu_0", imu);
  const Imu m = transport.messages<Imu>("/robot_0/imu").at(0);
  EXPECT_EQ(m.header.stamp.nanosec, 20'000'000u);
  EXPECT_DOUBLE_EQ(m.orientation.z, std::sin(0.15));
  EXPECT_EQ(m.orientation_covariance, (std::array<double, 9>{}));
  EXPECT_EQ(m.angular_velocity_covariance,
            (std::array<double, 9>{1e-4, 0, 0, 0, 2e-4, 0, 0, 0, 3e-4}));
  EXPECT_EQ(m.linear_acceleration_covariance, (std::array<double, 9>{-1, 0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(m.linear_acceleration.z, 9.81);

  ImageData image;
  image.header = {"robot_0/cam", "robot_0/cam_optical", 0, 0, true, SampleStatus::kValid};
  image.width = 2;
  image.height = 1;
  image.encoding = "rgb8";
  image.step = 6;
  image.data = {1, 2, 3, 4, 5, 6};
  const CameraIntrinsics k{2, 1, 100, 110, 1, 0.5};
  bridge.publish_image(0, "cam", image, &k);
  const Image img = transport.messages<Image>("/robot_0/cam/image_raw").at(0);
  EXPECT_EQ(img.data, image.data);
  EXPECT_EQ(img.encoding, "rgb8");
  const CameraInfo info = transport.messages<CameraInfo>("/robot_0/cam/camera_info").at(0);
  EXPECT_EQ(info.header.frame_id, "robot_0/cam_optical");
  EXPECT_EQ(info.k, (std::array<double, 9>{100, 0, 1, 0, 110, 0.5, 0, 0, 1}));
  EXPECT_EQ(info.p, (std::array<double, 12>{100, 0, 1, 0, 0, 110, 0.5, 0, 0, 0, 1, 0}));
  EXPECT_EQ(info.distortion_model, "plumb_bob");
  EXPECT_EQ(info.d.size(), 5u);
  // Not a bridged robot: nothing is published.
  bridge.publish_imu(2, "imu_0", imu);
  EXPECT_EQ(transport.writer_qos("/car/imu"), nullptr);
}

}  // namespace
}  // namespace ubot::ros2

namespace ubot::ros2 {
namespace {

TEST(Bridge, ImuSensorsArePublishedEverySample) {
  FakeTransport transport;
  Simulation sim = make_sim(R"(
world: {step_time: 0.01}
robot:
  - name: rover
    kinematics: {name: diff}
    state: [1, 1, 0]
    static: true
    sensors:
      - {name: imu, update_rate_hz: 100, noise: true, accelerometer_noise_std: 0.02,
         gyroscope_noise_std: 0.001}
)");
  Bridge bridge(transport, sim);
  for (int k = 1; k <= 5; ++k) {
    sim.step(bridge.commands(sim));
    bridge.publish(sim);
  }
  const auto msgs = transport.messages<Imu>("/rover/imu");
  ASSERT_EQ(msgs.size(), 6u);  // 0, 10, ..., 50 ms: the grid starts at t = 0
  const auto& imu = static_cast<const ubot::Imu&>(*sim.sensors()[0]);
  const Imu& last = msgs.back();
  EXPECT_EQ(last.header.frame_id, imu.header().frame_id);
  EXPECT_EQ(last.header.stamp.nanosec, 50'000'000u);
  EXPECT_EQ(last.linear_acceleration.z, imu.data().linear_acceleration.z());
  EXPECT_NEAR(last.linear_acceleration.z, 9.81, 0.2);  // at rest, level (noisy)
  EXPECT_EQ(last.angular_velocity.x, imu.data().angular_velocity.x());
  EXPECT_EQ(last.orientation.w, 1.0);
  EXPECT_EQ(last.orientation_covariance, (std::array<double, 9>{}));
  EXPECT_DOUBLE_EQ(last.linear_acceleration_covariance[0], 0.02 * 0.02);
  EXPECT_DOUBLE_EQ(last.angular_velocity_covariance[8], 0.001 * 0.001);
  // The first two samples are WarmingUp: still published, with zero rates.
  EXPECT_EQ(msgs[0].angular_velocity.z, 0.0);
  EXPECT_EQ(msgs[0].linear_acceleration.z, 0.0);
}

// A 200 Hz IMU in a 10 Hz world: publish() after a step sends every sample the step took, in
// time order, each with its own stamp and values.
TEST(Bridge, ImuFasterThanTheWorldPublishesEverySampleOfTheStep) {
  FakeTransport transport;
  Simulation sim = make_sim(R"(
world: {step_time: 0.1}
robot:
  - name: rover
    kinematics: {name: diff}
    sensors: [{name: imu, update_rate_hz: 200}]
)");
  Bridge bridge(transport, sim);
  const auto& imu = static_cast<const ubot::Imu&>(*sim.sensors()[0]);
  std::vector<ImuReading> samples;
  for (int k = 1; k <= 3; ++k) {
    sim.step(std::vector<Command>{Eigen::Vector2d(1.0, 0.5)});
    bridge.publish(sim);
    samples.insert(samples.end(), imu.step_samples().begin(), imu.step_samples().end());
  }
  const auto msgs = transport.messages<Imu>("/rover/imu");
  ASSERT_EQ(msgs.size(), 61u);  // 0, 5, ..., 300 ms
  ASSERT_EQ(samples.size(), msgs.size());
  for (std::size_t i = 0; i < msgs.size(); ++i) {
    const Nanos stamp = static_cast<Nanos>(i) * 5'000'000;
    EXPECT_EQ(msgs[i].header.stamp.sec * 1'000'000'000ll + msgs[i].header.stamp.nanosec, stamp);
    EXPECT_EQ(samples[i].header.stamp, stamp);
    EXPECT_EQ(msgs[i].linear_acceleration.y, samples[i].data.linear_acceleration.y());
    EXPECT_EQ(msgs[i].angular_velocity.z, samples[i].data.angular_velocity.z());
    EXPECT_EQ(msgs[i].orientation.z, samples[i].data.orientation.z());
  }
  EXPECT_NEAR(msgs.back().linear_acceleration.y, 0.5, 1e-3);  // centripetal v w
  EXPECT_EQ(msgs[1].angular_velocity.z, 0.0);                 // WarmingUp
  EXPECT_NEAR(msgs[2].angular_velocity.z, 0.5, 1e-12);        // Valid from 10 ms
}

}  // namespace
}  // namespace ubot::ros2

namespace ubot::ros2 {
namespace {

TEST(Bridge, Lidar3dSweepsArePublishedAsXyzirtCloudsStampedAtTheSweepStart) {
  FakeTransport transport;
  Simulation sim = make_sim(R"(
ground: {z: 0}
robot:
  - name: rover
    kinematics: {name: diff}
    state: [1, 1, 0]
    static: true
    sensors:
      - {name: lidar3d, preset: VLP-16, number: 360, offset: [0.1, 0, 0.8], rpy: [0, 0.05, 0]}
      - {name: lidar3d, preset: VLP-16, number: 36, update_rate_hz: 5, enabled: false}
)");
  Bridge bridge(transport, sim);
  // Topics in sensor order, whichever samples first.
  ASSERT_NE(transport.writer_qos("/rover/points"), nullptr);
  ASSERT_NE(transport.writer_qos("/rover/lidar3d_1/points"), nullptr);
  const auto statics = transport.messages<TFMessage>("/tf_static");
  ASSERT_EQ(statics.at(0).transforms.size(), 2u);
  const TransformStamped& mount = statics[0].transforms[0];
  EXPECT_EQ(mount.child_frame_id, "rover/lidar3d_0");
  EXPECT_DOUBLE_EQ(mount.transform.translation.x, 0.1);
  EXPECT_DOUBLE_EQ(mount.transform.translation.z, 0.8);
  EXPECT_DOUBLE_EQ(mount.transform.rotation.y, std::sin(0.025));
  for (int k = 1; k <= 3; ++k) {
    sim.step(bridge.commands(sim));
    bridge.publish(sim);
  }
  const auto clouds = transport.messages<PointCloud2>("/rover/points");
  ASSERT_EQ(clouds.size(), 3u);
  EXPECT_TRUE(transport.messages<PointCloud2>("/rover/lidar3d_1/points").empty());  // disabled
  const auto& lidar = static_cast<const Lidar3d&>(*sim.sensors()[0]);
  const PointCloud2& pc = clouds.back();
  EXPECT_EQ(pc.header.frame_id, "rover/lidar3d_0");
  // Stamp: the sweep's start (0.3 s - 359/360 of 0.1 s), so stamp + time is a point's firing.
  const Nanos start = lidar.sweep().sweep_start;
  EXPECT_EQ(start, seconds_to_nanos(0.3 - 0.1 * 359 / 360));
  EXPECT_EQ(pc.header.stamp.sec, 0);
  EXPECT_EQ(pc.header.stamp.nanosec, static_cast<std::uint32_t>(start));
  ASSERT_EQ(pc.width, lidar.sweep().points.size());
  ASSERT_GT(pc.width, 1000u);
  EXPECT_EQ(pc.point_step, 24u);
  // The message bytes are the sweep's records.
  ASSERT_EQ(pc.data.size(), pc.width * sizeof(LidarPoint));
  EXPECT_EQ(0, std::memcmp(pc.data.data(), lidar.sweep().points.data(), pc.data.size()));
  float time_last;
  std::memcpy(&time_last, pc.data.data() + pc.data.size() - 4, 4);
  EXPECT_FLOAT_EQ(time_last, static_cast<float>(lidar.sweep_duration()));
}

TEST(Bridge, OdometryAndTfCarryTheFull3dPose) {
  FakeTransport transport;
  Simulation sim = make_sim(R"(
robot:
  - name: tilted
    kinematics: {name: diff}
    state: [1, 2, 0.4]
    z: 0.5
    roll: 0.1
    pitch: -0.2
    static: true
)");
  Bridge bridge(transport, sim);
  sim.step(bridge.commands(sim));
  bridge.publish(sim);
  const Odometry odom = transport.messages<Odometry>("/tilted/odom").back();
  const Pose3d pose = sim.world().pose3d(0);
  EXPECT_EQ(odom.pose.pose.position.z, 0.5);
  const Eigen::Quaterniond q(odom.pose.pose.orientation.w, odom.pose.pose.orientation.x,
                             odom.pose.pose.orientation.y, odom.pose.pose.orientation.z);
  EXPECT_TRUE(q.isApprox(pose.orientation, 1e-15));
  // roll 0.1, pitch -0.2, yaw 0.4 in REP 103's fixed-axis order: the body x axis.
  const Eigen::Vector3d x_axis = q * Eigen::Vector3d::UnitX();
  EXPECT_NEAR(x_axis.z(), std::sin(0.2), 1e-12);
  const auto tf = transport.messages<TFMessage>("/tf").back();
  EXPECT_EQ(tf.transforms[0].transform.rotation.x, odom.pose.pose.orientation.x);
  EXPECT_EQ(tf.transforms[0].transform.translation.z, 0.5);
}

}  // namespace
}  // namespace ubot::ros2
