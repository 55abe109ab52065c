#include "ubot/live/live_replay.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "ubot/core/error.h"

namespace ubot::live {
namespace {

constexpr auto kPoll = std::chrono::milliseconds(50);           // stop flag, clients' requests
constexpr auto kStatusPeriod = std::chrono::milliseconds(100);  // /ubot/playback ≤ 10 Hz
constexpr auto kSubscriberCheck = std::chrono::milliseconds(20);
constexpr std::size_t kNone = static_cast<std::size_t>(-1);

double seconds(std::uint64_t ns) { return static_cast<double>(ns) * 1e-9; }
std::uint64_t nanos(double s) { return static_cast<std::uint64_t>(std::llround(s * 1e9)); }

// The server channel a recorded channel is advertised as: what it was recorded with.
ServerChannel server_channel(const McapReader& reader, const McapChannel& c) {
  ServerChannel out;
  out.topic = c.topic;
  out.encoding = c.message_encoding;
  if (const McapSchema* s = reader.schema_of(c)) {
    out.schema_name = s->name;
    out.schema = s->data;
    out.schema_encoding = s->encoding;
  }
  return out;
}

}  // namespace

LiveReplay::LiveReplay(McapReader& reader, LiveServerOptions server, ReplayOptions options)
    : reader_(reader),
      options_(options),
      server_([&] {
        check_live_access(server.address, server.token, server.origin);
        if (server.name == "ubot") server.name = "ubot play: " + reader.name();
        return std::move(server);
      }()),
      speed_(options.speed) {
  if (!std::isfinite(options.speed) || options.speed < 0 || options.speed > kMaxSpeed) {
    throw Error(fmt::format("--speed: {} is not in [0, {}] (× real time; 0 = as fast as possible)",
                            options.speed, kMaxSpeed));
  }
  std::map<std::uint16_t, std::size_t> slot;
  for (const auto& [id, channel] : reader.channels()) {
    slot[id] = mcap_ids_.size();
    mcap_ids_.push_back(id);
    server_ids_.push_back(server_.add_channel(server_channel(reader, channel)));
    counts_.push_back(server_.subscriber_count(server_ids_.back()));
  }
  seen_.assign(mcap_ids_.size(), 0);
  last_played_.assign(mcap_ids_.size(), kNone);
  slot_of_message_.reserve(reader.messages().size());
  for (const McapMessageRef& m : reader.messages()) slot_of_message_.push_back(slot.at(m.channel));

  playback_channel_ = server_.add_channel({.topic = "/ubot/playback",
                                           .encoding = "json",
                                           .schema_name = "ubot/Playback",
                                           .schema = "",
                                           .schema_encoding = "jsonschema"},
                                          /*latched=*/true);
  server_.set_publish_handler([](const ClientPublish& m) {
    return fmt::format("{}: a recording takes no commands (this is ubot play)", m.channel.topic);
  });
  server_.set_parameter_handlers([this] { return parameters(); },
                                 [this](const ParameterValue& p) { return set_parameter(p); });

  const std::uint64_t start = options.start ? nanos(*options.start) : reader.start_time();
  if (options.start && (start < reader.start_time() || start > reader.end_time())) {
    throw Error(fmt::format("--start: {} s is outside the recording ({:.3f} … {:.3f} s)",
                            *options.start, seconds(reader.start_time()),
                            seconds(reader.end_time())));
  }
  seek_to(start);
}

LiveReplay::~LiveReplay() = default;

std::vector<ParameterValue> LiveReplay::parameters() const {
  const std::lock_guard lock(mutex_);
  return {{"/ubot/paused", paused_ ? "true" : "false"},
          {"/ubot/speed", fmt::format("{}", speed_)},
          {"/ubot/seek", fmt::format("{}", seconds(shown_playhead_))}};
}

std::string LiveReplay::set_parameter(const ParameterValue& p) {
  const auto v = nlohmann::json::parse(p.value_json, nullptr, false);
  {
    const std::lock_guard lock(mutex_);
    if (p.name == "/ubot/paused") {
      if (!v.is_boolean()) return "must be true or false";
      paused_ = v.get<bool>();
    } else if (p.name == "/ubot/speed") {
      if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0.0 ||
          v.get<double>() > kMaxSpeed) {
        return fmt::format("must be a number in [0, {}] (× real time; 0 = as fast as possible)",
                           kMaxSpeed);
      }
      speed_ = v.get<double>();
    } else if (p.name == "/ubot/seek") {
      const double lo = seconds(reader_.start_time()), hi = seconds(reader_.end_time());
      if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < lo ||
          v.get<double>() > hi) {
        return fmt::format("must be a time in the recording, [{:.3f}, {:.3f}] s", lo, hi);
      }
      seek_ = nanos(v.get<double>());
      shown_playhead_ = *seek_;
    } else if (p.name == "/ubot/step") {
      return "a recording has no steps to take: seek with /ubot/seek instead";
    } else {
      return "unknown parameter (ubot play has /ubot/paused, /ubot/speed and /ubot/seek)";
    }
    ++generation_;
  }
  changed_.notify_all();
  server_.broadcast_parameters(parameters());
  return "";
}

void LiveReplay::anchor() {
  anchor_wall_ = Clock::now();
  anchor_time_ = playhead_;
}

