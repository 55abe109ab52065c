// The MCAP recording of a run carries what the ROS 2 bridge publishes: the same topics, in the
// same order, with the same CDR bytes (the bridge runs on an in-memory transport next to the
// recorder), plus the robots whose bridge is disabled; ros2 profile, ros2msg schemas, cdr
// channels with the bridge's QoS; times = simulation time; the same bytes run after run.
#include "ubot/record/mcap_recorder.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <span>

#include "mcap_test_reader.h"
#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/ros2/bridge.h"
#include "ubot/ros2/cdr.h"
#include "ubot/ros2/fake_transport.h"
#include "ubot/ros2/message_definition.h"
#include "ubot/ros2/sim_messages.h"
#include "ubot/ros2/type_hash.h"

namespace ubot {
namespace {

using namespace mcap_test;

constexpr const char* kWorld = R"(
world: {width: 20, height: 20, step_time: 0.05, seed: 3}
robot:
  - name: robot_0
    kinematics: {name: diff}
    state: [2, 3, 0.5]
    goal: [15, 15, 0]
    behavior: {name: dash}
    z: 0.25
    sensors:
      - {name: lidar2d, range_max: 8, angle_range: 3.14, number: 31, offset: [0.2, 0.1, 0.3], z: 0.4,
         noise: true, std: 0.05}
      - {name: lidar2d, range_max: 4, number: 5, update_rate_hz: 5}
      - {name: imu, update_rate_hz: 20, noise: true, accelerometer_noise_std: 0.02}
  - name: robot 1
    kinematics: {name: omni}
    state: [10, 10, 1.0]
    velocity: [0.3, -0.2]
    ros2: {use_inf: true, namespace_override: /fleet/one, sensor_qos: {reliability: best_effort, depth: 2}}
    sensors:
      - {name: lidar2d, range_max: 2, number: 9}
  - name: car
    kinematics: {name: acker, wheelbase: 2}
    shape: {name: rectangle, length: 3, width: 1.5}
    state: [5, 15, 0, 0.2]
    velocity: [0.5, 0.2]
    ros2: {enabled: false}
    sensors:
      - {name: lidar2d, range_max: 5, number: 7}
obstacle:
  - shape: {name: circle, radius: 1}
    state: [6, 5, 0]
)";

constexpr int kSteps = 12;

std::string recorder_temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("ubot_rec_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

struct Recorded {
  std::string topic;
  Message message;
};

struct Recording {
  File file;
  std::map<std::uint16_t, std::string> topics;  // by channel id
  std::map<std::string, std::map<std::string, std::string>> metadata;
  std::map<std::string, std::uint16_t> schema_of;                        // topic -> schema id
  std::map<std::uint16_t, std::pair<std::string, std::string>> schemas;  // id -> name, data
  std::vector<Recorded> messages;
};

Recording read_recording(const std::string& path) {
  Recording r;
  r.file = parse(read_file(path));
  EXPECT_EQ(r.file.profile, "ros2");
  EXPECT_EQ(r.file.library, std::string("ubot ") + UBOT_VERSION);
  for (const Record& rec : r.file.data) {
    if (rec.op == 0x03) {
      Cursor c(rec.content);
      const auto id = c.get<std::uint16_t>();
      const std::string name = c.string();
      EXPECT_EQ(c.string(), "ros2msg");
      r.schemas[id] = {name, c.string()};
    } else if (rec.op == 0x04) {
      Cursor c(rec.content);
      const auto id = c.get<std::uint16_t>();
      const auto schema = c.get<std::uint16_t>();
      const std::string topic = c.string();
      EXPECT_EQ(c.string(), "cdr");
      r.topics[id] = topic;
      r.schema_of[topic] = schema;
      r.metadata[topic] = c.string_map();
    } else if (rec.op == 0x06) {
      const Chunk k = chunk(rec.content);
      for (const Record& m : records(k.records, 0, k.records.size())) {
        Message msg = message(m.content);
        r.messages.push_back({r.topics.at(msg.channel), std::move(msg)});
      }
    }
  }
  return r;
}

Simulation make_sim(int threads = 1) {
  return Simulation(load_world_from_string(kWorld, "rec.yaml"), {.threads = threads});
}

// Runs the world with the bridge (fake transport) and the recorder side by side; `car_tf` gets
// the car's map -> base_link transform at every record().
Recording record_with_bridge(ros2::FakeTransport& transport, McapCompression compression,
                             const std::string& path,
                             std::vector<ros2::TransformStamped>* car_tf = nullptr) {
  Simulation sim = make_sim();
  ros2::Bridge bridge(transport, sim);
  McapRecorder recorder(path, sim, {.compression = compression, .chunk_size = 4096});
  for (int k = 0; k <= kSteps; ++k) {
    if (k > 0) sim.step(bridge.commands(sim));
    bridge.publish(sim);
    recorder.record(sim);
    if (car_tf) {
      car_tf->push_back(ros2::to_transform(ros2::odometry(sim.world(), 2, "car/base_link")));
    }
  }
  recorder.close();
  return read_recording(path);
}

// Records `sim` for `steps` steps (each with `commands`) beside the bridge on `transport`, the
// recorder taking the start too, and reads the recording back.
Recording record_steps_with_bridge(Simulation& sim, ros2::FakeTransport& transport,
                                   const std::string& name, int steps,
                                   std::span<const Command> commands = {}) {
  const std::string path = recorder_temp_path(name);
  ros2::Bridge bridge(transport, sim);
  {
    McapRecorder recorder(path, sim);
    recorder.record(sim);
    for (int k = 0; k < steps; ++k) {
      sim.step(commands);
      bridge.publish(sim);
      recorder.record(sim);
    }
    recorder.close();
  }
  Recording rec = read_recording(path);
  std::filesystem::remove(path);
  return rec;
}

// The CDR bytes of what the bridge published on `topic`, and of what the recording holds there.
std::vector<std::vector<std::uint8_t>> published_on(const ros2::FakeTransport& transport,
                                                    const std::string& topic) {
  std::vector<std::vector<std::uint8_t>> bytes;
  for (const auto& p : transport.published()) {
    if (p.topic == topic) ros2::serialize_cdr(p.kind, p.message.get(), bytes.emplace_back());
  }
  return bytes;
}
std::vector<std::vector<std::uint8_t>> recorded_on(const Recording& rec, const std::string& topic) {
  std::vector<std::vector<std::uint8_t>> bytes;
  for (const Recorded& m : rec.messages) {
    if (m.topic == topic) bytes.push_back(m.message.data);
  }
  return bytes;
}

class McapRecorderCompression : public ::testing::TestWithParam<McapCompression> {};

TEST_P(McapRecorderCompression, SameTopicsOrderAndBytesAsTheBridge) {
  ros2::FakeTransport transport;
  const std::string path = recorder_temp_path("bridge.mcap");
  const Recording rec = record_with_bridge(transport, GetParam(), path);
  std::filesystem::remove(path);

  // Every bridge message, serialised as an rmw would, in publish order.
  std::vector<std::pair<std::string, std::vector<std::uint8_t>>> published;
  for (const auto& p : transport.published()) {
    std::vector<std::uint8_t> bytes;
    ros2::serialize_cdr(p.kind, p.message.get(), bytes);
    published.emplace_back(p.topic, bytes);
  }
  // The recording, without the robot the bridge leaves out (ros2.enabled: false).
  std::vector<std::pair<std::string, std::vector<std::uint8_t>>> recorded;
  bool car_recorded = false;
  for (const Recorded& m : rec.messages) {
    if (m.topic.rfind("/car/", 0) == 0) {
      car_recorded = true;
      continue;
    }
    if (m.topic == "/tf" || m.topic == "/tf_static") {
      // The car's transforms are in the recording's tf messages and not in the bridge's:
      // compare those after dropping them (below).
      continue;
    }
    recorded.emplace_back(m.topic, m.message.data);
  }
  std::erase_if(published,
                [](const auto& p) { return p.first == "/tf" || p.first == "/tf_static"; });
  ASSERT_EQ(recorded.size(), published.size());
  for (std::size_t i = 0; i < recorded.size(); ++i) {
    EXPECT_EQ(recorded[i].first, published[i].first) << i;
    EXPECT_EQ(recorded[i].second, published[i].second) << recorded[i].first << " #" << i;
  }
  EXPECT_TRUE(car_recorded);
  for (const char* topic :
       {"/clock", "/robot_0/odom", "/robot_0/scan", "/robot_0/lidar2d_1/scan", "/robot_0/imu",
        "/fleet/one/odom", "/fleet/one/scan", "/car/odom", "/car/scan", "/tf", "/tf_static",
        "/ubot/markers/static", "/ubot/markers", "/ubot/trajectories"}) {
    EXPECT_TRUE(rec.schema_of.count(topic)) << topic;
  }
  EXPECT_EQ(rec.topics.size(), 14u);
}

TEST_P(McapRecorderCompression, TransformsAreTheBridgesPlusTheCar) {
  ros2::FakeTransport transport;
  const std::string path = recorder_temp_path("tf.mcap");
  std::vector<ros2::TransformStamped> car_tf;
  const Recording rec = record_with_bridge(transport, GetParam(), path, &car_tf);
  std::filesystem::remove(path);
  // The car (id 2, after the bridged robots) closes every /tf message, and its lidar's mount
  // closes /tf_static.
  std::vector<ros2::TFMessage> expected_tf = transport.messages<ros2::TFMessage>("/tf");
  ros2::TFMessage expected_static = transport.messages<ros2::TFMessage>("/tf_static").at(0);
  Simulation sim = make_sim();
  expected_static.transforms.push_back(
      ros2::sensor_transform(*sim.sensors().back(), "car/base_link"));
  ASSERT_EQ(expected_tf.size(), car_tf.size());
  for (std::size_t i = 0; i < expected_tf.size(); ++i) {
    EXPECT_EQ(expected_tf[i].transforms.size(), 2u);
    expected_tf[i].transforms.push_back(car_tf[i]);
  }
  std::vector<std::vector<std::uint8_t>> tf, statics;
  for (const Recorded& m : rec.messages) {
    if (m.topic == "/tf") tf.push_back(m.message.data);
    if (m.topic == "/tf_static") statics.push_back(m.message.data);
  }
  std::vector<std::uint8_t> bytes;
  ASSERT_EQ(statics.size(), 1u);
  ros2::serialize_cdr(expected_static, bytes);
  EXPECT_EQ(statics[0], bytes);
  ASSERT_EQ(tf.size(), expected_tf.size());
  for (std::size_t i = 0; i < tf.size(); ++i) {
    ros2::serialize_cdr(expected_tf[i], bytes);
    EXPECT_EQ(tf[i], bytes) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(All, McapRecorderCompression,
                         ::testing::Values(McapCompression::kNone, McapCompression::kLz4,
                                           McapCompression::kZstd),
                         [](const auto& info) {
                           const std::string_view n = mcap_compression_name(info.param);
                           return n.empty() ? std::string("none") : std::string(n);
                         });

TEST(McapRecorder, SchemasChannelsAndQos) {
  ros2::FakeTransport transport;
  const std::string path = recorder_temp_path("schemas.mcap");
  const Recording rec = record_with_bridge(transport, McapCompression::kZstd, path);
  std::filesystem::remove(path);
  std::set<std::string> schema_names;
  for (const auto& [id, s] : rec.schemas) {
    schema_names.insert(s.first);
    EXPECT_EQ(s.second, ros2::message_definition(s.first));
  }
  EXPECT_EQ(schema_names,
            (std::set<std::string>{"tf2_msgs/msg/TFMessage", "rosgraph_msgs/msg/Clock",
                                   "nav_msgs/msg/Odometry", "sensor_msgs/msg/LaserScan",
                                   "sensor_msgs/msg/Imu", "visualization_msgs/msg/MarkerArray"}));
  EXPECT_EQ(rec.schemas.size(), schema_names.size());  // one schema per type
  EXPECT_EQ(rec.schemas.at(rec.schema_of.at("/fleet/one/scan")).first, "sensor_msgs/msg/LaserScan");
  EXPECT_EQ(rec.metadata.at("/robot_0/scan").at("topic_type_hash"),
            "RIHS01_64c191398013af96509d518dac71d5164f9382553fce5c1f8cca5be7924bd828");
  // QoS as the bridge offers it: /tf_static latched, robot 1 best effort with depth 2.
  auto qos = [&](const std::string& topic) {
    return rec.metadata.at(topic).at("offered_qos_profiles");
  };
  EXPECT_NE(qos("/tf_static").find("depth: 1\n  reliability: 1\n  durability: 1\n"),
            std::string::npos);
  EXPECT_NE(qos("/clock").find("depth: 10\n  reliability: 1\n  durability: 2\n"),
            std::string::npos);
  EXPECT_NE(qos("/fleet/one/scan").find("depth: 2\n  reliability: 2\n  durability: 2\n"),
            std::string::npos);
  EXPECT_EQ(transport.writer_qos("/fleet/one/scan")->depth, 2);
  EXPECT_EQ(transport.writer_qos("/fleet/one/scan")->reliability, ros2::Reliability::kBestEffort);
}

TEST(McapRecorder, TimesAreSimulationTimeAndSequencesCountPerTopic) {
  ros2::FakeTransport transport;
  const std::string path = recorder_temp_path("times.mcap");
  const Recording rec = record_with_bridge(transport, McapCompression::kLz4, path);
  std::filesystem::remove(path);
  ASSERT_FALSE(rec.messages.empty());
  EXPECT_EQ(rec.messages.front().topic, "/tf_static");
  EXPECT_EQ(rec.messages.front().message.log_time, 0u);
  std::map<std::string, std::uint32_t> next;
  std::uint64_t last = 0;
  int clocks = 0;
  for (const Recorded& m : rec.messages) {
    EXPECT_EQ(m.message.publish_time, m.message.log_time);
    EXPECT_GE(m.message.log_time, last);
    last = m.message.log_time;
    EXPECT_EQ(m.message.sequence, next[m.topic]++) << m.topic;
    if (m.topic == "/clock") {
      // builtin_interfaces/Time after the encapsulation header: sec, nanosec.
      Cursor c(m.message.data.data() + 4, 8);
      const auto sec = c.get<std::int32_t>();
      const auto nsec = c.get<std::uint32_t>();
      EXPECT_EQ(sec * 1'000'000'000ull + nsec, m.message.log_time);
      EXPECT_EQ(m.message.log_time, 50'000'000ull * clocks++);  // step_time 0.05 s from 0
    }
  }
  EXPECT_EQ(clocks, kSteps + 1);
  // 5 Hz on its grid of 0.2 s multiples, from the first step: at 0.05, 0.2, 0.4, 0.6 s.
  EXPECT_EQ(next["/robot_0/lidar2d_1/scan"], 4u);
  // 20 Hz: every step, and the grid's first sample at t = 0 in the first step.
  EXPECT_EQ(next["/robot_0/imu"], static_cast<std::uint32_t>(kSteps + 1));
}

TEST(McapRecorder, SameWorldAndSeedSameBytesWhateverTheThreads) {
  std::vector<Bytes> files;
  for (int threads : {1, 2, 1}) {
    const std::string path = recorder_temp_path("det.mcap");
    Simulation sim = make_sim(threads);
    McapRecorder recorder(path, sim);
    recorder.record(sim);
    for (int k = 0; k < kSteps; ++k) {
      sim.step();
      recorder.record(sim);
    }
    recorder.close();
    files.push_back(read_file(path));
    std::filesystem::remove(path);
  }
  EXPECT_EQ(files[0], files[1]);
  EXPECT_EQ(files[0], files[2]);
}

TEST(McapRecorder, PointsHookWritesPointCloud2OnTheRobotsTopic) {
  const std::string path = recorder_temp_path("points.mcap");
  Simulation sim = make_sim();
  ros2::PointCloudData cloud;
  cloud.header = {"robot_0/lidar3d_0", "robot_0/lidar3d_0", 0, 0, true, SampleStatus::kValid};
  cloud.points = {{1.5f, -2.0f, 0.25f, 0.8f, 7, 0.01f}, {3.0f, 4.0f, -1.0f, 0.0f, 15, 0.05f}};
  {
    McapRecorder recorder(path, sim);
    recorder.record(sim);
    recorder.record_points(0, "lidar3d_0", cloud);
    recorder.record_points(0, "lidar3d_1", cloud);
    recorder.record_points(3, "lidar3d_0", cloud);  // the obstacle: not a robot, not recorded
    recorder.close();
    // tf_static, static markers, clock, odom * 3, tf, markers, trajectories, the two clouds
    EXPECT_EQ(recorder.statistics().messages, 1u + 1 + 1 + 3 + 1 + 1 + 1 + 2);
  }
  const Recording rec = read_recording(path);
  std::filesystem::remove(path);
  ros2::PointCloud2 expected;
  ros2::to_point_cloud2(cloud, expected);
  std::vector<std::uint8_t> bytes;
  ros2::serialize_cdr(expected, bytes);
  int clouds = 0;
  for (const Recorded& m : rec.messages) {
    if (m.topic == "/robot_0/points" || m.topic == "/robot_0/lidar3d_1/points") {
      EXPECT_EQ(m.message.data, bytes);
      EXPECT_EQ(rec.schemas.at(rec.schema_of.at(m.topic)).first, "sensor_msgs/msg/PointCloud2");
      ++clouds;
    }
  }
  EXPECT_EQ(clouds, 2);
}

TEST(McapRecorder, Lidar3dSweepsAreRecordedAsTheBridgePublishesThem) {
  Simulation sim(load_world_from_string(R"(
ground: {z: 0}
robot:
  - name: rover
    kinematics: {name: diff}
    state: [1, 1, 0]
    goal: [5, 5, 0]
    behavior: {name: dash}
    sensors:
      - {name: lidar3d, preset: VLP-16, number: 90, motion_distortion: true, offset: [0, 0, 1]}
)",
                                        "lidar3d.yaml"),
                 {.threads = 1});
  ros2::FakeTransport transport;
  const Recording rec = record_steps_with_bridge(sim, transport, "lidar3d.mcap", 3);
  const auto published = published_on(transport, "/rover/points");
  const auto recorded = recorded_on(rec, "/rover/points");
  ASSERT_EQ(recorded.size(), 3u);
  EXPECT_EQ(recorded, published);
  EXPECT_GT(recorded.back().size(), 90u * 8 * 24);  // the downward rings hit the ground
}

// A 200 Hz IMU in a 10 Hz world: every sample is a message, stamped with its own time (5 ms
// grid from 0), logged at the time of the step that took it; the bytes are the bridge's.
TEST(McapRecorder, EveryImuSampleOfAStepIsRecordedWithItsOwnStamp) {
  Simulation sim(load_world_from_string(R"(
world: {step_time: 0.1}
robot:
  - name: rover
    kinematics: {name: diff}
    sensors: [{name: imu, update_rate_hz: 200, noise: true, accelerometer_noise_std: 0.01}]
)",
                                        "imu200.yaml"),
                 {.threads = 1});
  ros2::FakeTransport transport;
  const std::vector<Command> turn = {Eigen::Vector2d(1.0, 0.5)};
  const Recording rec = record_steps_with_bridge(sim, transport, "imu200.mcap", 3, turn);
  std::uint64_t n = 0;
  for (const Recorded& m : rec.messages) {
    if (m.topic != "/rover/imu") continue;
    // std_msgs/Header after the encapsulation header: stamp sec, nanosec.
    Cursor c(m.message.data.data() + 4, 8);
    const auto sec = c.get<std::int32_t>();
    const auto nsec = c.get<std::uint32_t>();
    EXPECT_EQ(sec * 1'000'000'000ull + nsec, n * 5'000'000ull);
    // Logged with its step: samples in (t_{k-1}, t_k] at t_k (and t = 0 with the first step).
    const std::uint64_t step_end =
        std::max<std::uint64_t>(1, (n * 5'000'000 + 99'999'999) / 100'000'000);
    EXPECT_EQ(m.message.log_time, step_end * 100'000'000ull) << n;
    EXPECT_EQ(m.message.sequence, n);
    ++n;
  }
  EXPECT_EQ(n, 61u);  // 0, 5, ..., 300 ms
  EXPECT_EQ(recorded_on(rec, "/rover/imu"), published_on(transport, "/rover/imu"));
}

TEST(McapRecorder, CameraImagesAndInfoAreRecordedAsTheBridgePublishesThem) {
  Simulation sim(load_world_from_string(R"(
ground: {z: 0}
robot:
  - name: rover
    kinematics: {name: diff}
    state: [1, 1, 0]
    goal: [5, 5, 0]
    behavior: {name: dash}
    sensors:
      - {name: rgb_camera, width: 32, height: 24, offset: [0, 0, 1]}
      - {name: depth_camera, width: 16, height: 12, offset: [0, 0, 1], update_rate_hz: 5}
obstacle:
  - {shape: {name: sphere, radius: 1}, state: [5, 2, 0], color: tomato}
)",
                                        "cameras.yaml"),
                 {.threads = 1});
  ros2::FakeTransport transport;
  const Recording rec = record_steps_with_bridge(sim, transport, "cameras.mcap", 4);
  const std::map<std::string, std::pair<std::string, std::size_t>> expected = {
      {"/rover/rgb_camera_0/image_raw", {"sensor_msgs/msg/Image", 4}},
      {"/rover/rgb_camera_0/camera_info", {"sensor_msgs/msg/CameraInfo", 4}},
      // 5 Hz with 0.1 s steps: the first step, then the grid points 0.2 and 0.4.
      {"/rover/depth_camera_0/image_raw", {"sensor_msgs/msg/Image", 3}},
      {"/rover/depth_camera_0/camera_info", {"sensor_msgs/msg/CameraInfo", 3}}};
  for (const auto& [topic, want] : expected) {
    const auto recorded = recorded_on(rec, topic);
    ASSERT_EQ(recorded.size(), want.second) << topic;
    EXPECT_EQ(recorded, published_on(transport, topic)) << topic;
    EXPECT_EQ(rec.schemas.at(rec.schema_of.at(topic)).first, want.first);
  }
  // /tf_static: the two mounts and the two link -> optical transforms, as the bridge sends them.
  std::vector<std::uint8_t> statics;
  for (const auto& p : transport.published()) {
    if (p.topic == "/tf_static") ros2::serialize_cdr(p.kind, p.message.get(), statics);
  }
  ASSERT_EQ(rec.messages.front().topic, "/tf_static");
  EXPECT_EQ(rec.messages.front().message.data, statics);
  EXPECT_EQ(transport.messages<ros2::TFMessage>("/tf_static").at(0).transforms.size(), 4u);
}

TEST(McapRecorder, UnwritablePathIsAnError) {
  Simulation sim = make_sim();
  EXPECT_THROW(McapRecorder("/nonexistent-ubot-dir/run.mcap", sim), Error);
}

}  // namespace
}  // namespace ubot
