// The .msg schema text of MCAP recordings (rosbag2's "ros2msg" form), against the official
// definitions in ros2/common_interfaces (fields in declaration order; constants and comments
// left out).
#include "ubot/ros2/message_definition.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ubot/core/error.h"

namespace ubot::ros2 {
namespace {

const std::string kSeparator = std::string(80, '=') + "\n";

std::vector<std::string> msg_lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while ((at = text.find("MSG: ", at)) != std::string::npos) {
    const std::size_t end = text.find('\n', at);
    out.push_back(text.substr(at + 5, end - at - 5));
    at = end;
  }
  return out;
}

TEST(MessageDefinition, LaserScanWithItsDependencies) {
  EXPECT_EQ(message_definition(MessageKind::kLaserScan),
            "std_msgs/Header header\n"
            "float32 angle_min\n"
            "float32 angle_max\n"
            "float32 angle_increment\n"
            "float32 time_increment\n"
            "float32 scan_time\n"
            "float32 range_min\n"
            "float32 range_max\n"
            "float32[] ranges\n"
            "float32[] intensities\n" +
                kSeparator +
                "MSG: builtin_interfaces/Time\n"
                "int32 sec\n"
                "uint32 nanosec\n" +
                kSeparator +
                "MSG: std_msgs/Header\n"
                "builtin_interfaces/Time stamp\n"
                "string frame_id\n");
}

TEST(MessageDefinition, FixedArraysSequencesOfStructsAndBooleans) {
  const std::string odom = message_definition("nav_msgs/msg/Odometry");
  EXPECT_EQ(odom.substr(0, odom.find('\n', odom.find("twist\n"))),
            "std_msgs/Header header\n"
            "string child_frame_id\n"
            "geometry_msgs/PoseWithCovariance pose\n"
            "geometry_msgs/TwistWithCovariance twist");
  EXPECT_NE(odom.find("MSG: geometry_msgs/PoseWithCovariance\n"
                      "geometry_msgs/Pose pose\n"
                      "float64[36] covariance\n"),
            std::string::npos);
  EXPECT_EQ(
      msg_lines(odom),
      (std::vector<std::string>{
          "builtin_interfaces/Time", "geometry_msgs/Point", "geometry_msgs/Pose",
          "geometry_msgs/PoseWithCovariance", "geometry_msgs/Quaternion", "geometry_msgs/Twist",
          "geometry_msgs/TwistWithCovariance", "geometry_msgs/Vector3", "std_msgs/Header"}));
  const std::string cloud = message_definition(MessageKind::kPointCloud2);
  EXPECT_NE(cloud.find("sensor_msgs/PointField[] fields\nbool is_bigendian\n"), std::string::npos);
  EXPECT_NE(cloud.find("uint8[] data\nbool is_dense\n"), std::string::npos);
  EXPECT_NE(cloud.find("MSG: sensor_msgs/PointField\nstring name\nuint32 offset\nuint8 datatype\n"
                       "uint32 count\n"),
            std::string::npos);
  EXPECT_EQ(message_definition(MessageKind::kTFMessage).substr(0, 50),
            "geometry_msgs/TransformStamped[] transforms\n" + kSeparator.substr(0, 6));
}

TEST(MessageDefinition, EveryTypeNamesEachDependencyOnce) {
  for (MessageKind kind : {MessageKind::kClock, MessageKind::kTFMessage, MessageKind::kOdometry,
                           MessageKind::kTwist, MessageKind::kTwistStamped, MessageKind::kLaserScan,
                           MessageKind::kPointCloud2, MessageKind::kImu, MessageKind::kImage,
                           MessageKind::kCameraInfo, MessageKind::kMarkerArray}) {
    const std::string text = message_definition(kind);
    const std::vector<std::string> deps = msg_lines(text);
    for (std::size_t i = 1; i < deps.size(); ++i) EXPECT_LT(deps[i - 1], deps[i]) << text;
    // Every nested type used in a field has its section.
    std::size_t at = 0;
    while ((at = text.find('/', at)) != std::string::npos) {
      const std::size_t begin = text.rfind('\n', at) + 1;
      const std::size_t end = text.find_first_of(" [\n", at);
      const std::string type = text.substr(begin, end - begin);
      if (type.rfind("MSG: ", 0) != 0) {
        EXPECT_NE(text.find("MSG: " + type + "\n"), std::string::npos) << type;
      }
      at = text.find('\n', at);
    }
  }
}

TEST(MessageDefinition, UnknownTypeIsAnError) {
  EXPECT_THROW(message_definition("sensor_msgs/msg/Nope"), Error);
}

}  // namespace
}  // namespace ubot::ros2
