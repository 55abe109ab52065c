#include "ubot/live/live_transport.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "ubot/ros2/cdr.h"
#include "ubot/ros2/message_definition.h"
#include "ubot/ros2/world_messages.h"

namespace ubot::live {
namespace {

using ros2::MessageKind;

// A Twist from the JSON a client sends ({"linear": {"x": ...}, "angular": {...}}, fields left
// out are 0, as ROS's JSON encoders write them); "" or why not.
std::string twist_from_json(const nlohmann::json& j, ros2::Twist& out) {
  if (!j.is_object()) return "a Twist must be a JSON object";
  const auto vector = [](const nlohmann::json& parent, const char* name,
                         ros2::Vector3& v) -> std::string {
    const auto it = parent.find(name);
    if (it == parent.end()) return "";
    if (!it->is_object()) return fmt::format("'{}' must be an object with x, y, z", name);
    for (const auto& [axis, field] : {std::pair{"x", &v.x}, {"y", &v.y}, {"z", &v.z}}) {
      const auto f = it->find(axis);
      if (f == it->end()) continue;
      if (!f->is_number()) return fmt::format("'{}.{}' must be a number", name, axis);
      *field = f->get<double>();
    }
    return "";
  };
  if (std::string e = vector(j, "linear", out.linear); !e.empty()) return e;
  return vector(j, "angular", out.angular);
}

std::string decode(const ClientPublish& m, MessageKind kind, ros2::Twist& twist,
                   ros2::TwistStamped& stamped) {
  if (m.channel.encoding == "cdr") {
    return kind == MessageKind::kTwist ? ros2::deserialize_cdr(m.payload, twist)
                                       : ros2::deserialize_cdr(m.payload, stamped);
  }
  const auto j = nlohmann::json::parse(m.payload.begin(), m.payload.end(), nullptr, false);
  if (j.is_discarded()) return "not a JSON text";
  if (kind == MessageKind::kTwist) return twist_from_json(j, twist);
  if (!j.is_object() || !j.contains("twist")) return "a TwistStamped needs a 'twist' object";
  return twist_from_json(j["twist"], stamped.twist);
}

std::string with_slash(const std::string& topic) {
  return topic.starts_with('/') ? topic : "/" + topic;
}

}  // namespace

class LiveTransport::Writer final : public ros2::RawWriter {
 public:
  Writer(LiveTransport& transport, std::uint32_t channel, MessageKind kind)
      : transport_(transport),
        channel_(channel),
        kind_(kind),
        subscribers_(transport.server_.subscriber_count(channel)) {}
  // Asked for every topic of every step: one atomic load, no lock.
  bool wanted() const override {
    return latched_ || subscribers_->load(std::memory_order_relaxed) > 0;
  }
  void write(const void* message) override {
    LiveServer& server = transport_.server_;
    if (!wanted()) return;  // nobody to make it for
    ros2::serialize_cdr(kind_, message, bytes_);
    server.publish(channel_, static_cast<std::uint64_t>(std::max<Nanos>(transport_.now_, 0)),
                   std::make_shared<const std::string>(bytes_.begin(), bytes_.end()));
  }
  bool latched_ = false;

 private:
  LiveTransport& transport_;
  std::uint32_t channel_;
  MessageKind kind_;
  std::shared_ptr<const std::atomic<int>> subscribers_;
  std::vector<std::uint8_t> bytes_;
};

class LiveTransport::Subscription final : public ros2::RawSubscription {
 public:
  Subscription(LiveTransport& transport, std::string topic, std::uint64_t id)
      : transport_(transport), topic_(std::move(topic)), id_(id) {}
  ~Subscription() override {
    const std::lock_guard lock(transport_.mutex_);
    const auto it = transport_.by_topic_.find(topic_);
    if (it == transport_.by_topic_.end()) return;
    it->second.erase(id_);
    if (it->second.empty()) transport_.by_topic_.erase(it);
  }

