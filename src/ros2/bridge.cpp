#include "ubot/ros2/bridge.h"

#include <fmt/format.h>

#include <cstdio>

#include "ubot/core/error.h"
#include "ubot/ros2/names.h"
#include "ubot/sensors/imu.h"
#include "ubot/sensors/lidar2d.h"
#include "ubot/sensors/lidar3d.h"

namespace ubot::ros2 {
namespace {

constexpr const char* kWorldFrame = "map";

Qos to_qos(const Ros2QosModel& m) {
  return {m.reliable ? Reliability::kReliable : Reliability::kBestEffort,
          m.transient_local ? Durability::kTransientLocal : Durability::kVolatile, m.depth};
}

// Body-frame twist of an object (IR-SIM's kinematics): diff (v, 0, ω), omni (forward, lateral,
// 0), acker (v, 0, v tan(steer) / L).
Twist body_twist(const World& world, int id) {
  Twist t;
  const ObjectModel& m = world.object_model(id);
  const ObjectState& s = world.object(id);
  switch (m.kinematics.kind) {
    case KinematicsKind::kOmni:
      t.linear = {s.velocity[0], s.velocity[1], 0.0};
      break;
    case KinematicsKind::kDiff:
    case KinematicsKind::kAcker:
      t.linear.x = s.velocity[0];
      t.angular.z = world.angular_velocity(id);
      break;
    case KinematicsKind::kNone:
      break;
  }
  return t;
}

// An IMU sample as the Imu message carries it: every variance is known (the orientation is
// exact, so its variance is 0).
ImuData imu_data(const ubot::Imu& imu) {
  const ImuSample& d = imu.data();
  ImuData m;
  m.header = imu.header();
  m.orientation = d.orientation;
  m.orientation_variance = Eigen::Vector3d::Zero();
  m.angular_velocity = d.angular_velocity;
  m.angular_velocity_variance = d.angular_velocity_variance;
  m.linear_acceleration = d.linear_acceleration;
  m.linear_acceleration_variance = d.linear_acceleration_variance;
  return m;
}

// A 3D lidar sweep as PointCloud2 input: XYZIRT points in the sensor frame, stamped with the
// sweep's start so that stamp + point.time is each point's firing time (LIO-SAM, FAST-LIO).
void fill_cloud(const Lidar3d& lidar, PointCloudData& out) {
  out.header = lidar.header();
  out.header.stamp = lidar.sweep().sweep_start;
  out.points.resize(lidar.sweep().points.size());
  for (std::size_t i = 0; i < out.points.size(); ++i) {
    const LidarPoint& p = lidar.sweep().points[i];
    out.points[i] = {p.x, p.y, p.z, p.intensity, p.ring, p.time};
  }
}

}  // namespace

struct Bridge::Robot {
  int id = 0;
  std::string ns;
  std::string base_frame;
  Qos sensor_qos;
  bool use_inf = false;
  Writer<Odometry> odom;
  std::map<std::string, Writer<LaserScan>> scans;  // by sensor name
  std::map<std::string, Writer<PointCloud2>> points;
  std::map<std::string, Writer<Imu>> imus;
  std::map<std::string, Writer<Image>> images;
  std::map<std::string, Writer<CameraInfo>> camera_infos;
  std::map<std::string, int> suffix_users;    // suffix -> sensors named so far
  std::map<std::string, std::string> topics;  // "<sensor>|<suffix>" -> topic
  int target_id = -1;
  std::unique_ptr<RobotTwistTarget> target;
  std::unique_ptr<TwistCommandReceiver> receiver;
};

std::string Bridge::base_frame(const ObjectModel& object) {
  return fmt::format("{}/base_link", object.name);
}

Bridge::Bridge(Transport& transport, const Simulation& sim) : transport_(transport) {
  const World& world = sim.world();
  clock_ = make_writer<Clock>(transport_, "/clock", default_sensor_qos());
  tf_ = make_writer<TFMessage>(transport_, "/tf", default_sensor_qos());
  tf_static_ = make_writer<TFMessage>(transport_, "/tf_static", static_tf_qos());
  commands_.assign(world.size(), std::nullopt);
  for (const ObjectModel& o : world.model().objects) {
    if (o.role != Role::kRobot || !o.ros2.enabled) continue;
    auto r = std::make_unique<Robot>();
    r->id = o.id;
    r->ns = resolve_namespace(o.name, o.ros2.namespace_override);
    r->base_frame = base_frame(o);
    r->sensor_qos = to_qos(o.ros2.sensor_qos);
    r->use_inf = o.ros2.use_inf;
    r->odom = make_writer<Odometry>(transport_, r->ns + "/odom", r->sensor_qos);
    r->target_id = o.id;
    if (!o.ros2.target.empty()) {
      r->target_id = -1;
      for (const ObjectModel& other : world.model().objects) {
        if (other.name == o.ros2.target) r->target_id = other.id;
      }
      if (r->target_id < 0) {
        throw Error(fmt::format("{}: ros2.target: no object named '{}'", o.name, o.ros2.target));
      }
    }
    r->target = std::make_unique<RobotTwistTarget>(world.object_model(r->target_id));
    r->receiver = std::make_unique<TwistCommandReceiver>(
        transport_,
        CommandReceiverSettings{o.name, o.ros2.namespace_override, o.ros2.topic_override,
                                o.ros2.command_timeout},
        r->target.get(), o.ros2.cmd_vel_stamped);
    by_id_[o.id] = r.get();
    robots_.push_back(std::move(r));
  }
  // Writers in sensor order, so a robot's first lidar gets <ns>/scan (<ns>/points).
  for (const auto& sensor : sim.sensors()) {
    Robot* r = robot(sensor->object_id());
    const std::string& name = sensor->model().common.name;
    if (r && sensor->kind() == SensorKind::kLidar2d) {
      r->scans[name] =
          make_writer<LaserScan>(transport_, sensor_topic(*r, name, "scan"), r->sensor_qos);
    } else if (r && sensor->kind() == SensorKind::kLidar3d) {
      r->points[name] =
          make_writer<PointCloud2>(transport_, sensor_topic(*r, name, "points"), r->sensor_qos);
    }
  }
  for (auto& r : robots_) {
    // A receiver that cannot subscribe keeps its error (last_error) and the run goes on.
    r->receiver->set_on_error([name = world.object_model(r->id).name](const std::string& e) {
      std::fprintf(stderr, "ros2: %s: %s\n", name.c_str(), e.c_str());
    });
    r->receiver->start();
  }
  publish_static_tf(sim);
}

Bridge::~Bridge() { shutdown(); }

Bridge::Robot* Bridge::robot(int object_id) {
  const auto it = by_id_.find(object_id);
  return it == by_id_.end() ? nullptr : it->second;
}

TwistCommandReceiver* Bridge::receiver(int object_id) {
  Robot* r = robot(object_id);
  return r ? r->receiver.get() : nullptr;
}

std::string Bridge::robot_namespace(int object_id) const {
  const auto it = by_id_.find(object_id);
  return it == by_id_.end() ? "" : it->second->ns;
}

std::string Bridge::sensor_topic(Robot& r, const std::string& sensor_name,
                                 const std::string& suffix) {
  const std::string key = sensor_name + "|" + suffix;
  if (const auto it = r.topics.find(key); it != r.topics.end()) return it->second;
  const bool first = r.suffix_users[suffix]++ == 0;
  const std::string topic =
      first ? fmt::format("{}/{}", r.ns, suffix)
            : fmt::format("{}/{}/{}", r.ns, sanitize_token(sensor_name), suffix);
  r.topics[key] = topic;
  return topic;
}

void Bridge::publish_static_tf(const Simulation& sim) {
  TFMessage m;
  for (const auto& sensor : sim.sensors()) {
    const Robot* r = robot(sensor->object_id());
    if (!r) continue;
    TransformStamped t;
    t.header = {to_time(0), r->base_frame};
    t.child_frame_id = sensor->header().frame_id;
    if (const auto* lidar = std::get_if<Lidar2dModel>(&sensor->model().params)) {
      t.transform.translation = {lidar->offset.x(), lidar->offset.y(), lidar->z};
      t.transform.rotation = yaw_quaternion(lidar->offset.z());
    } else if (const auto* lidar3d = dynamic_cast<const Lidar3d*>(sensor.get())) {
      const Pose3d& m = lidar3d->mount();
      t.transform.translation = {m.position.x(), m.position.y(), m.position.z()};
      t.transform.rotation = {m.orientation.x(), m.orientation.y(), m.orientation.z(),
                              m.orientation.w()};
    }
    m.transforms.push_back(std::move(t));
  }
  tf_static_.write(m);
}

std::span<const Command> Bridge::commands(const Simulation& sim) {
  const World& world = sim.world();
  transport_.spin();
  std::fill(commands_.begin(), commands_.end(), std::nullopt);
  for (auto& r : robots_) {
    r->receiver->update(world.time_ns());
    const Command c = r->target->step_command(world.object(r->target_id), world.step_time());
    if (c) commands_[r->target_id] = c;
  }
  return commands_;
}

void Bridge::publish(const Simulation& sim) {
  const World& world = sim.world();
  const Time now = to_time(world.time_ns());
  clock_.write(Clock{now});
  TFMessage tf;
  for (auto& r : robots_) {
    const ObjectModel& o = world.object_model(r->id);
    const ObjectState& s = world.object(r->id);
    Odometry odom;
    odom.header = {now, kWorldFrame};
    odom.child_frame_id = r->base_frame;
    odom.pose.pose.position = {s.state[0], s.state[1], o.z};
    odom.pose.pose.orientation = yaw_quaternion(s.state[2]);
    odom.twist.twist = body_twist(world, r->id);
    r->odom.write(odom);
    TransformStamped t;
    t.header = odom.header;
    t.child_frame_id = r->base_frame;
    t.transform.translation = {s.state[0], s.state[1], o.z};
    t.transform.rotation = odom.pose.pose.orientation;
    tf.transforms.push_back(std::move(t));
  }
  if (!tf.transforms.empty()) tf_.write(tf);
  for (int index : sim.sampled()) {
    const Sensor& sensor = *sim.sensors()[index];
    Robot* r = robot(sensor.object_id());
    if (!r || sensor.header().status == "Disabled") continue;
    if (const auto* lidar = dynamic_cast<const Lidar2d*>(&sensor)) {
      r->scans.at(sensor.model().common.name).write(to_laser_scan(*lidar, r->use_inf));
    } else if (const auto* imu = dynamic_cast<const ubot::Imu*>(&sensor)) {
      publish_imu(sensor.object_id(), sensor.model().common.name, imu_data(*imu));
    } else if (const auto* lidar3d = dynamic_cast<const Lidar3d*>(&sensor)) {
      fill_cloud(*lidar3d, cloud_data_);
      publish_points(sensor.object_id(), sensor.model().common.name, cloud_data_);
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
    writer = make_writer<PointCloud2>(transport_, sensor_topic(*r, sensor_name, "points"),
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
    writer = make_writer<Imu>(transport_, sensor_topic(*r, sensor_name, "imu"), r->sensor_qos);
  }
  writer.write(to_imu(imu));
}

void Bridge::publish_image(int object_id, const std::string& camera_name, const ImageData& image,
                           const CameraIntrinsics* intrinsics) {
  Robot* r = robot(object_id);
  if (!r) return;
  const std::string base = fmt::format("{}/{}", r->ns, sanitize_token(camera_name));
  auto& writer = r->images[camera_name];
  if (!writer) writer = make_writer<Image>(transport_, base + "/image_raw", r->sensor_qos);
  const Image m = to_image(image);
  writer.write(m);
  if (!intrinsics) return;
  auto& info = r->camera_infos[camera_name];
  if (!info) info = make_writer<CameraInfo>(transport_, base + "/camera_info", r->sensor_qos);
  info.write(to_camera_info(m.header, *intrinsics));
}

}  // namespace ubot::ros2
