#pragma once
// The transport-independent publish/subscribe interface of the ROS 2 bridge. Topics are ROS
// names ("/robot_0/scan"); a transport maps them to its wire names (DDS: "rt/robot_0/scan").
// Messages are the structs of messages.h. Received messages are handed to callbacks only inside
// spin(), on the calling thread, so a simulation consumes them at a step boundary of its choice.
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "ubot/core/time.h"
#include "ubot/ros2/messages.h"

namespace ubot::ros2 {

enum class Reliability { kReliable, kBestEffort };
enum class Durability { kVolatile, kTransientLocal };

struct Qos {
  Reliability reliability = Reliability::kReliable;
  Durability durability = Durability::kVolatile;
  int depth = 10;  // KEEP_LAST depth
};

// Sensor topics by default: RELIABLE / VOLATILE / KEEP_LAST 10, which every reader matches
// (best-effort and reliable readers alike).
inline Qos default_sensor_qos() { return {}; }
// Command topics (SPEC §12): BEST_EFFORT / VOLATILE / KEEP_LAST 10, which every writer matches.
inline Qos command_qos() { return {Reliability::kBestEffort, Durability::kVolatile, 10}; }
// /tf_static: latched for late joiners, as tf2's StaticTransformBroadcaster.
inline Qos static_tf_qos() { return {Reliability::kReliable, Durability::kTransientLocal, 1}; }

// Writes messages of one type to one topic.
class RawWriter {
 public:
  virtual ~RawWriter() = default;
  // `message` points to the struct of the writer's MessageKind.
  virtual void write(const void* message) = 0;
  // Whether a message written now would reach anyone; the bridge makes no message for a writer
  // that says no (the live transport's, while no client subscribes). DDS writers always say yes.
  virtual bool wanted() const { return true; }
};

// A live subscription; destroying it unsubscribes.
class RawSubscription {
 public:
  virtual ~RawSubscription() = default;
};

// Called with a decoded message (error empty), or with message == nullptr and the reason a
// received sample could not be decoded.
using RawCallback = std::function<void(const void* message, std::string_view error)>;

class Transport {
 public:
  virtual ~Transport() = default;
  // Throw ubot::Error when the endpoint cannot be created.
  virtual std::unique_ptr<RawWriter> create_writer(const std::string& topic, MessageKind kind,
                                                   const Qos& qos) = 0;
  virtual std::unique_ptr<RawSubscription> subscribe(const std::string& topic, MessageKind kind,
                                                     const Qos& qos, RawCallback callback) = 0;
  // Hands every received message to its callback, waiting up to `timeout` for the first one when
  // none is pending. Returns how many were handed over.
  virtual int spin(Nanos timeout = 0) = 0;
};

// Typed wrappers.
template <class M>
class Writer {
 public:
  Writer() = default;
  explicit Writer(std::unique_ptr<RawWriter> raw) : raw_(std::move(raw)) {}
  explicit operator bool() const { return raw_ != nullptr; }
  void write(const M& message) { raw_->write(&message); }

 private:
  std::unique_ptr<RawWriter> raw_;
};

template <class M>
Writer<M> make_writer(Transport& transport, const std::string& topic, const Qos& qos) {
  return Writer<M>(transport.create_writer(topic, MessageTraits<M>::kind, qos));
}

template <class M>
std::unique_ptr<RawSubscription> subscribe(
    Transport& transport, const std::string& topic, const Qos& qos,
    std::function<void(const M* message, std::string_view error)> callback) {
  return transport.subscribe(topic, MessageTraits<M>::kind, qos,
                             [cb = std::move(callback)](const void* m, std::string_view error) {
                               cb(static_cast<const M*>(m), error);
                             });
}

}  // namespace ubot::ros2
