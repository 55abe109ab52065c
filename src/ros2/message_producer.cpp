#include "ubot/ros2/message_producer.h"

#include <map>

#include "ubot/ros2/sensor_messages.h"
#include "ubot/ros2/sim_messages.h"
#include "ubot/sensors/camera.h"
#include "ubot/sensors/imu.h"
#include "ubot/sensors/lidar2d.h"
#include "ubot/sensors/lidar3d.h"
#include "ubot/sim/simulation.h"

namespace ubot::ros2 {
namespace {

// The QoS of /clock and /tf, and of /tf_static (latched for late joiners).
constexpr Ros2QosModel kDefaultQos{};
constexpr Ros2QosModel kStaticTfQos{.reliable = true, .transient_local = true, .depth = 1};

}  // namespace

struct MessageProducer::Robot {
  explicit Robot(const ObjectModel& o)
      : topics(o), qos(o.ros2->sensor_qos), use_inf(o.ros2->use_inf) {}
  RobotTopics topics;
  Ros2QosModel qos;
  bool use_inf;
  int odom_topic = -1;
  std::map<std::string, int> topic_index;  // by topic name
};

struct MessageProducer::Buffers {
  PointCloudData cloud_data;
  PointCloud2 cloud;
  ImageData image_data;
  Image image;
};

MessageProducer::MessageProducer(const Simulation& sim, PublishedRobots robots)
    : buffers_(std::make_unique<Buffers>()) {
  topics_ = {{"/clock", MessageKind::kClock, kDefaultQos},
             {"/tf", MessageKind::kTFMessage, kDefaultQos},
             {"/tf_static", MessageKind::kTFMessage, kStaticTfQos}};
  const World& world = sim.world();
  robot_of_object_.assign(world.size(), nullptr);
  for (const ObjectModel& o : world.model().objects) {
    if (o.role != Role::kRobot) continue;
    if (robots == PublishedRobots::kRos2Enabled && !o.ros2->enabled) continue;
    auto& r = robots_.emplace_back(std::make_unique<Robot>(o));
    robot_of_object_[o.id] = r.get();
    r->odom_topic = static_cast<int>(topics_.size());
    topics_.push_back({r->topics.odom_topic(), MessageKind::kOdometry, r->qos});
  }
  // In sensor order, so that a robot's first lidar gets <ns>/scan whichever samples first.
  sensor_topics_.resize(sim.sensors().size());
  for (std::size_t i = 0; i < sim.sensors().size(); ++i) {
    const Sensor& sensor = *sim.sensors()[i];
    if (!robot(sensor.object_id())) continue;
    const int id = sensor.object_id();
    const std::string& name = sensor.model().common.name;
    std::vector<int>& mine = sensor_topics_[i];
    visit_sensor(
        sensor,
        Overloaded{
            [&](const Lidar2d&) {
              mine = {sensor_topic(id, name, "scan", MessageKind::kLaserScan)};
            },
            [&](const ubot::Imu&) { mine = {sensor_topic(id, name, "imu", MessageKind::kImu)}; },
            [&](const Lidar3d&) {
              mine = {sensor_topic(id, name, "points", MessageKind::kPointCloud2)};
            },
            [&](const Camera&) {
              mine = {camera_topic(id, name, "image_raw", MessageKind::kImage),
                      camera_topic(id, name, "camera_info", MessageKind::kCameraInfo)};
            },
        });
  }
}

MessageProducer::~MessageProducer() = default;

MessageProducer::Robot* MessageProducer::robot(int object_id) {
  return object_id >= 0 && object_id < static_cast<int>(robot_of_object_.size())
             ? robot_of_object_[object_id]
             : nullptr;
}

const MessageProducer::Robot* MessageProducer::robot(int object_id) const {
  return const_cast<MessageProducer*>(this)->robot(object_id);
}

bool MessageProducer::publishes(int object_id) const { return robot(object_id) != nullptr; }

const std::string& MessageProducer::robot_namespace(int object_id) const {
  return robot(object_id)->topics.ns();
}

const std::string& MessageProducer::base_frame(int object_id) const {
  return robot(object_id)->topics.base_frame();
}

int MessageProducer::sensor_topic(int object_id, const std::string& sensor_name,
                                  const std::string& suffix, MessageKind kind) {
  Robot* r = robot(object_id);
  if (!r) return -1;
  const std::string& name = r->topics.sensor_topic(sensor_name, suffix);
  const auto [it, added] = r->topic_index.try_emplace(name, static_cast<int>(topics_.size()));
  if (added) topics_.push_back({name, kind, r->qos});
  return it->second;
}

int MessageProducer::camera_topic(int object_id, const std::string& camera_name,
                                  const std::string& leaf, MessageKind kind) {
  Robot* r = robot(object_id);
  if (!r) return -1;
  const std::string name = camera_topic_base(r->topics.ns(), camera_name) + "/" + leaf;
  const auto [it, added] = r->topic_index.try_emplace(name, static_cast<int>(topics_.size()));
  if (added) topics_.push_back({name, kind, r->qos});
  return it->second;
}

void MessageProducer::static_messages(const Simulation& sim, const MessageConsumer& consume) {
  const TFMessage statics = static_transforms(sim, [this](int id) -> const std::string* {
    const Robot* r = robot(id);
    return r ? &r->topics.base_frame() : nullptr;
  });
  consume({kTfStaticTopic, 0, &statics});
}

void MessageProducer::step_messages(const Simulation& sim, const MessageConsumer& consume) {
  const World& world = sim.world();
  const Nanos now = world.time_ns();
  const Clock clock = clock_message(world);
  consume({kClockTopic, now, &clock});
  TFMessage tf;
  for (std::size_t k = 0; k < robot_of_object_.size(); ++k) {
    const Robot* r = robot_of_object_[k];
    if (!r) continue;
    const Odometry odom = odometry(world, static_cast<int>(k), r->topics.base_frame());
    consume({r->odom_topic, now, &odom});
    tf.transforms.push_back(to_transform(odom));
  }
  if (!tf.transforms.empty()) consume({kTfTopic, now, &tf});
  Buffers& b = *buffers_;
  for (int index : sim.sampled()) {
    const Sensor& sensor = *sim.sensors()[index];
    const Robot* r = robot(sensor.object_id());
    if (!r || sensor.header().disabled()) continue;
    const std::vector<int>& topic = sensor_topics_[index];
    visit_sensor(sensor, Overloaded{
                             [&](const Lidar2d& lidar) {
                               const LaserScan scan = to_laser_scan(lidar, r->use_inf);
                               consume({topic[0], now, &scan});
                             },
                             [&](const ubot::Imu& imu) {
                               // Every sample of the step, each with its own header stamp.
                               for (const ImuReading& s : imu.step_samples()) {
                                 const Imu m = to_imu(imu_data(s.header, s.data));
                                 consume({topic[0], now, &m});
                               }
                             },
                             [&](const Lidar3d& lidar) {
                               lidar3d_cloud(lidar, b.cloud_data);
                               to_point_cloud2(b.cloud_data, b.cloud);
                               consume({topic[0], now, &b.cloud});
                             },
                             [&](const Camera& camera) {
                               camera_image(camera, b.image_data);
                               to_image(b.image_data, b.image);
                               consume({topic[0], now, &b.image});
                               const CameraInfo info =
                                   to_camera_info(b.image.header, camera_intrinsics(camera));
                               consume({topic[1], now, &info});
                             },
                         });
  }
}

}  // namespace ubot::ros2