std::uint64_t LiveReplay::due_playhead(Clock::time_point now, double speed) const {
  const double elapsed = std::chrono::duration<double>(now - anchor_wall_).count();
  return anchor_time_ + nanos(elapsed * speed);
}

// Messages up to `t` count as played: the next one is the first after it, and each channel's
// latest one at or before it is what a subscriber is shown.
void LiveReplay::seek_to(std::uint64_t t) {
  const auto& messages = reader_.messages();
  cursor_ = static_cast<std::size_t>(
      std::upper_bound(messages.begin(), messages.end(), t,
                       [](std::uint64_t x, const McapMessageRef& m) { return x < m.log_time; }) -
      messages.begin());
  std::fill(last_played_.begin(), last_played_.end(), kNone);
  for (std::size_t i = 0; i < cursor_; ++i) last_played_[slot_of_message_[i]] = i;
  playhead_ = t;
  ended_ = false;
  anchor();
  backfill_new_subscribers(/*all=*/true);
}

// Each channel a client subscribed to since the last look (all: every subscribed channel, after
// a seek) gets its latest played message, in log-time order.
void LiveReplay::backfill_new_subscribers(bool all) {
  std::vector<std::size_t> due;
  for (std::size_t k = 0; k < counts_.size(); ++k) {
    const int count = counts_[k]->load(std::memory_order_relaxed);
    if ((count > seen_[k] || (all && count > 0)) && last_played_[k] != kNone) {
      due.push_back(last_played_[k]);
    }
    seen_[k] = count;
  }
  std::sort(due.begin(), due.end());
  for (const std::size_t i : due) publish_message(i);
  last_subscriber_check_ = Clock::now();
}

void LiveReplay::publish_message(std::size_t index) {
  const std::size_t k = slot_of_message_[index];
  if (counts_[k]->load(std::memory_order_relaxed) == 0) return;  // nobody: not even read
  const McapMessageRef& m = reader_.messages()[index];
  const std::span<const std::uint8_t> bytes = reader_.payload(m);
  server_.publish(server_ids_[k], m.log_time,
                  std::make_shared<const std::string>(bytes.begin(), bytes.end()));
}

void LiveReplay::apply_requests() {
  std::optional<std::uint64_t> seek;
  bool changed = false;
  {
    const std::lock_guard lock(mutex_);
    changed = generation_ != applied_generation_;
    applied_generation_ = generation_;
    seek = std::exchange(seek_, std::nullopt);
  }
  if (seek)
    seek_to(*seek);
  else if (changed)
    anchor();  // a new pace counts from now
  if (changed) publish_playback(/*now=*/true);
}

std::string LiveReplay::playback_json() const {
  const std::lock_guard lock(mutex_);
  return nlohmann::json{{"file", reader_.name()},
                        {"start", seconds(reader_.start_time())},
                        {"end", seconds(reader_.end_time())},
                        {"t", seconds(shown_playhead_)},
                        {"paused", paused_},
                        {"speed", speed_},
                        {"loop", options_.loop},
                        {"messages", reader_.messages().size()},
                        {"played", shown_played_}}
      .dump();
}

void LiveReplay::publish_playback(bool now) {
  const auto wall = Clock::now();
  if (!now && wall - last_status_ < kStatusPeriod) return;
  {
    const std::lock_guard lock(mutex_);
    shown_playhead_ = playhead_;
    shown_played_ = cursor_;
  }
  last_status_ = wall;
  server_.publish(playback_channel_, playhead_,
                  std::make_shared<const std::string>(playback_json()));
  server_.publish_time(playhead_);
}

void LiveReplay::run(const std::function<bool()>& stop) {
  const auto& messages = reader_.messages();
  publish_playback(/*now=*/true);
  anchor();
  while (!stop()) {
    apply_requests();
    if (Clock::now() - last_subscriber_check_ >= kSubscriberCheck) backfill_new_subscribers(false);
    bool paused = false;
    double speed = 1.0;
    {
      const std::lock_guard lock(mutex_);
      paused = paused_;
      speed = speed_;
    }
    if (!paused && cursor_ == messages.size()) {
      if (options_.loop || ended_) {  // looping, or played again after the end
        seek_to(reader_.start_time());
        continue;
      }
      ended_ = true;
      const std::lock_guard lock(mutex_);
      paused_ = paused = true;
      ++generation_;
    }
    if (paused) {
      publish_playback(/*now=*/false);
      std::unique_lock lock(mutex_);
      changed_.wait_for(lock, kPoll, [&] { return generation_ != applied_generation_; });
      continue;
    }
    const McapMessageRef& next = messages[cursor_];
    const auto now = Clock::now();
    const std::uint64_t due = due_playhead(now, speed);
    if (speed > 0 && due < next.log_time) {
      // Not yet: show the time passing, then wait for the message, a request or the poll.
      playhead_ = std::max(playhead_, due);
      publish_playback(/*now=*/false);
      const double wait_s = seconds(next.log_time - due) / speed;
      const auto wait = std::min<Clock::duration>(
          kPoll,
          std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(wait_s)));
      std::unique_lock lock(mutex_);
      changed_.wait_for(lock, wait, [&] { return generation_ != applied_generation_; });
      continue;
    }
    playhead_ = next.log_time;
    last_played_[slot_of_message_[cursor_]] = cursor_;
    publish_message(cursor_++);
    publish_playback(/*now=*/false);
  }
}

}  // namespace ubot::live
