#include "ubot/ros2/names.h"

#include <gtest/gtest.h>

namespace ubot::ros2 {
namespace {

TEST(Names, SanitizeToken) {
  EXPECT_EQ(sanitize_token("robot_0"), "robot_0");
  EXPECT_EQ(sanitize_token("my robot-1"), "my_robot_1");
  EXPECT_EQ(sanitize_token("a  b"), "a_b");
  EXPECT_EQ(sanitize_token("3d.bot"), "_3d_bot");
  EXPECT_EQ(sanitize_token("Robot__A"), "Robot_A");
  EXPECT_EQ(sanitize_token("äö"), "");
  EXPECT_EQ(sanitize_token("_"), "");
  EXPECT_EQ(sanitize_token(""), "");
}

TEST(Names, NamespaceFromIdentityOrOverride) {
  EXPECT_EQ(resolve_namespace("robot_0"), "/robot_0");
  EXPECT_EQ(resolve_namespace("robot 0"), "/robot_0");
  EXPECT_EQ(resolve_namespace("!!"), "/robot");
  EXPECT_EQ(resolve_namespace("robot_0", "fleet"), "/fleet");
  EXPECT_EQ(resolve_namespace("robot_0", "/fleet/a b/"), "/fleet/a_b");
  EXPECT_EQ(resolve_namespace("robot_0", "//x//1y//"), "/x/_1y");
  EXPECT_EQ(resolve_namespace("robot_0", "/"), "");
  EXPECT_EQ(resolve_namespace("robot_0", "///"), "");
}

TEST(Names, TopicAndOverride) {
  EXPECT_EQ(resolve_topic("/robot_0", "cmd_vel"), "/robot_0/cmd_vel");
  EXPECT_EQ(resolve_topic("", "cmd_vel"), "/cmd_vel");
  EXPECT_EQ(resolve_topic("/robot_0", "cmd_vel", "teleop/cmd"), "/teleop/cmd");
  EXPECT_EQ(resolve_topic("/robot_0", "cmd_vel", "/teleop/cmd"), "/teleop/cmd");
  EXPECT_EQ(dds_topic("/robot_0/scan"), "rt/robot_0/scan");
}

TEST(Names, Validation) {
  EXPECT_EQ(validate_topic("/robot_0/cmd_vel"), "");
  EXPECT_EQ(validate_topic("/cmd_vel"), "");
  EXPECT_NE(validate_topic(""), "");
  EXPECT_NE(validate_topic("cmd_vel"), "");
  EXPECT_NE(validate_topic("/"), "");
  EXPECT_NE(validate_topic("/a//b"), "");
  EXPECT_NE(validate_topic("/a/"), "");
  EXPECT_NE(validate_topic("/1a"), "");
  EXPECT_NE(validate_topic("/a b"), "");
  EXPECT_NE(validate_topic("/a-b"), "");
}

}  // namespace
}  // namespace ubot::ros2
