#pragma once
// The ROS 2 bridge's transport over the live server: every writer is a Foxglove channel (CDR
// encoding, the ros2msg schema MCAP recordings carry, so Foxglove decodes both alike; a transient
// local topic such as /tf_static is latched), written only while some client subscribes; every
// subscription (the cmd_vel receivers) takes what clients publish on its topic, in CDR or JSON,
// checked against its type. Received messages wait for spin(), as with DDS, so the bridge's
// command receivers keep their rules (timeout, release) unchanged.
#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ubot/live/live_server.h"
#include "ubot/ros2/transport.h"

namespace ubot::live {

class LiveTransport final : public ros2::Transport {
 public:
  explicit LiveTransport(LiveServer& server);
  ~LiveTransport() override;

  // The timestamp of the messages written from now on (the step's simulation time).
  void set_time(Nanos now) { now_ = now; }
  // A client's message on a topic (the server's publish handler): "" or why it was refused.
  std::string receive(const ClientPublish& message);

  std::unique_ptr<ros2::RawWriter> create_writer(const std::string& topic, ros2::MessageKind kind,
                                                 const ros2::Qos& qos) override;
  std::unique_ptr<ros2::RawSubscription> subscribe(const std::string& topic, ros2::MessageKind kind,
                                                   const ros2::Qos& qos,
                                                   ros2::RawCallback callback) override;
  int spin(Nanos timeout = 0) override;
  // Subscriptions to the world's channels (/ubot/markers, /ubot/markers/static,
  // /ubot/trajectories, /ubot/grid_map): a page watching only these needs nothing per robot.
  int world_subscriptions() const;

  // Received messages waiting for spin() at most; more are refused (a publish flood).
  static constexpr std::size_t kMaxPending = 1024;

 private:
  class Writer;
  class Subscription;
  struct Subscriber {
    ros2::MessageKind kind;
    ros2::RawCallback callback;
  };
  struct Pending {
    std::string topic;
    std::uint64_t subscriber;
    ros2::MessageKind kind;
    ros2::Twist twist;
    ros2::TwistStamped stamped;
  };

  LiveServer& server_;
  Nanos now_ = 0;
  std::mutex mutex_;  // the server's thread receives, the simulation's spins
  std::map<std::string, std::map<std::uint64_t, Subscriber>, std::less<>> by_topic_;
  std::uint64_t next_subscriber_ = 1;
  std::deque<Pending> pending_;
  std::vector<std::shared_ptr<const std::atomic<int>>> world_subscribers_;
};

}  // namespace ubot::live
