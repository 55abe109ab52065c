#pragma once
// The one producer of a run's ROS 2 messages: (topic, type, time, message) for /tf_static once
// and for every step, consumed alike by the DDS bridge (bridge.h), the MCAP recorder
// (record/mcap_recorder.h) and any later consumer. Topic names are decided here, once, when the
// producer is made (RobotTopics: a robot's first sensor of a kind gets <ns>/<suffix>, the next
// ones <ns>/<sensor>/<suffix>); the topic list is fixed from then on.
//   topic 0 /clock, 1 /tf, 2 /tf_static, then per robot (file order) <ns>/odom, then per sensor
//   of a robot (sensor order): <ns>/scan (lidar2d), <ns>/imu, <ns>/points (lidar3d),
//   <ns>/<camera>/image_raw and <ns>/<camera>/camera_info; then the world's topics
//   (world_messages.h): /ubot/markers/static, /ubot/markers, /ubot/trajectories, and
//   /ubot/grid_map when the world has a grid map.
// /tf_static, /ubot/markers/static and /ubot/grid_map are sent once (static_messages). Each step
// gives, in this order: /clock, every robot's odometry, /tf (when some robot is published), the
// samples of the step's sampled sensors in sensor order (disabled samples give nothing; an IMU
// gives each sample of the step), then /ubot/markers and /ubot/trajectories when their period
// (kMarkersPeriod, kTrajectoriesPeriod) of simulated time has passed since the last (and at the
// first step).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ubot/config/world_model.h"
#include "ubot/core/time.h"
#include "ubot/ros2/messages.h"
#include "ubot/ros2/ros2_config.h"
#include "ubot/ros2/sensor_messages.h"

namespace ubot {
class Simulation;
}
namespace ubot::viz {
class RunDrawing;
}

namespace ubot::ros2 {

struct Topic {
  std::string name;  // "/robot_0/scan"
  MessageKind kind;
  Ros2QosModel qos;  // the robot's sensor_qos; /tf_static: reliable, transient local, depth 1
};

// One message, as the type its topic carries: a pointer to any type of UBOT_ROS2_MESSAGE_TYPES.
template <class Ignored, class... Types>
struct MessagePointers {
  using type = std::variant<const Types*...>;
};
#define UBOT_ROS2_MESSAGE_POINTER(T, pkg) , T
using MessageRef = MessagePointers<void UBOT_ROS2_MESSAGE_TYPES(UBOT_ROS2_MESSAGE_POINTER)>::type;
#undef UBOT_ROS2_MESSAGE_POINTER

// A message of the run: its topic (an index into MessageProducer::topics()), the simulation time
// it belongs to (log time: the step's; header stamps are the samples' own) and the message,
// valid during the call only.
struct Message {
  int topic;
  Nanos time;
  MessageRef message;
};
using MessageConsumer = std::function<void(const Message&)>;
// Whether a topic's messages are wanted now (a live client subscribes to it); empty: all are.
using TopicFilter = std::function<bool(int topic)>;

// What a sensor type's topic piece (ros2::sensor_topics, <type>_sinks.h) names its topics with:
// `sensor(suffix, kind)` gives <ns>/<suffix> to a robot's first sensor that asks for the suffix
// and <ns>/<sensor>/<suffix> to the next; `camera(leaf, kind)` gives <ns>/<camera>/<leaf>. Both
// return the topic's index.
struct TopicNamer {
  std::function<int(const std::string& suffix, MessageKind kind)> sensor;
  std::function<int(const std::string& leaf, MessageKind kind)> camera;
};

// Buffers the producer keeps between steps, so large messages reuse their memory.
struct MessageBuffers {
  PointCloudData cloud_data;
  PointCloud2 cloud;
  ImageData image_data;
  Image image;
};

// What a sensor type's message piece (ros2::sensor_messages) gets for a sample: its topics (as
// its sensor_topics gave them), the step's time, where messages go, the robot's REP 117 choice.
struct SensorMessageContext {
  const std::vector<int>& topics;
  Nanos now;
  const MessageConsumer& consume;
  bool use_inf;
  MessageBuffers& buffers;
};

// Which robots are published: every robot (MCAP), or those whose ros2.enabled is true (DDS).
enum class PublishedRobots { kAll, kRos2Enabled };

class MessageProducer {
 public:
  MessageProducer(const Simulation& sim, PublishedRobots robots);
  ~MessageProducer();
  MessageProducer(const MessageProducer&) = delete;
  MessageProducer& operator=(const MessageProducer&) = delete;

