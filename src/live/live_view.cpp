#include "ubot/live/live_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "page_json.h"
#include "ubot/core/error.h"
#include "ubot/core/time.h"
#include "ubot/viz/run_drawing.h"

namespace ubot::live {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kFramePeriod = std::chrono::milliseconds(33);  // the page draws ≤ 30 frames/s
constexpr int kFrameDutyFactor = 50;  // a frame that took d waits ≥ 50 d: ≤ 2% of the run
// Beams /ubot/markers carries at most: every lidar thinned by one stride when there are more
// (DrawParts::beams_at_most: a scan keeps at least 16, and the scans past the budget are left out).
constexpr std::size_t kMaxBeams = 4000;

}  // namespace

// ---- LiveView ------------------------------------------------------------------------------

LiveView::LiveView(const Simulation& sim, LiveServerOptions options, double speed)
    : session_(
          [&] {
            if (options.name == "ubot") options.name = "ubot: " + sim.world().model().world.name;
            return std::move(options);
          }(),
          {.speed = speed, .steps = true, .range = std::nullopt, .what = "--realtime"}),
      server_(session_.server()),
      transport_(server_),
      drawing_(sim),
      object_count_(static_cast<int>(sim.world().size())) {
  world_channel_ = server_.add_channel({.topic = "/ubot/world",
                                        .encoding = "json",
                                        .schema_name = "ubot/World",
                                        .schema = "",
                                        .schema_encoding = "jsonschema"},
                                       /*latched=*/true);
  frame_channel_ = server_.add_channel({.topic = "/ubot/frame",
                                        .encoding = "json",
                                        .schema_name = "ubot/Frame",
                                        .schema = "",
                                        .schema_encoding = "jsonschema"});
  server_.set_publish_handler([this](const ClientPublish& m) { return on_publish(m); });
  transport_.set_time(sim.world().time_ns());
  bridge_ = std::make_unique<ros2::Bridge>(transport_, sim);
  bridge_->set_live_markers({.due = [this] { return frame_due_; }, .beams_at_most = kMaxBeams});
  server_.publish(world_channel_, static_cast<std::uint64_t>(sim.world().time_ns()),
                  std::make_shared<const std::string>(world_json(sim)));
  rate_since_ = Clock::now();
}

LiveView::~LiveView() { finish(); }

std::optional<std::span<const Command>> LiveView::turn(const Simulation& sim,
                                                       const std::function<bool()>& stop,
                                                       std::span<const Command> own) {
  session_.pace(static_cast<std::uint64_t>(sim.world().time_ns()), stop);
  const bool go = session_.wait_turn(stop, [&] {
    // While paused: a new selection, or a control that changed, is shown at once, and so is the
    // world to a client that starts watching it (the page opened on a paused run).
    const int world_watchers = transport_.world_subscriptions();
    const bool joined = world_watchers > paused_world_watchers_;
    paused_world_watchers_ = world_watchers;
    if (joined) {
      frame_due_ = true;
      bridge_->publish_world(sim);
    }
    const bool changed =
        selection_changed_.exchange(false) || session_.generation() != shown_generation_;
    if ((changed || joined) && server_.has_subscribers(frame_channel_)) publish_frame(sim);
  });
  if (!go) return std::nullopt;
  return commands(sim, own);
}

std::span<const Command> LiveView::commands(const Simulation& sim, std::span<const Command> own) {
  const std::span<const Command> from_clients = bridge_->commands(sim);
  if (own.empty()) return from_clients;
  merged_.assign(from_clients.begin(), from_clients.end());
  for (std::size_t i = 0; i < merged_.size() && i < own.size(); ++i) {
    if (!merged_[i]) merged_[i] = own[i];
  }
  return merged_;
}

void LiveView::finish() {
  if (bridge_) bridge_->shutdown();
}

