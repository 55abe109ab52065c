#include "ubot/ros2/fake_transport.h"

#include <fmt/format.h>

#include "ubot/core/error.h"

namespace ubot::ros2 {
namespace {

std::shared_ptr<const void> copy_message(MessageKind kind, const void* message) {
  switch (kind) {
#define UBOT_ROS2_COPY(T, pkg) \
  case MessageKind::k##T:      \
    return std::make_shared<T>(*static_cast<const T*>(message));
    UBOT_ROS2_MESSAGE_TYPES(UBOT_ROS2_COPY)
#undef UBOT_ROS2_COPY
  }
  return nullptr;
}

}  // namespace

class FakeTransport::FakeWriter final : public RawWriter {
 public:
  FakeWriter(FakeTransport& owner, std::string topic, MessageKind kind, Qos qos)
      : owner_(owner), topic_(std::move(topic)), kind_(kind), qos_(qos) {}
  void write(const void* message) override {
    owner_.published_.push_back({topic_, kind_, qos_, copy_message(kind_, message)});
  }

 private:
  FakeTransport& owner_;
  std::string topic_;
  MessageKind kind_;
  Qos qos_;
};

class FakeTransport::FakeSubscription final : public RawSubscription {
 public:
  FakeSubscription(FakeTransport& owner, int id) : owner_(owner), id_(id) {}
  ~FakeSubscription() override { owner_.subscribers_.erase(id_); }

 private:
  FakeTransport& owner_;
  int id_;
};

std::unique_ptr<RawWriter> FakeTransport::create_writer(const std::string& topic, MessageKind kind,
                                                        const Qos& qos) {
  writers_[topic] = qos;
  return std::make_unique<FakeWriter>(*this, topic, kind, qos);
}

std::unique_ptr<RawSubscription> FakeTransport::subscribe(const std::string& topic,
                                                          MessageKind kind, const Qos& qos,
                                                          RawCallback callback) {
  if (fail_subscribe_) throw Error(fmt::format("cannot create a reader for '{}'", topic));
  const int id = next_id_++;
  subscribers_[id] = {topic, kind, qos, std::move(callback)};
  return std::make_unique<FakeSubscription>(*this, id);
}

int FakeTransport::spin(Nanos) {
  std::vector<Pending> queue;
  queue.swap(queue_);
  int delivered = 0;
  for (const Pending& p : queue) {
    // A copy of the ids: a callback may unsubscribe.
    std::vector<int> ids;
    for (const auto& [id, s] : subscribers_) {
      if (s.topic == p.topic && (s.kind == p.kind || !p.error.empty())) ids.push_back(id);
    }
    for (int id : ids) {
      const auto it = subscribers_.find(id);
      if (it == subscribers_.end()) continue;
      it->second.callback(p.error.empty() ? p.message.get() : nullptr, p.error);
      ++delivered;
    }
  }
  return delivered;
}

const Qos* FakeTransport::writer_qos(const std::string& topic) const {
  const auto it = writers_.find(topic);
  return it == writers_.end() ? nullptr : &it->second;
}

void FakeTransport::inject_malformed(const std::string& topic, std::string error) {
  queue_.push_back({topic, MessageKind::kTwist, nullptr, std::move(error)});
}

int FakeTransport::subscriber_count(const std::string& topic) const {
  int n = 0;
  for (const auto& [id, s] : subscribers_) n += s.topic == topic;
  return n;
}

const Qos* FakeTransport::subscription_qos(const std::string& topic) const {
  const Qos* qos = nullptr;
  for (const auto& [id, s] : subscribers_) {
    if (s.topic == topic) qos = &s.qos;
  }
  return qos;
}

}  // namespace ubot::ros2