  const std::vector<Topic>& topics() const { return topics_; }
  // Whether the object's topics are published, and its namespace and body frame.
  bool publishes(int object_id) const;
  const std::string& robot_namespace(int object_id) const;
  const std::string& base_frame(int object_id) const;
  // The topic index of `suffix` ("scan", "imu", ...) for a robot's sensor named `sensor_name`,
  // added (and named by RobotTopics) when new; -1 for an object that is not published. For the
  // hooks that publish clouds or images of other sources (Bridge::publish_points, ...).
  int sensor_topic(int object_id, const std::string& sensor_name, const std::string& suffix,
                   MessageKind kind);
  // "<ns>/<camera>" topics: image_raw, camera_info.
  int camera_topic(int object_id, const std::string& camera_name, const std::string& leaf,
                   MessageKind kind);

  // /tf_static: every published robot's sensor mountings and camera optical frames, at time 0.
  void static_messages(const Simulation& sim, const MessageConsumer& consume);
  // The messages of the simulation's current step (see above); with `wanted`, only those of
  // wanted topics are made at all.
  void step_messages(const Simulation& sim, const MessageConsumer& consume,
                     const TopicFilter& wanted = {});

  // The world's part of step_messages alone (/ubot/markers, /ubot/trajectories): for a live
  // view whose clients watch only the world, nothing per robot is looked at.
  void world_step_messages(const Simulation& sim, const MessageConsumer& consume,
                           const TopicFilter& wanted);

  // A live view's pace for /ubot/markers: made when `due()` says so (the page's frame pace,
  // wall clock) rather than on the 10 Hz grid of simulated time a recording keeps, and with the
  // lidars' beams drawn in (at most `beams_at_most`, DrawParts' rule), so that a page draws
  // the world from this one channel without every robot's LaserScan each step.
  struct LiveMarkers {
    std::function<bool()> due;
    std::size_t beams_at_most = 0;
  };
  void set_live_markers(LiveMarkers live) { live_markers_ = std::move(live); }

  static constexpr int kClockTopic = 0, kTfTopic = 1, kTfStaticTopic = 2;

 private:
  struct Robot;
  Robot* robot(int object_id);
  const Robot* robot(int object_id) const;
  // The index of the robot's topic `name`, added with the robot's QoS when new.
  int add_topic(Robot& r, const std::string& name, MessageKind kind);
  void add_world_topics(const Simulation& sim);

  std::vector<Topic> topics_;
  std::vector<std::unique_ptr<Robot>> robots_;   // file order
  std::vector<Robot*> robot_of_object_;          // by object id; null: not published
  std::vector<std::vector<int>> sensor_topics_;  // by sensor index: its topics, in emit order
  std::unique_ptr<MessageBuffers> buffers_;      // message storage reused from step to step
  std::optional<LiveMarkers> live_markers_;
  // The world's topics: the picture the markers are made from (with every object's trajectory),
  // the step it last recorded and when /ubot/markers is due next.
  int grid_topic_ = -1, static_markers_topic_ = -1, markers_topic_ = -1, trajectories_topic_ = -1;
  std::unique_ptr<viz::RunDrawing> drawing_;
  std::int64_t recorded_step_ = -1;
  Nanos next_markers_ = 0, next_trajectories_ = 0;
};

}  // namespace ubot::ros2