std::string LiveView::on_publish(const ClientPublish& m) {
  if (m.channel.topic == "/ubot/select") {
    // {"ids": [0, 3]}: the objects this client shows in detail.
    const auto j = nlohmann::json::parse(m.payload.begin(), m.payload.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("ids") || !j["ids"].is_array()) {
      return "/ubot/select: expected {\"ids\": [object ids]}";
    }
    std::set<int> ids;
    for (const auto& id : j["ids"]) {
      if (!id.is_number_integer() || id.get<std::int64_t>() < 0 ||
          id.get<std::int64_t>() >= object_count_) {
        return fmt::format("/ubot/select: {} is not an object id (0 … {})", id.dump().substr(0, 32),
                           object_count_ - 1);
      }
      if (ids.size() < 16) ids.insert(id.get<int>());
    }
    const std::lock_guard lock(select_mutex_);
    selected_[m.client] = std::move(ids);
    selection_changed_ = true;
    return "";
  }
  return transport_.receive(m);
}

std::set<int> LiveView::selected() const {
  const std::lock_guard lock(select_mutex_);
  std::set<int> all;
  for (const auto& [client, ids] : selected_) all.insert(ids.begin(), ids.end());
  return all;
}

void LiveView::publish(const Simulation& sim) {
  const World& w = sim.world();
  transport_.set_time(w.time_ns());
  server_.publish_time(static_cast<std::uint64_t>(w.time_ns()));
  const auto now = Clock::now();
  if (now - rate_since_ >= std::chrono::seconds(1)) {
    const double wall = std::chrono::duration<double>(now - rate_since_).count();
    steps_per_second_ = static_cast<double>(w.step_count() - rate_step_) / wall;
    realtime_factor_ = steps_per_second_ * w.step_time();
    rate_since_ = now;
    rate_step_ = w.step_count();
  }
  // The page's pace (see the header), for its frame and for /ubot/markers alike: the step a
  // pause rests on is always shown.
  frame_due_ =
      session_.resting() ||
      now - last_frame_ >= std::max<Clock::duration>(kFramePeriod, kFrameDutyFactor * last_build_);
  // With no subscription to a ROS 2 channel nothing would be made anyway (the static transforms
  // are latched); the loop over every robot's topics is skipped too, and it is skipped while
  // the clients watch only the world (the page).
  const int json_subscriptions =
      *server_.subscriber_count(world_channel_) + *server_.subscriber_count(frame_channel_);
  const int world_subscriptions = transport_.world_subscriptions();
  const int others = server_.subscription_count() - json_subscriptions - world_subscriptions;
  if (others > 0) {
    bridge_->publish(sim);
  } else if (world_subscriptions > 0) {
    bridge_->publish_world(sim);
  }
  const bool page = server_.has_subscribers(frame_channel_);
  if (!frame_due_ || (!page && world_subscriptions == 0)) return;  // nothing made: still due
  if (page) publish_frame(sim);
  last_frame_ = now;
  last_build_ = Clock::now() - now;
}

void LiveView::publish_frame(const Simulation& sim) {
  shown_generation_ = session_.generation();
  auto frame = std::make_shared<const std::string>(frame_json(sim));
  server_.publish(frame_channel_, static_cast<std::uint64_t>(sim.world().time_ns()),
                  std::move(frame));
}

std::string LiveView::world_json(const Simulation& sim) const {
  std::vector<std::string> cmd_vel(sim.world().size());
  for (std::size_t id = 0; id < cmd_vel.size(); ++id) {
    if (ros2::TwistCommandReceiver* r = bridge_->receiver(static_cast<int>(id))) {
      cmd_vel[id] = r->resolved_topic();
    }
  }
  return page_world_json(sim, drawing_, cmd_vel);
}

std::string LiveView::frame_json(const Simulation& sim) {
  return page_frame_json(sim, drawing_,
                         {.paused = session_.paused(),
                          .speed = session_.speed(),
                          .steps_per_second = steps_per_second_,
                          .realtime_factor = realtime_factor_,
                          .selected = selected(),
                          .clients = server_.client_count()});
}

namespace {

class LiveSink final : public Sink {
 public:
  explicit LiveSink(LiveView& view) : view_(view) {}
  void on_start(const Simulation& sim) override { view_.publish(sim); }
  void on_step(const Simulation& sim, const StepInfo&) override { view_.publish(sim); }
  void on_finish(const Simulation&) override { view_.finish(); }

 private:
  LiveView& view_;
};

}  // namespace

std::unique_ptr<Sink> live_sink(LiveView& view) { return std::make_unique<LiveSink>(view); }

}  // namespace ubot::live
