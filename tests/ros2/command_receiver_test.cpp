// The command receiver against the in-memory transport (SPEC §12, seed "uBot ROS Command
// Receiver"): topic resolution, QoS, auto_start, timeout in simulation time (strictly more than
// the timeout) with exactly one release followed by the timeout event, errors,
// stop/restart/shutdown, the target's automatic lookup by name and no target.
#include "ubot/ros2/command_receiver.h"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <string>
#include <vector>

#include "ubot/ros2/fake_transport.h"

namespace ubot::ros2 {
namespace {

constexpr Nanos kStep = 100'000'000;  // 0.1 s

// Records what happens to it, in order, into a shared log.
class LoggingTarget : public TwistTarget {
 public:
  explicit LoggingTarget(std::vector<std::string>& log) : log_(log) {}
  std::string command(const Twist& t) override {
    if (refuse_above && t.linear.x > *refuse_above) return "too fast";
    log_.push_back("command " + std::to_string(t.linear.x));
    engaged = true;
    return "";
  }
  void release() override {
    log_.push_back("release");
    engaged = false;
  }
  std::optional<double> refuse_above;
  bool engaged = false;

 private:
  std::vector<std::string>& log_;
};

CommandReceiverSettings settings(std::string identity, std::string ns = "", std::string topic = "",
                                 double timeout = 0.5) {
  CommandReceiverSettings s;
  s.identity = std::move(identity);
  s.namespace_override = std::move(ns);
  s.topic_override = std::move(topic);
  s.command_timeout = timeout;
  return s;
}

Twist forward(double v) {
  Twist t;
  t.linear.x = v;
  return t;
}

class CommandReceiverTest : public ::testing::Test {
 protected:
  // The world of the automatic lookup: objects by name (robot_0 is the receiver's own robot).
  CommandReceiverTest()
      : target(log), receiver(transport, settings("robot_0"), [this](const std::string& name) {
          ++lookups;
          const auto it = objects.find(name);
          return it == objects.end() ? nullptr : it->second;
        }) {
    receiver.set_on_timeout([this] { log.push_back("timeout"); });
    receiver.set_on_error([this](const std::string& e) { log.push_back("error: " + e); });
  }
  // Runs update() at step k (time k * 0.1 s) after delivering what was injected.
  void step(int k) {
    transport.spin();
    receiver.update(k * kStep);
  }

