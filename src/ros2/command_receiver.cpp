#include "ubot/ros2/command_receiver.h"

#include <fmt/format.h>

#include <cmath>
#include <exception>

#include "ubot/ros2/names.h"

namespace ubot::ros2 {

CommandReceiver::CommandReceiver(Transport& transport, CommandReceiverSettings settings)
    : transport_(transport), settings_(std::move(settings)) {}

CommandReceiver::~CommandReceiver() = default;

void CommandReceiver::set_settings(CommandReceiverSettings settings) {
  settings_ = std::move(settings);
}

std::string CommandReceiver::resolved_topic() const {
  if (subscription_) return topic_;
  return resolve_topic(resolve_namespace(settings_.identity, settings_.namespace_override),
                       suffix(), settings_.topic_override);
}

void CommandReceiver::begin() {
  if (settings_.auto_start) start();
}

bool CommandReceiver::start() {
  if (subscription_) return true;
  last_error_.clear();
  const std::string topic = resolved_topic();
  if (const std::string invalid = validate_topic(topic); !invalid.empty()) {
    report_error(fmt::format("cannot subscribe: {}", invalid));
    return false;
  }
  try {
    subscription_ = open(transport_, topic);
  } catch (const std::exception& e) {
    report_error(fmt::format("cannot subscribe to {}: {}", topic, e.what()));
    return false;
  }
  topic_ = topic;
  return true;
}

bool CommandReceiver::restart() {
  stop();
  return start();
}

void CommandReceiver::stop() {
  subscription_.reset();
  topic_.clear();
}

void CommandReceiver::shutdown() {
  stop();
  {
    const std::lock_guard lock(mutex_);
    pending_.clear();
  }
  release_now();
}

void CommandReceiver::post(std::function<std::string()> apply) {
  const std::lock_guard lock(mutex_);
  pending_.push_back({std::move(apply), ""});
}

void CommandReceiver::post_error(std::string error) {
  const std::lock_guard lock(mutex_);
  pending_.push_back({nullptr, std::move(error)});
}

void CommandReceiver::report_error(const std::string& message) {
  last_error_ = message;
  if (on_error_) on_error_(message);
}

void CommandReceiver::release_now() {
  if (!active_) return;
  release_target();
  active_ = false;
}

void CommandReceiver::update(Nanos now) {
  refresh_target();
  std::deque<Pending> pending;
  {
    const std::lock_guard lock(mutex_);
    pending.swap(pending_);
  }
  for (const Pending& p : pending) {
    const std::string error = p.apply ? p.apply() : p.error;
    if (!error.empty()) {
      report_error(error);
      continue;
    }
    active_ = true;
    last_command_ = now;
    ++command_count_;
  }
  // Released once the timeout is exceeded: a command exactly `timeout` old still holds.
  const Nanos timeout = seconds_to_nanos(settings_.command_timeout);
  if (active_ && timeout > 0 && now - last_command_ > timeout) {
    release_target();
    active_ = false;
    ++timeout_count_;
    if (on_timeout_) on_timeout_();
  }
}

// ---- cmd_vel ------------------------------------------------------------------------------------

TwistCommandReceiver::TwistCommandReceiver(Transport& transport, CommandReceiverSettings settings,
                                           TargetLookup lookup, bool stamped)
    : CommandReceiver(transport, std::move(settings)),
      lookup_(std::move(lookup)),
      stamped_(stamped) {
  refresh_target();
}

TwistCommandReceiver::~TwistCommandReceiver() { stop(); }

void TwistCommandReceiver::set_target(TwistTarget* target) {
  chosen_ = target;
  if (!target) {  // the seed: null restores the automatic lookup on the robot itself
    CommandReceiverSettings s = settings();
    s.target.clear();
    set_settings(std::move(s));
  }
  refresh_target();
}

void TwistCommandReceiver::refresh_target() {
  if (chosen_) return switch_to(chosen_);
  const std::string& name = settings().target.empty() ? settings().identity : settings().target;
  switch_to(lookup_ ? lookup_(name) : nullptr);
}

void TwistCommandReceiver::switch_to(TwistTarget* target) {
  if (target == target_) return;
  // The old target must not keep driving on a command it no longer receives updates for.
  if (is_active() && target_) target_->release();
  target_ = target;
}

std::unique_ptr<RawSubscription> TwistCommandReceiver::open(Transport& transport,
                                                            const std::string& topic) {
  if (stamped_) {
    return subscribe<TwistStamped>(
        transport, topic, command_qos(), [this](const TwistStamped* m, std::string_view error) {
          if (!m) return post_error(fmt::format("malformed TwistStamped: {}", error));
          post([this, twist = m->twist] { return apply(twist); });
        });
  }
  return subscribe<Twist>(transport, topic, command_qos(),
                          [this](const Twist* m, std::string_view error) {
                            if (!m) return post_error(fmt::format("malformed Twist: {}", error));
                            post([this, twist = *m] { return apply(twist); });
                          });
}

std::string TwistCommandReceiver::apply(const Twist& twist) {
  const std::pair<const char*, double> fields[] = {
      {"linear.x", twist.linear.x},   {"linear.y", twist.linear.y},
      {"linear.z", twist.linear.z},   {"angular.x", twist.angular.x},
      {"angular.y", twist.angular.y}, {"angular.z", twist.angular.z}};
  for (const auto& [name, value] : fields) {
    if (!std::isfinite(value)) return fmt::format("invalid Twist: {} is {}", name, value);
  }
  if (target_) {
    if (std::string refused = target_->command(twist); !refused.empty()) return refused;
  }
  last_command_ = twist;
  return "";
}

void TwistCommandReceiver::release_target() {
  if (target_) target_->release();
}

}  // namespace ubot::ros2
