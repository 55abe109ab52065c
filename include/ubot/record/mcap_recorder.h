#pragma once
// A run recorded as MCAP with ROS 2 encodings, which Foxglove opens (written to the ros2
// profile, as rosbag2's MCAP storage writes it): profile "ros2"; one Schema per message type
// (encoding "ros2msg", name "<pkg>/msg/<Type>", data = the .msg text with its dependencies); one
// Channel per topic (message encoding "cdr", metadata offered_qos_profiles and topic_type_hash);
// messages in the bytes a ROS 2 rmw puts on the wire (ubot/ros2/cdr.h). Topics, types and values
// are the ROS 2 bridge's (one ros2::MessageProducer), for every robot, ros2.enabled or not:
//   /tf_static (once, at time 0), then at every record(): /clock, each robot's <ns>/odom, /tf,
//   and the samples of the step on <ns>/scan, <ns>/imu, <ns>/points (lidar3d sweeps; other
//   clouds through record_points()), <ns>/<camera>/image_raw and <ns>/<camera>/camera_info
//   (cameras; /tf_static then also holds each camera's link -> optical transform).
// Time base: log_time = publish_time = the simulation time (ns, starting at 0) of the step that
// produced the message; header stamps are the samples' own. Nothing depends on the wall clock:
// the same world and seed give the same bytes.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ubot/record/mcap_writer.h"
#include "ubot/ros2/message_producer.h"
#include "ubot/ros2/sensor_messages.h"
#include "ubot/sim/simulation.h"

namespace ubot {

struct McapRecorderOptions {
  McapCompression compression = McapCompression::kZstd;
  std::size_t chunk_size = 1 << 20;  // uncompressed bytes per chunk
};

class McapRecorder {
 public:
  // Creates `path` and records /tf_static. ubot::Error when the file cannot be written.
  McapRecorder(const std::string& path, const Simulation& sim, McapRecorderOptions options = {});
  ~McapRecorder();
  McapRecorder(const McapRecorder&) = delete;
  McapRecorder& operator=(const McapRecorder&) = delete;

  // After a step, and once before the first: the simulation's state and the step's samples.
  void record(const Simulation& sim);
  // Hook for sensors whose messages record() does not build (as Bridge::publish_points): the
  // cloud of a robot's sensor on <ns>/points, logged at the time of the last record().
  void record_points(int object_id, const std::string& sensor_name,
                     const ros2::PointCloudData& cloud);
  // Finishes the file (summary, indexes); ubot::Error on a write failure.
  void close();

  const McapStatistics& statistics() const { return writer_.statistics(); }

 private:
  struct Channel {
    std::uint16_t id = 0;
    std::uint32_t sequence = 0;
  };
  Channel& channel(int topic);
  void write(const ros2::Message& message);

  McapWriter writer_;
  ros2::MessageProducer producer_;
  std::map<ros2::MessageKind, std::uint16_t> schemas_;
  std::vector<std::optional<Channel>> channels_;  // by topic index, added at first use
  Nanos now_ = 0;                                 // time of the last record()
  std::vector<std::uint8_t> buffer_;              // CDR of the message being written, reused
  ros2::PointCloud2 cloud_;                       // reused: record_points
};

}  // namespace ubot