  FakeTransport transport;
  std::vector<std::string> log;
  LoggingTarget target;
  std::map<std::string, TwistTarget*> objects{{"robot_0", &target}};
  int lookups = 0;
  TwistCommandReceiver receiver;
};

TEST_F(CommandReceiverTest, TopicIsResolvedBeforeStartAndSubscribedBestEffort) {
  EXPECT_EQ(receiver.resolved_topic(), "/robot_0/cmd_vel");
  EXPECT_FALSE(receiver.is_ready());
  EXPECT_EQ(transport.subscriber_count("/robot_0/cmd_vel"), 0);
  ASSERT_TRUE(receiver.start());
  EXPECT_TRUE(receiver.is_ready());
  ASSERT_EQ(transport.subscriber_count("/robot_0/cmd_vel"), 1);
  const Qos* qos = transport.subscription_qos("/robot_0/cmd_vel");
  EXPECT_EQ(qos->reliability, Reliability::kBestEffort);
  EXPECT_EQ(qos->durability, Durability::kVolatile);
  EXPECT_EQ(qos->depth, 10);
  EXPECT_TRUE(receiver.start());  // already subscribed: no second subscription
  EXPECT_EQ(transport.subscriber_count("/robot_0/cmd_vel"), 1);
}

TEST_F(CommandReceiverTest, OverridesAndSanitising) {
  auto topic = [this](CommandReceiverSettings s) {
    receiver.set_settings(s);
    return receiver.resolved_topic();
  };
  EXPECT_EQ(topic(settings("my robot-1")), "/my_robot_1/cmd_vel");
  EXPECT_EQ(topic(settings("r", "/fleet/a/")), "/fleet/a/cmd_vel");
  EXPECT_EQ(topic(settings("r", "/")), "/cmd_vel");
  EXPECT_EQ(topic(settings("r", "x", "teleop/cmd")), "/teleop/cmd");
  ASSERT_TRUE(receiver.start());
  EXPECT_EQ(transport.subscriber_count("/teleop/cmd"), 1);
}

TEST_F(CommandReceiverTest, CommandTimesOutAfterHalfASimSecondReleasingOnceThenEvent) {
  ASSERT_TRUE(receiver.start());
  transport.inject("/robot_0/cmd_vel", forward(0.5));
  step(0);
  EXPECT_TRUE(receiver.is_active());
  EXPECT_TRUE(target.engaged);
  // The command holds for the steps starting at 0.0 .. 0.5 s (exactly the timeout is not more
  // than it): released at 0.6 s, not before.
  for (int k = 1; k <= 5; ++k) {
    step(k);
    EXPECT_TRUE(receiver.is_active()) << k;
  }
  step(6);
  EXPECT_FALSE(receiver.is_active());
  EXPECT_FALSE(target.engaged);
  for (int k = 7; k < 20; ++k) step(k);
  EXPECT_EQ(log, (std::vector<std::string>{"command 0.500000", "release", "timeout"}));
  EXPECT_EQ(receiver.timeout_count(), 1u);
  EXPECT_EQ(receiver.command_count(), 1u);
}

TEST_F(CommandReceiverTest, ExactlyTheTimeoutHoldsOneNanosecondMoreReleases) {
  ASSERT_TRUE(receiver.start());
  const Nanos t0 = 1'234'567'891;
  const Nanos timeout = 500'000'000;  // the default 0.5 s
  transport.inject("/robot_0/cmd_vel", forward(0.5));
  transport.spin();
  receiver.update(t0);
  receiver.update(t0 + timeout);
  EXPECT_TRUE(receiver.is_active());
  EXPECT_TRUE(target.engaged);
  EXPECT_EQ(receiver.timeout_count(), 0u);
  receiver.update(t0 + timeout + 1);
  EXPECT_FALSE(receiver.is_active());
  EXPECT_FALSE(target.engaged);
  EXPECT_EQ(receiver.timeout_count(), 1u);
}

TEST_F(CommandReceiverTest, EachNewCommandRestartsTheTimeout) {
  ASSERT_TRUE(receiver.start());
  for (int k = 0; k < 10; ++k) {
    if (k % 3 == 0) transport.inject("/robot_0/cmd_vel", forward(0.1 * k));
    step(k);
  }
  EXPECT_TRUE(receiver.is_active());  // last command at 0.9 s
  for (int k = 10; k <= 14; ++k) step(k);
  EXPECT_TRUE(receiver.is_active());  // 1.4 s: exactly 0.5 s after the last command
  step(15);
  EXPECT_FALSE(receiver.is_active());
  EXPECT_EQ(receiver.timeout_count(), 1u);
}

TEST_F(CommandReceiverTest, CustomTimeoutIsInSimulationSeconds) {
  receiver.set_settings(settings("robot_0", "", "", 1.25));
  ASSERT_TRUE(receiver.start());
  transport.inject("/robot_0/cmd_vel", forward(0.5));
  step(0);
  for (int k = 1; k <= 12; ++k) step(k);
  EXPECT_TRUE(receiver.is_active());  // 1.2 s < 1.25 s
  step(13);                           // 1.3 s > 1.25 s
  EXPECT_FALSE(receiver.is_active());
}

TEST_F(CommandReceiverTest, ZeroTimeoutKeepsTheCommandForever) {
  receiver.set_settings(settings("robot_0", "", "", 0.0));
  ASSERT_TRUE(receiver.start());
  EXPECT_FALSE(receiver.is_active());
  transport.inject("/robot_0/cmd_vel", forward(0.5));
  for (int k = 0; k < 1000; ++k) step(k);
  EXPECT_TRUE(receiver.is_active());
  EXPECT_EQ(log, (std::vector<std::string>{"command 0.500000"}));
}

TEST_F(CommandReceiverTest, ShutdownReleasesAnActiveCommandWithoutTimeoutEvent) {
  ASSERT_TRUE(receiver.start());
  transport.inject("/robot_0/cmd_vel", forward(0.5));
  step(0);
  receiver.shutdown();
  EXPECT_FALSE(receiver.is_active());
  EXPECT_FALSE(receiver.is_ready());
  EXPECT_EQ(log, (std::vector<std::string>{"command 0.500000", "release"}));
  receiver.shutdown();  // nothing active any more: no second release
  EXPECT_EQ(log.size(), 2u);
}

TEST_F(CommandReceiverTest, NanInfAndMalformedAreErrorsAndDoNotDrive) {
  ASSERT_TRUE(receiver.start());
  Twist nan_twist;
  nan_twist.angular.z = std::numeric_limits<double>::quiet_NaN();
  Twist inf_twist;
  inf_twist.linear.y = std::numeric_limits<double>::infinity();
  transport.inject("/robot_0/cmd_vel", nan_twist);
  transport.inject("/robot_0/cmd_vel", inf_twist);
  transport.inject_malformed("/robot_0/cmd_vel", "truncated sample");
  step(0);
  EXPECT_FALSE(receiver.is_active());
  EXPECT_FALSE(target.engaged);
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0], "error: invalid Twist: angular.z is nan");
  EXPECT_EQ(log[1], "error: invalid Twist: linear.y is inf");
  EXPECT_EQ(log[2], "error: malformed Twist: truncated sample");
  EXPECT_EQ(receiver.last_error(), "malformed Twist: truncated sample");
  // A later valid command still works; an invalid one does not refresh the timeout.
  transport.inject("/robot_0/cmd_vel", forward(0.2));
  step(1);
  EXPECT_TRUE(receiver.is_active());
  transport.inject("/robot_0/cmd_vel", nan_twist);
  step(2);
  for (int k = 3; k <= 6; ++k) step(k);
  EXPECT_TRUE(receiver.is_active());  // 0.6 s: exactly 0.5 s after the valid command
  step(7);
  EXPECT_FALSE(receiver.is_active());
}

