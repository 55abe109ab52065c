#include "ubot/ros2/message_producer.h"

#include <algorithm>

#include <map>

#include "ubot/ros2/sensor_messages.h"
#include "ubot/ros2/sim_messages.h"
#include "ubot/ros2/world_messages.h"
#include "ubot/sensors/registered_sensors.h"
#include "ubot/sim/simulation.h"
#include "ubot/viz/run_drawing.h"

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

MessageProducer::MessageProducer(const Simulation& sim, PublishedRobots robots)
    : buffers_(std::make_unique<MessageBuffers>()) {
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
    const TopicNamer namer{[&](const std::string& suffix, MessageKind kind) {
                             return sensor_topic(id, name, suffix, kind);
                           },
                           [&](const std::string& leaf, MessageKind kind) {
                             return camera_topic(id, name, leaf, kind);
                           }};
    sensor_topics_[i] =
        visit_sensor(sensor, [&](const auto& s) { return sensor_topics(namer, s); });
  }
  add_world_topics(sim);
}

void MessageProducer::add_world_topics(const Simulation& sim) {
  const auto add = [this](const char* name, MessageKind kind, const Ros2QosModel& qos) {
    topics_.push_back({name, kind, qos});
    return static_cast<int>(topics_.size()) - 1;
  };
  static_markers_topic_ = add(kStaticMarkersTopic, MessageKind::kMarkerArray, kStaticTfQos);
  markers_topic_ = add(kMarkersTopic, MessageKind::kMarkerArray, kDefaultQos);
  trajectories_topic_ = add(kTrajectoriesTopic, MessageKind::kMarkerArray, kDefaultQos);
  if (sim.world().model().grid) {
    grid_topic_ = add(kGridMapTopic, MessageKind::kOccupancyGrid, kStaticTfQos);
  }
  drawing_ = std::make_unique<viz::RunDrawing>(sim);
  recorded_step_ = sim.world().step_count();
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
  return add_topic(*r, r->topics.sensor_topic(sensor_name, suffix), kind);
}

int MessageProducer::camera_topic(int object_id, const std::string& camera_name,
                                  const std::string& leaf, MessageKind kind) {
  Robot* r = robot(object_id);
  if (!r) return -1;
  return add_topic(*r, camera_topic_base(r->topics.ns(), camera_name) + "/" + leaf, kind);
}

int MessageProducer::add_topic(Robot& r, const std::string& name, MessageKind kind) {
  const auto [it, added] = r.topic_index.try_emplace(name, static_cast<int>(topics_.size()));
  if (added) topics_.push_back({name, kind, r.qos});
  return it->second;
}

void MessageProducer::static_messages(const Simulation& sim, const MessageConsumer& consume) {
  const TFMessage statics = static_transforms(sim, [this](int id) -> const std::string* {
    const Robot* r = robot(id);
    return r ? &r->topics.base_frame() : nullptr;
  });
  consume({kTfStaticTopic, 0, &statics});
  const Nanos now = sim.world().time_ns();
  const MarkerArray fixed =
      world_markers(drawing_->draw(sim, {.sensors = false, .trajectories = false}), sim.world(),
                    MarkerPart::kStatic, now);
  consume({static_markers_topic_, now, &fixed});
  if (grid_topic_ >= 0) {
    const OccupancyGrid grid = grid_map_message(*sim.world().model().grid, now);
    consume({grid_topic_, now, &grid});
  }
}

void MessageProducer::world_step_messages(const Simulation& sim, const MessageConsumer& consume,
                                          const TopicFilter& wanted) {
  const World& world = sim.world();
  if (world.step_count() < recorded_step_) next_markers_ = next_trajectories_ = 0;  // a reset
  if (world.step_count() != recorded_step_) {  // once a step, however often it is published
    drawing_->record(sim);
    recorded_step_ = world.step_count();
  }
  const Nanos now = world.time_ns();
  const auto due = [&](int topic, Nanos& next, Nanos period) {
    if (now < next || (wanted && !wanted(topic))) return false;
    next = (now / period + 1) * period;  // on the period's grid of simulated time
    return true;
  };
  // A live view's markers come at its pace; its trajectories too, and at most once a second of
  // simulated time (a run at full speed would otherwise make them hundreds of times a second).
  const bool live_due = live_markers_ && live_markers_->due();
  const bool markers = live_markers_ ? live_due && (!wanted || wanted(markers_topic_))
                                     : due(markers_topic_, next_markers_, kMarkersPeriod);
  const bool trajectories = (!live_markers_ || live_due) &&
                            due(trajectories_topic_, next_trajectories_, kTrajectoriesPeriod);
  if (!markers && !trajectories) return;
  const bool beams = markers && live_markers_;
  // A live view's trajectories are thinned as they are drawn, to about the points a trajectory
  // marker keeps, rather than a long run's every point copied first (milliseconds at 100
  // robots after a minute at full speed). A recording keeps the pictures' budget: its bytes
  // stay what they were.
  viz::PictureBudget budget;
  if (live_markers_) budget.trajectory_points = kTrajectoryMarkerPoints * world.size();
  const render::Drawing picture =
      drawing_->draw(sim,
                     {.sensors = beams,
                      .beams_at_most = beams ? live_markers_->beams_at_most : 0,
                      .trajectories = trajectories},
                     budget);
  if (markers) {
    const MarkerArray m = world_markers(picture, world, MarkerPart::kMoving, now);
    consume({markers_topic_, now, &m});
  }
  if (trajectories) {
    const MarkerArray t = world_markers(picture, world, MarkerPart::kTrajectories, now);
    consume({trajectories_topic_, now, &t});
  }
}

void MessageProducer::step_messages(const Simulation& sim, const MessageConsumer& consume,
                                    const TopicFilter& wanted) {
  const auto want = [&wanted](int topic) { return !wanted || wanted(topic); };
  const World& world = sim.world();
  const Nanos now = world.time_ns();
  if (want(kClockTopic)) {
    const Clock clock = clock_message(world);
    consume({kClockTopic, now, &clock});
  }
  const bool want_tf = want(kTfTopic);
  TFMessage tf;
  for (std::size_t k = 0; k < robot_of_object_.size(); ++k) {
    const Robot* r = robot_of_object_[k];
    if (!r) continue;
    const bool want_odom = want(r->odom_topic);
    if (!want_odom && !want_tf) continue;
    const Odometry odom = odometry(world, static_cast<int>(k), r->topics.base_frame());
    if (want_odom) consume({r->odom_topic, now, &odom});
    if (want_tf) tf.transforms.push_back(to_transform(odom));
  }
  if (!tf.transforms.empty()) consume({kTfTopic, now, &tf});
  for (int index : sim.sampled()) {
    const Sensor& sensor = *sim.sensors()[index];
    const Robot* r = robot(sensor.object_id());
    if (!r || sensor.header().disabled()) continue;
    const std::vector<int>& topics = sensor_topics_[index];
    if (wanted && std::none_of(topics.begin(), topics.end(), wanted)) continue;
    const SensorMessageContext c{topics, now, consume, r->use_inf, *buffers_};
    visit_sensor(sensor, [&](const auto& s) { sensor_messages(c, s); });
  }
  world_step_messages(sim, consume, wanted);
}

}  // namespace ubot::ros2
