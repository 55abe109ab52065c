#include "ubot/record/mcap_recorder.h"

#include <fmt/format.h>

#include "ubot/ros2/cdr.h"
#include "ubot/ros2/message_definition.h"
#include "ubot/ros2/sim_messages.h"
#include "ubot/ros2/type_hash.h"
#include "ubot/sensors/camera.h"
#include "ubot/sensors/imu.h"
#include "ubot/sensors/lidar2d.h"
#include "ubot/sensors/lidar3d.h"

namespace ubot {
namespace {

using ros2::MessageKind;

// The QoS the bridge offers on /clock and /tf, and on /tf_static (latched for late joiners).
constexpr Ros2QosModel kDefaultQos{};
constexpr Ros2QosModel kStaticTfQos{.reliable = true, .transient_local = true, .depth = 1};

// rosbag2's offered_qos_profiles: a YAML list with one publisher's profile, rmw enums as numbers
// (history 1 keep_last; reliability 1 reliable, 2 best_effort; durability 1 transient_local,
// 2 volatile; liveliness 1 automatic), durations 0 = the rmw default (none).
std::string offered_qos_yaml(const Ros2QosModel& qos) {
  return fmt::format(
      "- history: 1\n  depth: {}\n  reliability: {}\n  durability: {}\n"
      "  deadline:\n    sec: 0\n    nsec: 0\n  lifespan:\n    sec: 0\n    nsec: 0\n"
      "  liveliness: 1\n  liveliness_lease_duration:\n    sec: 0\n    nsec: 0\n"
      "  avoid_ros_namespace_conventions: false",
      qos.depth, qos.reliable ? 1 : 2, qos.transient_local ? 1 : 2);
}

}  // namespace

struct McapRecorder::Robot {
  explicit Robot(const ObjectModel& o)
      : topics(o), qos(o.ros2.sensor_qos), use_inf(o.ros2.use_inf) {}
  ros2::RobotTopics topics;
  Ros2QosModel qos;
  bool use_inf;
};

McapRecorder::McapRecorder(const std::string& path, const Simulation& sim,
                           McapRecorderOptions options)
    : writer_(path, {.profile = "ros2",
                     .library = fmt::format("ubot {}", UBOT_VERSION),
                     .compression = options.compression,
                     .chunk_size = options.chunk_size}) {
  for (const ObjectModel& o : sim.world().model().objects) {
    if (o.role == Role::kRobot) robots_.emplace(o.id, std::make_unique<Robot>(o));
  }
  // A robot's lidars are named in sensor order, as the bridge names them (its first gets
  // <ns>/scan whichever samples first).
  for (const auto& sensor : sim.sensors()) {
    Robot* r = robot(sensor->object_id());
    if (r && sensor->kind() == SensorKind::kLidar2d) {
      r->topics.sensor_topic(sensor->model().common.name, "scan");
    } else if (r && sensor->kind() == SensorKind::kLidar3d) {
      r->topics.sensor_topic(sensor->model().common.name, "points");
    } else if (r && sensor->kind() == SensorKind::kImu) {
      r->topics.sensor_topic(sensor->model().common.name, "imu");
    }
  }
  const ros2::TFMessage statics = ros2::static_transforms(sim, [this](int id) {
    const Robot* r = robot(id);
    return r ? &r->topics.base_frame() : nullptr;
  });
  write(channel("/tf_static", MessageKind::kTFMessage, kStaticTfQos), statics);
}

McapRecorder::~McapRecorder() = default;

McapRecorder::Robot* McapRecorder::robot(int object_id) {
  const auto it = robots_.find(object_id);
  return it == robots_.end() ? nullptr : it->second.get();
}

McapRecorder::Channel& McapRecorder::channel(const std::string& topic, MessageKind kind,
                                             const Ros2QosModel& qos) {
  if (const auto it = channels_.find(topic); it != channels_.end()) return it->second;
  auto schema = schemas_.find(kind);
  if (schema == schemas_.end()) {
    const char* name = ros2::message_type(kind).ros_name;
    schema =
        schemas_.emplace(kind, writer_.add_schema(name, "ros2msg", ros2::message_definition(name)))
            .first;
  }
  const std::uint16_t id = writer_.add_channel(schema->second, topic, "cdr",
                                               {{"offered_qos_profiles", offered_qos_yaml(qos)},
                                                {"topic_type_hash", ros2::type_hash(kind)}});
  return channels_[topic] = Channel{id, 0};
}

template <class M>
void McapRecorder::write(Channel& channel, const M& message) {
  ros2::serialize_cdr(message, buffer_);
  writer_.write(channel.id, channel.sequence++, now_, now_, buffer_);
}

void McapRecorder::record(const Simulation& sim) {
  const World& world = sim.world();
  now_ = world.time_ns();
  write(channel("/clock", MessageKind::kClock, kDefaultQos), ros2::clock_message(world));
  ros2::TFMessage tf;
  for (auto& [id, r] : robots_) {
    const ros2::Odometry odom = ros2::odometry(world, id, r->topics.base_frame());
    write(channel(r->topics.odom_topic(), MessageKind::kOdometry, r->qos), odom);
    tf.transforms.push_back(ros2::to_transform(odom));
  }
  if (!tf.transforms.empty()) write(channel("/tf", MessageKind::kTFMessage, kDefaultQos), tf);
  for (int index : sim.sampled()) {
    const Sensor& sensor = *sim.sensors()[index];
    Robot* r = robot(sensor.object_id());
    if (!r || sensor.header().status == "Disabled") continue;
    const std::string& name = sensor.model().common.name;
    if (const auto* lidar = dynamic_cast<const Lidar2d*>(&sensor)) {
      write(channel(r->topics.sensor_topic(name, "scan"), MessageKind::kLaserScan, r->qos),
            ros2::to_laser_scan(*lidar, r->use_inf));
    } else if (const auto* imu = dynamic_cast<const Imu*>(&sensor)) {
      // Every sample of the step, header stamps their own, log time the step's.
      Channel& imu_channel =
          channel(r->topics.sensor_topic(name, "imu"), MessageKind::kImu, r->qos);
      for (const ImuReading& s : imu->step_samples()) {
        write(imu_channel, ros2::to_imu(ros2::imu_data(s.header, s.data)));
      }
    } else if (const auto* lidar3d = dynamic_cast<const Lidar3d*>(&sensor)) {
      ros2::lidar3d_cloud(*lidar3d, cloud_data_);
      record_points(sensor.object_id(), name, cloud_data_);
    } else if (const auto* camera = dynamic_cast<const Camera*>(&sensor)) {
      ros2::camera_image(*camera, image_data_);
      ros2::to_image(image_data_, image_);
      const std::string base = ros2::camera_topic_base(r->topics.ns(), name);
      write(channel(base + "/image_raw", MessageKind::kImage, r->qos), image_);
      write(channel(base + "/camera_info", MessageKind::kCameraInfo, r->qos),
            ros2::to_camera_info(image_.header, ros2::camera_intrinsics(*camera)));
    }
  }
}

void McapRecorder::record_points(int object_id, const std::string& sensor_name,
                                 const ros2::PointCloudData& cloud) {
  Robot* r = robot(object_id);
  if (!r) return;
  ros2::to_point_cloud2(cloud, cloud_);
  write(channel(r->topics.sensor_topic(sensor_name, "points"), MessageKind::kPointCloud2, r->qos),
        cloud_);
}

void McapRecorder::close() { writer_.close(); }

}  // namespace ubot