TEST_F(CommandReceiverTest, RefusingTargetIsAnError) {
  target.refuse_above = 1.0;
  ASSERT_TRUE(receiver.start());
  transport.inject("/robot_0/cmd_vel", forward(2.0));
  step(0);
  EXPECT_FALSE(receiver.is_active());
  EXPECT_EQ(receiver.last_error(), "too fast");
}

TEST_F(CommandReceiverTest, WithoutTargetItStillDecodesRaisesEventsAndTimesOut) {
  objects.clear();  // the lookup finds no robot_0
  step(0);
  EXPECT_EQ(receiver.target(), nullptr);
  ASSERT_TRUE(receiver.start());
  transport.inject("/robot_0/cmd_vel", forward(0.3));
  step(1);
  EXPECT_TRUE(receiver.is_active());
  ASSERT_TRUE(receiver.last_command().has_value());
  EXPECT_EQ(receiver.last_command()->linear.x, 0.3);
  for (int k = 2; k <= 7; ++k) step(k);
  EXPECT_FALSE(receiver.is_active());
  EXPECT_EQ(log, (std::vector<std::string>{"timeout"}));
}

TEST_F(CommandReceiverTest, TheRobotItselfIsLookedUpByNameAtEveryUpdate) {
  EXPECT_EQ(receiver.target(), &target);  // found at construction
  const int before = lookups;
  for (int k = 0; k < 3; ++k) step(k);
  EXPECT_EQ(lookups, before + 3);
  // Another object now answers to the name: the next update follows it.
  std::vector<std::string> other_log;
  LoggingTarget other(other_log);
  objects["robot_0"] = &other;
  ASSERT_TRUE(receiver.start());
  transport.inject("/robot_0/cmd_vel", forward(0.4));
  step(3);
  EXPECT_EQ(receiver.target(), &other);
  EXPECT_TRUE(other.engaged);
  EXPECT_FALSE(target.engaged);
}

TEST_F(CommandReceiverTest, ConfiguredTargetIsLookedUpByItsName) {
  std::vector<std::string> car_log;
  LoggingTarget car(car_log);
  objects["car"] = &car;
  CommandReceiverSettings s = settings("robot_0");
  s.target = "car";
  receiver.set_settings(s);
  ASSERT_TRUE(receiver.start());
  transport.inject("/robot_0/cmd_vel", forward(0.4));
  step(0);
  EXPECT_EQ(receiver.target(), &car);
  EXPECT_TRUE(car.engaged);
  EXPECT_FALSE(target.engaged);
}

TEST_F(CommandReceiverTest, ChangingTheTargetReleasesTheOldOneAndNullLooksTheRobotUpAgain) {
  ASSERT_TRUE(receiver.start());
  transport.inject("/robot_0/cmd_vel", forward(0.3));
  step(0);
  std::vector<std::string> other_log;
  LoggingTarget other(other_log);
  receiver.set_target(&other);
  EXPECT_EQ(receiver.target(), &other);
  EXPECT_FALSE(target.engaged);
  // The command is still active (seed: from a valid command until its timeout).
  EXPECT_TRUE(receiver.is_active());
  transport.inject("/robot_0/cmd_vel", forward(0.4));
  step(1);
  EXPECT_TRUE(other.engaged);
  EXPECT_EQ(receiver.target(), &other);  // a set target is kept: no lookup replaces it
  // nullptr: back to the automatic lookup of the robot itself, even with a configured target.
  CommandReceiverSettings s = settings("robot_0");
  s.target = "car";
  receiver.set_settings(s);
  receiver.set_target(nullptr);
  EXPECT_FALSE(other.engaged);
  EXPECT_EQ(receiver.target(), &target);
  EXPECT_EQ(receiver.settings().target, "");
  transport.inject("/robot_0/cmd_vel", forward(0.6));
  step(2);
  EXPECT_TRUE(target.engaged);
  EXPECT_EQ(log, (std::vector<std::string>{"command 0.300000", "release", "command 0.600000"}));
}

