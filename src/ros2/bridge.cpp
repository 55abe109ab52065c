#include "ubot/ros2/bridge.h"

#include <fmt/format.h>

#include <cstdio>

#include "ubot/core/error.h"
#include "ubot/ros2/ros2_config.h"

namespace ubot::ros2 {
namespace {

Qos to_qos(const Ros2QosModel& m) {
  return {m.reliable ? Reliability::kReliable : Reliability::kBestEffort,
          m.transient_local ? Durability::kTransientLocal : Durability::kVolatile, m.depth};
}

}  // namespace

struct Bridge::Robot {
  int id = 0;
  std::unique_ptr<TwistCommandReceiver> receiver;
};

Bridge::Bridge(Transport& transport, const Simulation& sim)
    : transport_(transport), producer_(sim, PublishedRobots::kRos2Enabled) {
  const World& world = sim.world();
  commands_.assign(world.size(), std::nullopt);
  for (const ObjectModel& o : world.model().objects) {
    if (o.role != Role::kRobot || !o.ros2->enabled) continue;
    auto r = std::make_unique<Robot>();
    r->id = o.id;
    if (!o.ros2->target.empty() && !target_named(world, o.ros2->target)) {
      throw Error(fmt::format("{}: ros2.target: no object named '{}'", o.name, o.ros2->target));
    }
    r->receiver = std::make_unique<TwistCommandReceiver>(
        transport_,
        CommandReceiverSettings{.identity = o.name,
                                .namespace_override = o.ros2->namespace_override,
                                .topic_override = o.ros2->topic_override,
                                .command_timeout = o.ros2->command_timeout,
                                .auto_start = o.ros2->auto_start,
                                .target = o.ros2->target},
        [this, &world](const std::string& name) { return target_named(world, name); },
        o.ros2->cmd_vel_stamped);
    robots_.push_back(std::move(r));
  }
  // Every topic's writer from the start, so subscribers can match before the first sample.
  for (int t = 0; t < static_cast<int>(producer_.topics().size()); ++t) writer(t);
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

RawWriter& Bridge::writer(int topic) {
  if (topic >= static_cast<int>(writers_.size())) writers_.resize(topic + 1);
  if (!writers_[topic]) {
    const Topic& t = producer_.topics()[topic];
    writers_[topic] = transport_.create_writer(t.name, t.kind, to_qos(t.qos));
  }
  return *writers_[topic];
}

void Bridge::write(const Message& m) {
  RawWriter& w = writer(m.topic);
  std::visit([&w](const auto* message) { w.write(message); }, m.message);
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
  for (auto& r : robots_) {
    if (r->id == object_id) return r->receiver.get();
  }
  return nullptr;
}

std::string Bridge::robot_namespace(int object_id) const {
  return producer_.publishes(object_id) ? producer_.robot_namespace(object_id) : "";
}

void Bridge::publish_static_tf(const Simulation& sim) {
  producer_.static_messages(sim, [this](const Message& m) { write(m); });
}

std::span<const Command> Bridge::commands(const Simulation& sim) {
  const World& world = sim.world();
  const int received = transport_.spin();
  // Nothing received and no command active: every object follows its own behaviour, and there
  // is no timeout to run (a 10,000-robot world skips 10,000 receiver updates a step).
  if (received == 0 && !any_active_) return commands_;
  std::fill(commands_.begin(), commands_.end(), std::nullopt);
  any_active_ = false;
  for (auto& r : robots_) {
    r->receiver->update(world.time_ns());
    any_active_ = any_active_ || r->receiver->is_active();
  }
  // Each object takes commands from one receiver at most (checked when the world is loaded).
  for (const auto& [id, target] : targets_) {
    if (const Command c = target->step_command(world.object(id), world.step_time())) {
      commands_[id] = c;
    }
  }
  return commands_;
}

void Bridge::publish(const Simulation& sim) {
  producer_.step_messages(
      sim, [this](const Message& m) { write(m); },
      [this](int topic) { return writer(topic).wanted(); });
}

void Bridge::publish_world(const Simulation& sim) {
  producer_.world_step_messages(
      sim, [this](const Message& m) { write(m); },
      [this](int topic) { return writer(topic).wanted(); });
}

void Bridge::shutdown() {
  for (auto& r : robots_) r->receiver->shutdown();
}

void Bridge::publish_points(int object_id, const std::string& sensor_name,
                            const PointCloudData& cloud) {
  const int topic =
      producer_.sensor_topic(object_id, sensor_name, "points", MessageKind::kPointCloud2);
  if (topic < 0) return;
  to_point_cloud2(cloud, cloud_);
  write({topic, 0, &cloud_});
}

void Bridge::publish_imu(int object_id, const std::string& sensor_name, const ImuData& imu) {
  const int topic = producer_.sensor_topic(object_id, sensor_name, "imu", MessageKind::kImu);
  if (topic < 0) return;
  const Imu message = to_imu(imu);
  write({topic, 0, &message});
}

void Bridge::publish_image(int object_id, const std::string& camera_name, const ImageData& image,
                           const CameraIntrinsics* intrinsics) {
  const int topic =
      producer_.camera_topic(object_id, camera_name, "image_raw", MessageKind::kImage);
  if (topic < 0) return;
  to_image(image, image_);
  write({topic, 0, &image_});
  image_.data.view({});  // it viewed the caller's pixels, which are not ours to keep
  if (!intrinsics) return;
  const CameraInfo info = to_camera_info(image_.header, *intrinsics);
  write({producer_.camera_topic(object_id, camera_name, "camera_info", MessageKind::kCameraInfo), 0,
         &info});
}

}  // namespace ubot::ros2
