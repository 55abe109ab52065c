#include "ubot/ros2/bridge.h"

#include <fmt/format.h>

#include <cstdio>

#include "ubot/core/error.h"
#include "ubot/sensors/camera.h"
#include "ubot/sensors/imu.h"
#include "ubot/sensors/lidar2d.h"
#include "ubot/sensors/lidar3d.h"

namespace ubot::ros2 {
namespace {

Qos to_qos(const Ros2QosModel& m) {
  return {m.reliable ? Reliability::kReliable : Reliability::kBestEffort,
          m.transient_local ? Durability::kTransientLocal : Durability::kVolatile, m.depth};
}

}  // namespace

struct Bridge::Robot {
  explicit Robot(const ObjectModel& o) : id(o.id), topics(o) {}
  int id = 0;
  RobotTopics topics;
  Qos sensor_qos;
  bool use_inf = false;
  Writer<Odometry> odom;
  std::map<std::string, Writer<LaserScan>> scans;  // by sensor name
  std::map<std::string, Writer<PointCloud2>> points;
  std::map<std::string, Writer<Imu>> imus;
  std::map<std::string, Writer<Image>> images;
  std::map<std::string, Writer<CameraInfo>> camera_infos;
  std::unique_ptr<TwistCommandReceiver> receiver;
};

Bridge::Bridge(Transport& transport, const Simulation& sim) : transport_(transport) {
  const World& world = sim.world();
  clock_ = make_writer<Clock>(transport_, "/clock", default_sensor_qos());
  tf_ = make_writer<TFMessage>(transport_, "/tf", default_sensor_qos());
  tf_static_ = make_writer<TFMessage>(transport_, "/tf_static", static_tf_qos());
  commands_.assign(world.size(), std::nullopt);
  for (const ObjectModel& o : world.model().objects) {
    if (o.role != Role::kRobot || !o.ros2.enabled) continue;
    auto r = std::make_unique<Robot>(o);
    r->sensor_qos = to_qos(o.ros2.sensor_qos);
    r->use_inf = o.ros2.use_inf;
    r->odom = make_writer<Odometry>(transport_, r->topics.odom_topic(), r->sensor_qos);
    if (!o.ros2.target.empty() && !target_named(world, o.ros2.target)) {
      throw Error(fmt::format("{}: ros2.target: no object named '{}'", o.name, o.ros2.target));
    }
    r->receiver = std::make_unique<TwistCommandReceiver>(
        transport_,
        CommandReceiverSettings{.identity = o.name,
                                .namespace_override = o.ros2.namespace_override,
                                .topic_override = o.ros2.topic_override,
                                .command_timeout = o.ros2.command_timeout,
                                .auto_start = o.ros2.auto_start,
                                .target = o.ros2.target},
        [this, &world](const std::string& name) { return target_named(world, name); },
        o.ros2.cmd_vel_stamped);
    by_id_[o.id] = r.get();
    robots_.push_back(std::move(r));
  }
  // Writers in sensor order, so a robot's first lidar gets <ns>/scan (<ns>/points).
  for (const auto& sensor : sim.sensors()) {
    Robot* r = robot(sensor->object_id());
    const std::string& name = sensor->model().common.name;
    if (r && sensor->kind() == SensorKind::kLidar2d) {
      r->scans[name] =
          make_writer<LaserScan>(transport_, r->topics.sensor_topic(name, "scan"), r->sensor_qos);
    } else if (r && sensor->kind() == SensorKind::kLidar3d) {
      r->points[name] = make_writer<PointCloud2>(transport_, r->topics.sensor_topic(name, "points"),
                                                 r->sensor_qos);
    } else if (r && sensor->kind() == SensorKind::kImu) {
      r->imus[name] =
          make_writer<Imu>(transport_, r->topics.sensor_topic(name, "imu"), r->sensor_qos);
    } else if (r && (sensor->kind() == SensorKind::kDepthCamera ||
                     sensor->kind() == SensorKind::kRgbCamera)) {
      const std::string base = camera_topic_base(r->topics.ns(), name);
      r->images[name] = make_writer<Image>(transport_, base + "/image_raw", r->sensor_qos);
      r->camera_infos[name] =
          make_writer<CameraInfo>(transport_, base + "/camera_info", r->sensor_qos);
    }
  }
  for (auto& r : robots_) {
    // A receiver that cannot subscribe keeps its error (last_error) and the run goes on.
    r->receiver->set_on_error([name = world.object_model(r->id).name](const std::string& e) {
      std::fprintf(stderr, "ros2: %s: %s\n", name.c_str(), e.c_str());
    });
    r->receiver->begin();  // subscribes unless ros2.auto_start is false
  }
  publish_static_tf(sim);
}

Bridge::~Bridge() { shutdown(); }

Bridge::Robot* Bridge::robot(int object_id) {
  const auto it = by_id_.find(object_id);
  return it == by_id_.end() ? nullptr : it->second;
}

RobotTwistTarget* Bridge::target_named(const World& world, const std::string& name) {
  if (const auto it = targets_by_name_.find(name); it != targets_by_name_.end()) return it->second;
  RobotTwistTarget* found = nullptr;  // looked up once per name: objects never change names
  for (const ObjectModel& o : world.model().objects) {
    if (o.name != name) continue;
    auto& target = targets_[o.id];
    target = std::make_unique<RobotTwistTarget>(o);
    found = target.get();
    break;
  }
  targets_by_name_.emplace(name, found);
  return found;
}

TwistCommandReceiver* Bridge::receiver(int object_id) {
  Robot* r = robot(object_id);
  return r ? r->receiver.get() : nullptr;
}

std::string Bridge::robot_namespace(int object_id) const {
  const auto it = by_id_.find(object_id);
  return it == by_id_.end() ? "" : it->second->topics.ns();
}

void Bridge::publish_static_tf(const Simulation& sim) {
  tf_static_.write(static_transforms(sim, [this](int id) -> const std::string* {
    const Robot* r = robot(id);
    return r ? &r->topics.base_frame() : nullptr;
  }));
}

std::span<const Command> Bridge::commands(const Simulation& sim) {
  const World& world = sim.world();
  transport_.spin();
  std::fill(commands_.begin(), commands_.end(), std::nullopt);
  for (auto& r : robots_) r->receiver->update(world.time_ns());
  // Each object takes commands from one receiver at most (checked when the world is loaded).
  for (const auto& [id, target] : targets_) {
    if (const Command c = target->step_command(world.object(id), world.step_time())) {
      commands_[id] = c;
    }
  }
  return commands_;
}

void Bridge::publish(const Simulation& sim) {
  const World& world = sim.world();
  clock_.write(clock_message(world));
  TFMessage tf;
  for (auto& r : robots_) {
    const Odometry odom = odometry(world, r->id, r->topics.base_frame());
    r->odom.write(odom);
    tf.transforms.push_back(to_transform(odom));
  }
  if (!tf.transforms.empty()) tf_.write(tf);
  for (int index : sim.sampled()) {
    const Sensor& sensor = *sim.sensors()[index];
    Robot* r = robot(sensor.object_id());
    if (!r || sensor.header().status == "Disabled") continue;
    if (const auto* lidar = dynamic_cast<const Lidar2d*>(&sensor)) {
      r->scans.at(sensor.model().common.name).write(to_laser_scan(*lidar, r->use_inf));
    } else if (const auto* imu = dynamic_cast<const ubot::Imu*>(&sensor)) {
      // Every sample of the step, in time order, each with its own stamp.
      for (const ImuReading& s : imu->step_samples()) {
        publish_imu(sensor.object_id(), sensor.model().common.name, imu_data(s.header, s.data));
      }
    } else if (const auto* lidar3d = dynamic_cast<const Lidar3d*>(&sensor)) {
      lidar3d_cloud(*lidar3d, cloud_data_);
      publish_points(sensor.object_id(), sensor.model().common.name, cloud_data_);
    } else if (const auto* camera = dynamic_cast<const Camera*>(&sensor)) {
      camera_image(*camera, image_data_);
      const CameraIntrinsics intrinsics = camera_intrinsics(*camera);
      publish_image(sensor.object_id(), sensor.model().common.name, image_data_, &intrinsics);
    }
  }
}

void Bridge::shutdown() {
  for (auto& r : robots_) r->receiver->shutdown();
}

void Bridge::publish_points(int object_id, const std::string& sensor_name,
                            const PointCloudData& cloud) {
  Robot* r = robot(object_id);
  if (!r) return;
  auto& writer = r->points[sensor_name];
  if (!writer) {
    writer = make_writer<PointCloud2>(transport_, r->topics.sensor_topic(sensor_name, "points"),
                                      r->sensor_qos);
  }
  to_point_cloud2(cloud, cloud_);
  writer.write(cloud_);
}

void Bridge::publish_imu(int object_id, const std::string& sensor_name, const ImuData& imu) {
  Robot* r = robot(object_id);
  if (!r) return;
  auto& writer = r->imus[sensor_name];
  if (!writer) {
    writer =
        make_writer<Imu>(transport_, r->topics.sensor_topic(sensor_name, "imu"), r->sensor_qos);
  }
  writer.write(to_imu(imu));
}

void Bridge::publish_image(int object_id, const std::string& camera_name, const ImageData& image,
                           const CameraIntrinsics* intrinsics) {
  Robot* r = robot(object_id);
  if (!r) return;
  auto base = [&] { return camera_topic_base(r->topics.ns(), camera_name); };
  auto& writer = r->images[camera_name];
  if (!writer) writer = make_writer<Image>(transport_, base() + "/image_raw", r->sensor_qos);
  to_image(image, image_);
  writer.write(image_);
  if (!intrinsics) return;
  auto& info = r->camera_infos[camera_name];
  if (!info) info = make_writer<CameraInfo>(transport_, base() + "/camera_info", r->sensor_qos);
  info.write(to_camera_info(image_.header, *intrinsics));
}

}  // namespace ubot::ros2