TEST_F(CommandReceiverTest, AutoStartSubscribesAtBeginElseOnlyRestartDoes) {
  EXPECT_TRUE(CommandReceiverSettings{}.auto_start);  // the seed's default
  receiver.begin();
  EXPECT_TRUE(receiver.is_ready());
  EXPECT_EQ(transport.subscriber_count("/robot_0/cmd_vel"), 1);

  CommandReceiverSettings s = settings("robot_1");
  s.auto_start = false;
  TwistCommandReceiver manual(transport, s);
  manual.begin();
  EXPECT_FALSE(manual.is_ready());
  EXPECT_EQ(transport.subscriber_count("/robot_1/cmd_vel"), 0);
  EXPECT_EQ(manual.resolved_topic(), "/robot_1/cmd_vel");
  transport.inject("/robot_1/cmd_vel", forward(0.5));  // nobody listens yet
  transport.spin();
  manual.update(0);
  EXPECT_FALSE(manual.is_active());
  ASSERT_TRUE(manual.restart());
  EXPECT_TRUE(manual.is_ready());
  transport.inject("/robot_1/cmd_vel", forward(0.5));
  transport.spin();
  manual.update(kStep);
  EXPECT_TRUE(manual.is_active());
}

TEST_F(CommandReceiverTest, StopUnsubscribesButTheActiveCommandStillTimesOut) {
  ASSERT_TRUE(receiver.start());
  transport.inject("/robot_0/cmd_vel", forward(0.5));
  step(0);
  receiver.stop();
  EXPECT_FALSE(receiver.is_ready());
  EXPECT_EQ(transport.subscriber_count("/robot_0/cmd_vel"), 0);
  transport.inject("/robot_0/cmd_vel", forward(0.9));  // nobody listens
  for (int k = 1; k <= 5; ++k) step(k);
  EXPECT_TRUE(receiver.is_active());
  step(6);
  EXPECT_FALSE(receiver.is_active());
  EXPECT_EQ(log, (std::vector<std::string>{"command 0.500000", "release", "timeout"}));
}

TEST_F(CommandReceiverTest, RestartResubscribesWithNewSettingsKeepingTheTimeoutClock) {
  ASSERT_TRUE(receiver.start());
  transport.inject("/robot_0/cmd_vel", forward(0.5));
  step(0);
  step(1);
  step(2);
  receiver.set_settings(settings("robot_0", "fleet/r0"));
  ASSERT_TRUE(receiver.restart());
  EXPECT_EQ(receiver.resolved_topic(), "/fleet/r0/cmd_vel");
  EXPECT_EQ(transport.subscriber_count("/robot_0/cmd_vel"), 0);
  EXPECT_EQ(transport.subscriber_count("/fleet/r0/cmd_vel"), 1);
  step(3);
  step(4);
  step(5);
  EXPECT_TRUE(receiver.is_active());
  step(6);  // the clock of the command at 0.0 s ran on through the restart
  EXPECT_FALSE(receiver.is_active());
  transport.inject("/fleet/r0/cmd_vel", forward(0.7));
  step(7);
  EXPECT_TRUE(receiver.is_active());
}

TEST_F(CommandReceiverTest, SubscribeFailureIsReportedAndLastErrorClearsOnStart) {
  transport.set_fail_subscribe(true);
  EXPECT_FALSE(receiver.start());
  EXPECT_FALSE(receiver.is_ready());
  EXPECT_EQ(receiver.last_error(),
            "cannot subscribe to /robot_0/cmd_vel: cannot create a reader for '/robot_0/cmd_vel'");
  ASSERT_EQ(log.size(), 1u);
  transport.set_fail_subscribe(false);
  EXPECT_TRUE(receiver.start());
  EXPECT_EQ(receiver.last_error(), "");
}

TEST_F(CommandReceiverTest, InvalidTopicOverrideFailsToSubscribe) {
  receiver.set_settings(settings("robot_0", "", "/bad topic"));
  EXPECT_FALSE(receiver.start());
  EXPECT_FALSE(receiver.is_ready());
  EXPECT_NE(receiver.last_error().find("cannot subscribe: topic '/bad topic'"), std::string::npos)
      << receiver.last_error();
  EXPECT_EQ(receiver.resolved_topic(), "/bad topic");
}

TEST_F(CommandReceiverTest, StampedReceiverTakesTwistStamped) {
  TwistCommandReceiver stamped(
      transport, settings("robot_1"), [this](const std::string&) { return &target; }, true);
  ASSERT_TRUE(stamped.start());
  TwistStamped m;
  m.header.frame_id = "robot_1/base_link";
  m.twist.linear.x = 0.25;
  transport.inject("/robot_1/cmd_vel", m);
  transport.inject("/robot_1/cmd_vel", forward(0.9));  // plain Twist: not this type
  transport.spin();
  stamped.update(0);
  EXPECT_TRUE(stamped.is_active());
  EXPECT_EQ(log, (std::vector<std::string>{"command 0.250000"}));
}

}  // namespace
}  // namespace ubot::ros2
