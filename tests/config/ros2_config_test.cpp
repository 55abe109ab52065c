// The per-robot `ros2:` section: defaults, every key, and strict errors.
#include <gtest/gtest.h>

#include "load_error.h"
#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/ros2/ros2_config.h"

namespace ubot {
namespace {

std::string ros2_error(const std::string& yaml) {
  return testing_support::load_error(yaml, "ros.yaml");
}

TEST(Ros2Config, DefaultsWithoutASection) {
  const WorldModel m = load_world_from_string("robot:\n  - kinematics: {name: diff}\n", "w.yaml");
  const Ros2Model& r = *m.objects[0].ros2;
  EXPECT_TRUE(r.enabled);
  EXPECT_EQ(r.namespace_override, "");
  EXPECT_EQ(r.topic_override, "");
  EXPECT_DOUBLE_EQ(r.command_timeout, 0.5);
  EXPECT_TRUE(r.auto_start);
  EXPECT_EQ(r.target, "");
  EXPECT_FALSE(r.cmd_vel_stamped);
  EXPECT_FALSE(r.use_inf);
  EXPECT_TRUE(r.sensor_qos.reliable);
  EXPECT_FALSE(r.sensor_qos.transient_local);
  EXPECT_EQ(r.sensor_qos.depth, 10);
}

TEST(Ros2Config, EveryKey) {
  const WorldModel m = load_world_from_string(
      "robot:\n"
      "  - kinematics: {name: diff}\n"
      "    ros2:\n"
      "      enabled: false\n"
      "      namespace_override: /fleet/a\n"
      "      topic_override: teleop/cmd\n"
      "      command_timeout: 0\n"
      "      auto_start: false\n"
      "      target: robot_1\n"
      "      cmd_vel_stamped: true\n"
      "      use_inf: true\n"
      "      sensor_qos: {reliability: best_effort, durability: transient_local, depth: 3}\n"
      "  - kinematics: {name: omni}\n",
      "w.yaml");
  const Ros2Model& r = *m.objects[0].ros2;
  EXPECT_FALSE(r.enabled);
  EXPECT_EQ(r.namespace_override, "/fleet/a");
  EXPECT_EQ(r.topic_override, "teleop/cmd");
  EXPECT_DOUBLE_EQ(r.command_timeout, 0.0);
  EXPECT_FALSE(r.auto_start);
  EXPECT_EQ(r.target, "robot_1");
  EXPECT_TRUE(r.cmd_vel_stamped);
  EXPECT_TRUE(r.use_inf);
  EXPECT_FALSE(r.sensor_qos.reliable);
  EXPECT_TRUE(r.sensor_qos.transient_local);
  EXPECT_EQ(r.sensor_qos.depth, 3);
  EXPECT_TRUE(m.objects[1].ros2->enabled);
}

TEST(Ros2Config, ErrorsNameTheKey) {
  EXPECT_EQ(ros2_error("robot:\n  - ros2: {comand_timeout: 1}\n"),
            "ros.yaml:2:12: robot[0].ros2.comand_timeout: unknown key 'comand_timeout' (did you "
            "mean 'command_timeout'?)");
  EXPECT_EQ(ros2_error("robot:\n  - ros2: {command_timeout: -1}\n"),
            "ros.yaml:2:29: robot[0].ros2.command_timeout: must not be negative, got -1");
  EXPECT_EQ(ros2_error("robot:\n  - ros2: {sensor_qos: {reliability: sometimes}}\n"),
            "ros.yaml:2:38: robot[0].ros2.sensor_qos.reliability: unknown value 'sometimes' "
            "(expected one of: reliable, best_effort)");
  EXPECT_EQ(ros2_error("robot:\n  - ros2: {sensor_qos: {depth: 0}}\n"),
            "ros.yaml:2:32: robot[0].ros2.sensor_qos.depth: must be an integer in [1, 100000]");
  EXPECT_EQ(ros2_error("obstacle:\n  - ros2: {enabled: true}\n"),
            "ros.yaml:2:11: obstacle[0].ros2: the ROS 2 bridge publishes and drives robots only");
  EXPECT_EQ(ros2_error("robot:\n  - ros2: {enabled: maybe}\n"),
            "ros.yaml:2:21: robot[0].ros2.enabled: expected true or false, got 'maybe'");
}

TEST(Ros2Config, TwoReceiversDrivingOneObjectIsALoadErrorNamingBoth) {
  // robot_1 drives itself (no ros2 section: its entry is the declaration); robot_0 targets it.
  EXPECT_EQ(
      ros2_error("robot:\n"
                 "  - ros2: {target: robot_1}\n"
                 "  - kinematics: {name: omni}\n"),
      "ros.yaml:3:5: robot[1]: the cmd_vel receivers of robot_1 and of robot_0 (ros.yaml:2:20: "
      "robot[0].ros2.target) both drive 'robot_1'; an object takes commands from one "
      "receiver (give one of them another ros2.target, or ros2.enabled: false)");
  // Two robots targeting the same obstacle; the second's ros2 section has the target.
  EXPECT_EQ(ros2_error("robot:\n"
                       "  - ros2: {target: crate}\n"
                       "  - name: r2\n"
                       "    ros2:\n"
                       "      target: crate\n"
                       "obstacle:\n"
                       "  - name: crate\n"),
            "ros.yaml:5:15: robot[1].ros2.target: the cmd_vel receivers of r2 and of robot_0 "
            "(ros.yaml:2:20: robot[0].ros2.target) both drive 'crate'; an object takes commands "
            "from one receiver (give one of them another ros2.target, or ros2.enabled: false)");
  // One group of two robots with one target: the same line, both names.
  EXPECT_EQ(ros2_error("robot:\n"
                       "  - number: 2\n"
                       "    ros2: {target: box}\n"
                       "obstacle:\n"
                       "  - name: box\n"),
            "ros.yaml:3:20: robot[0].ros2.target: the cmd_vel receivers of robot_1 and of robot_0 "
            "(ros.yaml:3:20: robot[0].ros2.target) both drive 'box'; an object takes commands "
            "from one receiver (give one of them another ros2.target, or ros2.enabled: false)");
}

TEST(Ros2Config, OneReceiverPerObjectLoads) {
  // A robot without a bridge drives nothing; an explicit self-target is the default one.
  const WorldModel m = load_world_from_string(
      "robot:\n"
      "  - ros2: {target: robot_1}\n"
      "  - ros2: {enabled: false}\n"
      "  - ros2: {target: robot_2}\n",
      "w.yaml");
  EXPECT_EQ(m.objects[0].ros2->declared_at, "w.yaml:2:20");
  EXPECT_EQ(m.objects[0].ros2->declared_path, "robot[0].ros2.target");
  EXPECT_EQ(m.objects[1].ros2->declared_at, "w.yaml:3:11");
  EXPECT_EQ(m.objects[1].ros2->declared_path, "robot[1].ros2");
}

}  // namespace
}  // namespace ubot
