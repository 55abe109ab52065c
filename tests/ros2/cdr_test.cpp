// ubot's CDR bytes against CycloneDDS's own serialiser (dds_stream_writeLE over the idlc-generated
// type descriptors, XCDR1: what rmw_cyclonedds puts on the wire), for every message type and for
// frame ids of every length modulo 8, so that every alignment case of strings followed by 4- and
// 8-byte fields occurs. Plus two messages worked out by hand from the XCDR1 rules.
#include "ubot/ros2/cdr.h"

#include <dds/ddsi/ddsi_cdrstream.h>
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <string>

#include "cyclone_convert.h"
#include "ubot/ros2/sensor_messages.h"

namespace ubot::ros2 {
namespace {

constexpr std::uint32_t kXcdr1 = 1;  // CDR_ENC_VERSION_1

template <class M>
std::vector<std::uint8_t> cyclone_payload(const M& m) {
  typename cyclone::CType<M>::type c{};
  cyclone::Scratch scratch;
  cyclone::to_c(m, c, scratch);
  dds_ostreamLE_t os;
  dds_ostreamLE_init(&os, 0, kXcdr1);
  dds_stream_writeLE(&os, reinterpret_cast<const char*>(&c),
                     cyclone::CType<M>::descriptor()->m_ops);
  std::vector<std::uint8_t> out(os.x.m_buffer, os.x.m_buffer + os.x.m_index);
  dds_ostreamLE_fini(&os);
  return out;
}

template <class M>
void expect_same_as_cyclone(const M& m) {
  std::vector<std::uint8_t> ours;
  serialize_cdr(m, ours);
  ASSERT_GE(ours.size(), 4u);
  EXPECT_EQ(ours[0], 0x00);  // CDR_LE encapsulation
  EXPECT_EQ(ours[1], 0x01);
  EXPECT_EQ(ours[2], 0x00);
  EXPECT_EQ(ours[3], 0x00);
  const std::vector<std::uint8_t> payload(ours.begin() + 4, ours.end());
  EXPECT_EQ(payload, cyclone_payload(m)) << message_type(MessageTraits<M>::kind).ros_name;
  // The type-erased entry point gives the same bytes.
  std::vector<std::uint8_t> erased = {9, 9, 9};
  serialize_cdr(MessageTraits<M>::kind, &m, erased);
  EXPECT_EQ(erased, ours);
  // The generated reader gives the message back, and refuses every shorter prefix of it.
  M back;
  ASSERT_EQ(deserialize_cdr(ours, back), "");
  EXPECT_TRUE(back == m) << message_type(MessageTraits<M>::kind).ros_name;
  for (std::size_t cut : {ours.size() - 1, ours.size() / 2, std::size_t{5}}) {
    if (cut >= ours.size()) continue;  // no padding follows the last field: any cut loses bytes
    M partial;
    EXPECT_NE(deserialize_cdr(std::span(ours).first(cut), partial), "")
        << message_type(MessageTraits<M>::kind).ros_name << " cut to " << cut << " bytes";
  }
}

Header header(const std::string& frame) { return {{1234, 567'890'123}, frame}; }

class CdrMatchesCyclone : public ::testing::TestWithParam<int> {
 protected:
  std::string frame() const { return std::string("abcdefghijklm").substr(0, GetParam()); }
};

TEST_P(CdrMatchesCyclone, ClockTwistAndTransforms) {
  expect_same_as_cyclone(Clock{{-7, 999'999'999}});
  Twist t;
  t.linear = {1.5, -2.25, 3};
  t.angular = {0.1, 0.2, -0.3};
  expect_same_as_cyclone(t);
  expect_same_as_cyclone(TwistStamped{header(frame()), t});
  expect_same_as_cyclone(TFMessage{});
  TFMessage tf;
  for (int i = 0; i < 3; ++i) {
    TransformStamped ts;
    ts.header = header(frame() + std::string(i, 'x'));
    ts.child_frame_id = std::string(2 * i + 1, 'c');
    ts.transform.translation = {1.0 * i, 2.0, 3.0};
    ts.transform.rotation = yaw_quaternion(0.3 * i);
    tf.transforms.push_back(ts);
  }
  expect_same_as_cyclone(tf);
}

TEST_P(CdrMatchesCyclone, Odometry) {
  Odometry o;
  o.header = header(frame());
  o.child_frame_id = frame() + "/base_link";
  o.pose.pose.position = {1, 2, 3};
  o.pose.pose.orientation = yaw_quaternion(1.0);
  for (int i = 0; i < 36; ++i) o.pose.covariance[i] = 0.5 * i;
  o.twist.twist.linear.x = 0.7;
  o.twist.twist.angular.z = -0.2;
  for (int i = 0; i < 36; ++i) o.twist.covariance[i] = -0.25 * i;
  expect_same_as_cyclone(o);
}

TEST_P(CdrMatchesCyclone, OccupancyGrid) {
  OccupancyGrid g;
  g.header = header(frame());
  g.info.map_load_time = {3, 250};
  g.info.resolution = 0.05f;
  g.info.width = 3;
  g.info.height = 5;  // 15 one-byte cells: the sequence ends off a 4-byte boundary
  g.info.origin.position = {-1.5, 2.25, 0};
  g.info.origin.orientation = yaw_quaternion(0.0);
  for (int i = 0; i < 15; ++i) g.data.push_back(static_cast<std::int8_t>(i % 3 == 0 ? -1 : 7 * i));
  expect_same_as_cyclone(g);
  expect_same_as_cyclone(OccupancyGrid{});
}

TEST_P(CdrMatchesCyclone, LaserScan) {
  LaserScan s;
  s.header = header(frame());
  s.angle_min = -3.1f;
  s.angle_max = 3.1f;
  s.angle_increment = 0.01f;
  s.time_increment = 1e-5f;
  s.scan_time = 0.1f;
  s.range_min = 0.05f;
  s.range_max = 30.0f;
  s.ranges = {1.0f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
              2.5f, 0.0f};
  expect_same_as_cyclone(s);  // no intensities
  s.intensities = {0, 1, 0, 1, 1};
  expect_same_as_cyclone(s);
}

TEST_P(CdrMatchesCyclone, PointCloud2Imu) {
  PointCloudData cloud;
  cloud.header = {"robot_0/lidar3d_0", frame(), 3, 2'000'000'000, true, SampleStatus::kValid};
  for (int i = 0; i < 5; ++i) {
    cloud.points.push_back(
        {0.5f * i, -1.0f * i, 0.25f, 10.0f * i, static_cast<std::uint16_t>(i), 1e-3f * i});
  }
  PointCloud2 pc;
  to_point_cloud2(cloud, pc);
  expect_same_as_cyclone(pc);

  ImuData imu;
  imu.header = {"robot_0/imu_0", frame(), 1, 30'000'000, true, SampleStatus::kValid};
  imu.orientation = Eigen::Quaterniond(Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitZ()));
  imu.angular_velocity = {0.1, 0.2, 0.3};
  imu.angular_velocity_variance = Eigen::Vector3d(1e-4, 2e-4, 3e-4);
  imu.linear_acceleration = {0.0, 0.1, 9.81};
  expect_same_as_cyclone(to_imu(imu));
}

TEST_P(CdrMatchesCyclone, ImageCameraInfo) {
  ImageData image;
  image.header = {"cam", frame(), 0, 5, true, SampleStatus::kValid};
  image.width = 3;
  image.height = 1;
  image.encoding = frame().size() % 2 ? "rgb8" : "mono8";
  image.step = 9;
  image.data = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const Image m = to_image(image);
  expect_same_as_cyclone(m);
  // The filling form views the camera's pixels (no copy) and gives the same bytes, to CDR and to
  // Cyclone; a copy of it owns its pixels.
  Image viewing;
  to_image(image, viewing);
  ASSERT_TRUE(viewing.data.is_view());
  EXPECT_EQ(std::as_const(viewing).data.data(), image.data.data());
  expect_same_as_cyclone(viewing);
  std::vector<std::uint8_t> a, b;
  serialize_cdr(m, a);
  serialize_cdr(viewing, b);
  EXPECT_EQ(a, b);
  const Image copied = viewing;
  EXPECT_FALSE(copied.data.is_view());
  EXPECT_NE(copied.data.data(), image.data.data());
  EXPECT_EQ(copied, m);
  CameraIntrinsics k;
  k.width = 640;
  k.height = 480;
  k.fx = k.fy = 500;
  k.cx = 320;
  k.cy = 240;
  k.distortion_model = frame().empty() ? "plumb_bob" : frame();
  CameraInfo info = to_camera_info(m.header, k);
  info.roi = {1, 2, 3, 4, true};
  expect_same_as_cyclone(info);
  info.d.clear();
  expect_same_as_cyclone(info);
}

TEST_P(CdrMatchesCyclone, MarkerArrayWithEveryFieldSet) {
  // Strings of every length before 4- and 8-byte fields, sequences of structs, and the Jazzy
  // fields ubot leaves empty (texture, UVs, embedded mesh) filled in once.
  Marker a;
  a.header = header(frame());
  a.ns = frame() + "ns";
  a.id = 7;
  a.type = Marker::SPHERE_LIST;
  a.pose.position = {1.0, 2.0, 3.0};
  a.scale = {0.06, 0.06, 0.06};
  a.color = {0.8f, 0.5f, 0.6f, 0.9f};
  a.lifetime = {1, 500};
  a.frame_locked = true;
  a.points = {{1.0, 2.0, 0.0}, {3.0, 4.0, 0.5}};
  a.colors = {{1.0f, 0.0f, 0.0f, 1.0f}};
  a.texture_resource = frame();
  a.texture = {header(frame()), "png", {1, 2, 3}};
  a.uv_coordinates = {{0.25f, 0.75f}};
  a.text = frame() + "t";
  a.mesh_resource = "embedded://m";
  a.mesh_file = {frame(), {4, 5}};
  a.mesh_use_embedded_materials = true;
  Marker b;
  b.ns = frame();
  b.type = Marker::LINE_LIST;
  expect_same_as_cyclone(MarkerArray{{a, b}});
  expect_same_as_cyclone(MarkerArray{});
}

INSTANTIATE_TEST_SUITE_P(FrameIdLengths, CdrMatchesCyclone, ::testing::Range(0, 9));

template <class T>
T read(const std::vector<std::uint8_t>& b, std::size_t at) {
  T v;
  std::memcpy(&v, b.data() + at, sizeof(T));
  return v;
}

TEST(Cdr, ClockByHand) {
  std::vector<std::uint8_t> b;
  serialize_cdr(Clock{{3, 250}}, b);
  EXPECT_EQ(b, (std::vector<std::uint8_t>{0, 1, 0, 0, 3, 0, 0, 0, 250, 0, 0, 0}));
}

TEST(Cdr, OdometryAlignmentByHand) {
  Odometry o;
  o.header = {{1, 2}, "map"};
  o.child_frame_id = "a";
  o.pose.pose.position.x = 1.5;
  std::vector<std::uint8_t> b;
  serialize_cdr(o, b);
  // Payload offsets (after the 4-byte header): sec 0, nanosec 4, "map" length 8 (= 4 with the
  // NUL) and bytes 12..15, "a" length 16 and bytes 20..21, padding 22..23, position.x at 24 (8-byte
  // aligned in XCDR1), ... 36 + 2 * (36 + 6) doubles: 4 + 24 + 8 * (3 + 4 + 36 + 6 + 36).
  EXPECT_EQ(read<std::uint32_t>(b, 4 + 8), 4u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(b.data() + 4 + 12), 4),
            std::string("map\0", 4));
  EXPECT_EQ(read<std::uint32_t>(b, 4 + 16), 2u);
  EXPECT_EQ(b[4 + 20], 'a');
  EXPECT_EQ(b[4 + 21], 0);
  EXPECT_EQ(b[4 + 22], 0);
  EXPECT_EQ(b[4 + 23], 0);
  EXPECT_EQ(read<double>(b, 4 + 24), 1.5);
  EXPECT_EQ(read<double>(b, 4 + 24 + 8 * 6), 1.0);  // orientation.w
  EXPECT_EQ(b.size(), 4u + 24 + 8 * (3 + 4 + 36 + 6 + 36));
}

TEST(CycloneScratch, ResetReusesItsBlocksAndZeroesThem) {
  // The DDS writer resets its Scratch before each message: the blocks come back (no growth over
  // a run of writes) and hold value-initialised C structs again.
  cyclone::Scratch scratch;
  auto* first = scratch.make<geometry_msgs_msg_dds__Point_>(100);
  auto* second = scratch.make<std_msgs_msg_dds__ColorRGBA_>(10);
  first[5].x = 7.0;
  EXPECT_NE(static_cast<void*>(first), static_cast<void*>(second));
  EXPECT_EQ(scratch.make<geometry_msgs_msg_dds__Point_>(0), nullptr);
  scratch.reset();
  auto* again = scratch.make<geometry_msgs_msg_dds__Point_>(100);
  EXPECT_EQ(static_cast<void*>(again), static_cast<void*>(first));  // the same block
  EXPECT_EQ(again[5].x, 0.0);
}

}  // namespace
}  // namespace ubot::ros2
