// REP 2011 type hashes against the RIHS01 values ROS 2 Jazzy generates (its
// share/<pkg>/msg/<Type>.json and `ros2 topic info -v` output, as quoted in public projects that
// talk to ROS 2 without rosidl). A single wrong field name, type id, array size or reference
// order changes the hash.
#include "ubot/ros2/type_hash.h"

#include <gtest/gtest.h>

#include "ubot/core/error.h"

namespace ubot::ros2 {
namespace {

TEST(TypeHash, CanonicalJsonOfStringIsRosidlsFormat) {
  EXPECT_EQ(type_description_json("std_msgs/msg/String"),
            R"({"type_description": {"type_name": "std_msgs/msg/String", "fields": [)"
            R"({"name": "data", "type": {"type_id": 17, "capacity": 0, "string_capacity": 0, )"
            R"("nested_type_name": ""}}]}, "referenced_type_descriptions": []})");
}

TEST(TypeHash, Sha256OfKnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

struct Known {
  const char* type;
  const char* hash;
};

class PublishedHashes : public ::testing::TestWithParam<Known> {};

TEST_P(PublishedHashes, Match) { EXPECT_EQ(type_hash(GetParam().type), GetParam().hash); }

INSTANTIATE_TEST_SUITE_P(
    Jazzy, PublishedHashes,
    ::testing::Values(
        Known{"std_msgs/msg/String",
              "RIHS01_df668c740482bbd48fb39d76a70dfd4bd59db1288021743503259e948f6b1a18"},
        Known{"builtin_interfaces/msg/Time",
              "RIHS01_b106235e25a4c5ed35098aa0a61a3ee9c9b18d197f398b0e4206cea9acf9c197"},
        Known{"std_msgs/msg/Header",
              "RIHS01_f49fb3ae2cf070f793645ff749683ac6b06203e41c891e17701b1cb597ce6a01"},
        Known{"geometry_msgs/msg/Twist",
              "RIHS01_9c45bf16fe0983d80e3cfe750d6835843d265a9a6c46bd2e609fcddde6fb8d2a"},
        Known{"geometry_msgs/msg/TwistStamped",
              "RIHS01_5f0fcd4f81d5d06ad9b4c4c63e3ea51b82d6ae4d0558f1d475229b1121db6f64"},
        Known{"nav_msgs/msg/Odometry",
              "RIHS01_3cc97dc7fb7502f8714462c526d369e35b603cfc34d946e3f2eda2766dfec6e0"},
        Known{"tf2_msgs/msg/TFMessage",
              "RIHS01_e369d0f05a23ae52508854b66f6aa0437f3449d652e8cbf22d5abe85d020f087"},
        Known{"sensor_msgs/msg/LaserScan",
              "RIHS01_64c191398013af96509d518dac71d5164f9382553fce5c1f8cca5be7924bd828"},
        Known{"sensor_msgs/msg/PointCloud2",
              "RIHS01_9198cabf7da3796ae6fe19c4cb3bdd3525492988c70522628af5daa124bae2b5"},
        Known{"sensor_msgs/msg/Imu",
              "RIHS01_7d9a00ff131080897a5ec7e26e315954b8eae3353c3f995c55faf71574000b5b"},
        Known{"sensor_msgs/msg/Image",
              "RIHS01_d31d41a9a4c4bc8eae9be757b0beed306564f7526c88ea6a4588fb9582527d47"},
        Known{"sensor_msgs/msg/CameraInfo",
              "RIHS01_b3dfd68ff46c9d56c80fd3bd4ed22c7a4ddce8c8348f2f59c299e73118e7e275"},
        Known{"sensor_msgs/msg/RegionOfInterest",
              "RIHS01_ad16bcba5f9131dcdba6fbded19f726f5440e3c513b4fb586dd3027eeed8abb1"}));

TEST(TypeHash, EveryMessageKindHasAHashAndDdsName) {
  for (MessageKind kind :
       {MessageKind::kClock, MessageKind::kTFMessage, MessageKind::kOdometry, MessageKind::kTwist,
        MessageKind::kTwistStamped, MessageKind::kLaserScan, MessageKind::kPointCloud2,
        MessageKind::kImu, MessageKind::kImage, MessageKind::kCameraInfo}) {
    EXPECT_EQ(type_hash(kind).size(), 7u + 64u);
    EXPECT_EQ(type_hash(kind), type_hash(message_type(kind).ros_name));
  }
  EXPECT_STREQ(message_type(MessageKind::kLaserScan).ros_name, "sensor_msgs/msg/LaserScan");
  EXPECT_STREQ(message_type(MessageKind::kLaserScan).dds_name,
               "sensor_msgs::msg::dds_::LaserScan_");
  EXPECT_STREQ(message_type(MessageKind::kClock).dds_name, "rosgraph_msgs::msg::dds_::Clock_");
}

TEST(TypeHash, UnknownTypeIsAnError) { EXPECT_THROW(type_hash("std_msgs/msg/Nope"), Error); }

}  // namespace
}  // namespace ubot::ros2