 private:
  LiveTransport& transport_;
  std::string topic_;
  std::uint64_t id_;
};

LiveTransport::LiveTransport(LiveServer& server) : server_(server) {}
LiveTransport::~LiveTransport() = default;

std::unique_ptr<ros2::RawWriter> LiveTransport::create_writer(const std::string& topic,
                                                              MessageKind kind,
                                                              const ros2::Qos& qos) {
  const std::string name(ros2::message_type(kind).ros_name);
  const bool latched = qos.durability == ros2::Durability::kTransientLocal;
  const std::uint32_t channel = server_.add_channel({.topic = topic,
                                                     .encoding = "cdr",
                                                     .schema_name = name,
                                                     .schema = ros2::message_definition(name),
                                                     .schema_encoding = "ros2msg"},
                                                    latched);
  auto writer = std::make_unique<Writer>(*this, channel, kind);
  writer->latched_ = latched;
  if (ros2::is_world_topic(topic)) world_subscribers_.push_back(server_.subscriber_count(channel));
  return writer;
}

int LiveTransport::world_subscriptions() const {
  int n = 0;
  for (const auto& count : world_subscribers_) n += count->load(std::memory_order_relaxed);
  return n;
}

std::unique_ptr<ros2::RawSubscription> LiveTransport::subscribe(const std::string& topic,
                                                                MessageKind kind, const ros2::Qos&,
                                                                ros2::RawCallback callback) {
  if (kind != MessageKind::kTwist && kind != MessageKind::kTwistStamped) {
    throw std::logic_error("live transport: only Twist and TwistStamped can be received");
  }
  const std::lock_guard lock(mutex_);
  const std::uint64_t id = next_subscriber_++;
  by_topic_[topic][id] = {kind, std::move(callback)};
  return std::make_unique<Subscription>(*this, topic, id);
}

std::string LiveTransport::receive(const ClientPublish& m) {
  const std::string topic = with_slash(m.channel.topic);
  const std::lock_guard lock(mutex_);
  const auto it = by_topic_.find(topic);
  if (it == by_topic_.end()) {
    return fmt::format(
        "{}: nothing here receives this topic (robots take geometry_msgs/msg/Twist "
        "on <namespace>/cmd_vel)",
        topic);
  }
  for (const auto& [id, subscriber] : it->second) {
    const std::string_view expected = ros2::message_type(subscriber.kind).ros_name;
    if (m.channel.schema_name != expected) {
      return fmt::format("{}: the topic carries {}, not '{}'", topic, expected,
                         m.channel.schema_name.substr(0, 128));
    }
    if (pending_.size() >= kMaxPending) {
      return fmt::format("{}: {} commands wait for the next step already; this one is dropped",
                         topic, kMaxPending);
    }
    Pending p{
        .topic = topic, .subscriber = id, .kind = subscriber.kind, .twist = {}, .stamped = {}};
    if (std::string e = decode(m, subscriber.kind, p.twist, p.stamped); !e.empty()) {
      return fmt::format("{}: {}: {}", topic, expected, e);
    }
    pending_.push_back(std::move(p));
  }
  return "";
}

int LiveTransport::spin(Nanos) {
  std::deque<Pending> taken;
  {
    const std::lock_guard lock(mutex_);
    taken.swap(pending_);
  }
  int handed = 0;
  for (const Pending& p : taken) {
    ros2::RawCallback callback;
    {
      const std::lock_guard lock(mutex_);
      if (const auto t = by_topic_.find(p.topic); t != by_topic_.end()) {
        if (const auto s = t->second.find(p.subscriber); s != t->second.end()) {
          callback = s->second.callback;
        }
      }
    }
    if (!callback) continue;  // unsubscribed meanwhile
    callback(p.kind == MessageKind::kTwist ? static_cast<const void*>(&p.twist) : &p.stamped, {});
    ++handed;
  }
  return handed;
}

}  // namespace ubot::live
