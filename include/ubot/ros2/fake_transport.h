#pragma once
// An in-memory Transport for tests: records every write, lets a test inject received messages
// (delivered on spin(), like the real transports) and subscription failures.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ubot/ros2/transport.h"

namespace ubot::ros2 {

class FakeTransport final : public Transport {
 public:
  struct Published {
    std::string topic;
    MessageKind kind;
    Qos qos;
    std::shared_ptr<const void> message;  // a copy of the written struct
  };

  std::unique_ptr<RawWriter> create_writer(const std::string& topic, MessageKind kind,
                                           const Qos& qos) override;
  std::unique_ptr<RawSubscription> subscribe(const std::string& topic, MessageKind kind,
                                             const Qos& qos, RawCallback callback) override;
  int spin(Nanos timeout = 0) override;

  // Every write, in order.
  const std::vector<Published>& published() const { return published_; }
  // Copies of the messages written to `topic`, in order.
  template <class M>
  std::vector<M> messages(const std::string& topic) const {
    std::vector<M> out;
    for (const Published& p : published_) {
      if (p.topic == topic && p.kind == MessageTraits<M>::kind) {
        out.push_back(*static_cast<const M*>(p.message.get()));
      }
    }
    return out;
  }
  // QoS a writer was created with (nullptr if there is none).
  const Qos* writer_qos(const std::string& topic) const;

  // Queues a received message for the current subscribers of `topic`.
  template <class M>
  void inject(const std::string& topic, const M& message) {
    queue_.push_back({topic, MessageTraits<M>::kind, std::make_shared<M>(message), ""});
  }
  // Queues a sample that cannot be decoded.
  void inject_malformed(const std::string& topic, std::string error);

  // Number of live subscriptions to `topic`, and the QoS of the latest one.
  int subscriber_count(const std::string& topic) const;
  const Qos* subscription_qos(const std::string& topic) const;
  // Makes subscribe() throw (as a transport that cannot create a reader).
  void set_fail_subscribe(bool fail) { fail_subscribe_ = fail; }

 private:
  struct Subscriber {
    std::string topic;
    MessageKind kind;
    Qos qos;
    RawCallback callback;
  };
  struct Pending {
    std::string topic;
    MessageKind kind;
    std::shared_ptr<const void> message;
    std::string error;
  };
  class FakeWriter;
  class FakeSubscription;

  std::vector<Published> published_;
  std::map<std::string, Qos> writers_;
  std::map<int, Subscriber> subscribers_;
  int next_id_ = 0;
  std::vector<Pending> queue_;
  bool fail_subscribe_ = false;
};

}  // namespace ubot::ros2
