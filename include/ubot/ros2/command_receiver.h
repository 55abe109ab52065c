#pragma once
// Command receivers (SPEC §12, seed "uBot ROS Command Receiver"): per robot, a subscription to
// /<namespace>/<suffix> (BEST_EFFORT / VOLATILE / KEEP_LAST 10) whose valid messages drive a
// target until more than `command_timeout` simulation seconds pass without a new one (exactly the
// timeout still holds); then the target is released exactly once (back to its own behaviour) and
// the timeout event fires after the release. The base class holds the topic, subscription, timing,
// events and errors; a subclass per command type decodes and validates its message and hands it to
// its target.
//
// Threading: transports may deliver messages on any thread; they are queued and handled, in
// arrival order, by update(now), which the simulation calls once per step before it moves. All
// events fire inside update(), start(), restart() and shutdown(), on the caller's thread.
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "ubot/core/time.h"
#include "ubot/ros2/messages.h"
#include "ubot/ros2/transport.h"

namespace ubot::ros2 {

struct CommandReceiverSettings {
  std::string identity;            // the robot's name: the namespace is this, sanitised
  std::string namespace_override;  // non-empty: replaces the namespace ("/" = root)
  std::string topic_override;      // non-empty: replaces the whole topic
  double command_timeout = 0.5;    // simulation seconds without a command; 0 disables
  bool auto_start = true;          // begin() subscribes; false: only start() / restart() do
  std::string target;              // object the automatic lookup finds; "" = identity (itself)
};

class CommandReceiver {
 public:
  using ErrorHandler = std::function<void(const std::string& message)>;
  using TimeoutHandler = std::function<void()>;

  CommandReceiver(Transport& transport, CommandReceiverSettings settings);
  virtual ~CommandReceiver();
  CommandReceiver(const CommandReceiver&) = delete;
  CommandReceiver& operator=(const CommandReceiver&) = delete;

  const CommandReceiverSettings& settings() const { return settings_; }
  // New settings; the topic changes at the next restart(), the timeout at once, the looked-up
  // target at the next update().
  void set_settings(CommandReceiverSettings settings);
  // The topic being subscribed to; when not subscribed, the one the next start will use.
  std::string resolved_topic() const;

  // Start of the run: subscribes if settings().auto_start, else waits for restart().
  void begin();
  // Subscribes (no-op when subscribed). On failure (invalid topic, transport error): false,
  // last_error() set and the error event fired. Clears last_error() first.
  bool start();
  // Unsubscribes and subscribes again with the current settings; the timeout clock continues.
  bool restart();
  // Unsubscribes; an active command still times out.
  void stop();
  // End of the run: unsubscribes and releases an active command (no timeout event).
  void shutdown();

  // Looks the target up again (when automatic), handles the messages received since the last
  // call, in order, at simulation time `now`, then releases the target if the command timed out
  // (more than command_timeout since the last valid command).
  void update(Nanos now);

  // From a valid command until its timeout (timeout disabled: ever after the first).
  bool is_active() const { return active_; }
  // Subscribed (whether or not any peer is there).
  bool is_ready() const { return subscription_ != nullptr; }
  // The latest error since the last start, or "".
  const std::string& last_error() const { return last_error_; }
  // Valid commands handled and timeouts fired so far.
  std::uint64_t command_count() const { return command_count_; }
  std::uint64_t timeout_count() const { return timeout_count_; }

  void set_on_error(ErrorHandler handler) { on_error_ = std::move(handler); }
  void set_on_timeout(TimeoutHandler handler) { on_timeout_ = std::move(handler); }

 protected:
  // Last topic segment, e.g. "cmd_vel".
  virtual std::string_view suffix() const = 0;
  // Subscribes to `topic` with command_qos(); received messages go to post().
  virtual std::unique_ptr<RawSubscription> open(Transport& transport, const std::string& topic) = 0;
  // Returns the target to its own behaviour (nothing without a target).
  virtual void release_target() = 0;
  // Called at the start of every update(): an automatic target is looked up again.
  virtual void refresh_target() {}

  // Queues a received message: `apply` validates it and hands it to the target at update()
  // time, returning "" or why it was rejected.
  void post(std::function<std::string()> apply);
  // Queues a sample that could not be decoded.
  void post_error(std::string error);
  // Reports an error now (last_error + event).
  void report_error(const std::string& message);

 private:
  struct Pending {
    std::function<std::string()> apply;
    std::string error;
  };
  // Releases an active command now (end of the run).
  void release_now();

  Transport& transport_;
  CommandReceiverSettings settings_;
  std::string topic_;  // subscribed topic
  std::unique_ptr<RawSubscription> subscription_;
  std::mutex mutex_;
  std::deque<Pending> pending_;
  bool active_ = false;
  Nanos last_command_ = 0;
  std::string last_error_;
  std::uint64_t command_count_ = 0;
  std::uint64_t timeout_count_ = 0;
  ErrorHandler on_error_;
  TimeoutHandler on_timeout_;
};

// What a cmd_vel receiver drives (the robot itself by default).
class TwistTarget {
 public:
  virtual ~TwistTarget() = default;
  // Takes a command; returns "" or why it is refused (unavailable, beyond limits).
  virtual std::string command(const Twist& twist) = 0;
  // Back to its own behaviour.
  virtual void release() = 0;
};

// geometry_msgs/Twist (or TwistStamped) on /<namespace>/cmd_vel.
//
// Target (the seed's Target Component): one set with set_target(), else the automatic lookup of
// the object named settings().target, or the robot itself (settings().identity) when that is
// empty. The lookup runs again at every update(), so an object that appears, disappears or is
// replaced under that name is followed. No target (the lookup finds none): messages are still
// decoded, events fire and the timeout runs.
class TwistCommandReceiver final : public CommandReceiver {
 public:
  // The drivable object named `name`, or nullptr when there is none.
  using TargetLookup = std::function<TwistTarget*(const std::string& name)>;

  TwistCommandReceiver(Transport& transport, CommandReceiverSettings settings,
                       TargetLookup lookup = {}, bool stamped = false);
  ~TwistCommandReceiver() override;

  // Drives `target` from now on; nullptr returns to the automatic lookup of the robot itself
  // (settings().target is cleared). A target that stops being the target is released; the
  // command stays active and its timeout clock runs on.
  void set_target(TwistTarget* target);
  // Where commands go now; nullptr: no target.
  TwistTarget* target() const { return target_; }
  // The latest valid command.
  const std::optional<Twist>& last_command() const { return last_command_; }

 protected:
  std::string_view suffix() const override { return "cmd_vel"; }
  std::unique_ptr<RawSubscription> open(Transport& transport, const std::string& topic) override;
  void release_target() override;
  void refresh_target() override;

 private:
  std::string apply(const Twist& twist);
  // Makes `target` the target, releasing the previous one.
  void switch_to(TwistTarget* target);

  TargetLookup lookup_;
  TwistTarget* chosen_ = nullptr;  // set_target(); nullptr: automatic lookup
  TwistTarget* target_ = nullptr;
  bool stamped_;
  std::optional<Twist> last_command_;
};

}  // namespace ubot::ros2
