// The simulation -> ROS 2 message conversions shared by the bridge and the MCAP recorder: topic
// names, odometry and transforms, sensor mounts.
#include "ubot/ros2/sim_messages.h"

#include <gtest/gtest.h>

#include <cmath>

#include "ubot/config/load_world.h"
#include "ubot/core/pose3d.h"
#include "ubot/sim/simulation.h"

namespace ubot::ros2 {
namespace {

Simulation messages_sim() {
  return Simulation(load_world_from_string(R"(
world: {step_time: 0.1}
robot:
  - name: rover 7
    kinematics: {name: diff}
    state: [1, 2, 0.4]
    velocity: [0.5, 0.2]
    z: 0.3
    sensors:
      - {name: lidar2d, range_max: 5, number: 8, offset: [0.2, -0.1, 1.0], z: 0.25}
      - {name: imu, offset: [0.05, 0.02, 0.1], rpy: [0.1, -0.2, 0.3]}
)",
                                           "sim_messages.yaml"),
                    {.threads = 1});
}

TEST(RobotTopics, FirstSensorOfASuffixGetsTheShortTopic) {
  Simulation sim = messages_sim();
  RobotTopics t(sim.world().object_model(0));
  EXPECT_EQ(t.ns(), "/rover_7");
  EXPECT_EQ(t.base_frame(), "rover 7/base_link");
  EXPECT_EQ(t.odom_topic(), "/rover_7/odom");
  EXPECT_EQ(t.sensor_topic("lidar2d_0", "scan"), "/rover_7/scan");
  EXPECT_EQ(t.sensor_topic("lidar2d_1", "scan"), "/rover_7/lidar2d_1/scan");
  EXPECT_EQ(t.sensor_topic("imu_0", "imu"), "/rover_7/imu");
  EXPECT_EQ(t.sensor_topic("lidar2d_0", "scan"), "/rover_7/scan");  // kept
  EXPECT_EQ(t.sensor_topic("my lidar", "points"), "/rover_7/points");
  EXPECT_EQ(t.sensor_topic("my lidar 2", "points"), "/rover_7/my_lidar_2/points");
}

TEST(SimMessages, OdometryAndItsTransform) {
  Simulation sim = messages_sim();
  sim.step();
  const World& w = sim.world();
  const Odometry o = odometry(w, 0, "rover 7/base_link");
  EXPECT_EQ(o.header.stamp.nanosec, 100'000'000u);
  EXPECT_EQ(o.header.frame_id, "map");
  EXPECT_EQ(o.pose.pose.position.x, w.object(0).state[0]);
  EXPECT_EQ(o.pose.pose.position.z, 0.3);
  EXPECT_DOUBLE_EQ(o.pose.pose.orientation.z, std::sin(w.object(0).state[2] / 2));
  EXPECT_EQ(o.twist.twist.linear.x, w.object(0).velocity[0]);
  EXPECT_EQ(o.twist.twist.angular.z, w.object(0).velocity[1]);
  const TransformStamped t = to_transform(o);
  EXPECT_EQ(t.header, o.header);
  EXPECT_EQ(t.child_frame_id, "rover 7/base_link");
  EXPECT_EQ(t.transform.translation.y, o.pose.pose.position.y);
  EXPECT_EQ(t.transform.rotation, o.pose.pose.orientation);
  EXPECT_EQ(clock_message(w).clock, o.header.stamp);
}

TEST(SimMessages, SensorMountsOnTheBody) {
  Simulation sim = messages_sim();
  const TransformStamped lidar = sensor_transform(*sim.sensors()[0], "rover 7/base_link");
  EXPECT_EQ(lidar.header.frame_id, "rover 7/base_link");
  EXPECT_EQ(lidar.child_frame_id, "rover 7/lidar2d_0");
  EXPECT_EQ(lidar.transform.translation, (Vector3{0.2, -0.1, 0.25}));  // offset x, y; mount z
  EXPECT_DOUBLE_EQ(lidar.transform.rotation.z, std::sin(0.5));         // offset yaw 1.0
  // The IMU: its offset and its roll, pitch, yaw (the rotation its samples are expressed in).
  const TransformStamped imu = sensor_transform(*sim.sensors()[1], "rover 7/base_link");
  EXPECT_EQ(imu.child_frame_id, sim.sensors()[1]->header().frame_id);
  EXPECT_EQ(imu.transform.translation, (Vector3{0.05, 0.02, 0.1}));
  const Eigen::Quaterniond q = rotation_from_rpy(0.1, -0.2, 0.3);
  const Quaternion& r = imu.transform.rotation;
  EXPECT_NEAR(std::abs(r.x * q.x() + r.y * q.y() + r.z * q.z() + r.w * q.w()), 1.0, 1e-15);
  // Against the rotation built from elementary rotations about x, then y, then z (fixed axes).
  const Eigen::Quaterniond e = Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitZ()) *
                               Eigen::AngleAxisd(-0.2, Eigen::Vector3d::UnitY()) *
                               Eigen::AngleAxisd(0.1, Eigen::Vector3d::UnitX());
  EXPECT_NEAR(std::abs(r.x * e.x() + r.y * e.y() + r.z * e.z() + r.w * e.w()), 1.0, 1e-12);
}

}  // namespace
}  // namespace ubot::ros2
