#include "ubot/live/live_replay.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "ubot/core/error.h"

namespace ubot::live {
namespace {

constexpr auto kStatusPeriod = std::chrono::milliseconds(100);  // /ubot/playback ≤ 10 Hz
constexpr auto kSubscriberCheck = std::chrono::milliseconds(20);
constexpr std::size_t kNone = static_cast<std::size_t>(-1);

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
      session_(
          [&] {
            if (server.name == "ubot") server.name = "ubot play: " + reader.name();
            return std::move(server);
          }(),
          {.speed = options.speed,
           .range = TimeRange{reader.start_time(), reader.end_time()},
           .what = "--speed"}),
      server_(session_.server()) {
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

  const std::uint64_t start = options.start ? to_nanos(*options.start) : reader.start_time();
  if (options.start && (start < reader.start_time() || start > reader.end_time())) {
    throw Error(fmt::format("--start: {} s is outside the recording ({:.3f} … {:.3f} s)",
                            *options.start, to_seconds(reader.start_time()),
                            to_seconds(reader.end_time())));
  }
  seek_to(start);
}

LiveReplay::~LiveReplay() = default;

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
  session_.set_position(t);
  ended_ = false;
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

std::string LiveReplay::playback_json() const {
  return nlohmann::json{{"file", reader_.name()},
                        {"start", to_seconds(reader_.start_time())},
                        {"end", to_seconds(reader_.end_time())},
                        {"t", to_seconds(session_.position())},
                        {"paused", session_.paused()},
                        {"speed", session_.speed()},
                        {"loop", options_.loop},
                        {"messages", reader_.messages().size()},
                        {"played", shown_played_.load()}}
      .dump();
}

void LiveReplay::publish_playback(bool now) {
  const auto wall = Clock::now();
  if (!now && wall - last_status_ < kStatusPeriod) return;
  session_.set_position(playhead_);
  shown_played_ = cursor_;
  last_status_ = wall;
  server_.publish(playback_channel_, playhead_,
                  std::make_shared<const std::string>(playback_json()));
  server_.publish_time(playhead_);
}

void LiveReplay::run(const std::function<bool()>& stop) {
  const auto& messages = reader_.messages();
  publish_playback(/*now=*/true);
  while (!stop()) {
    const LiveSession::Requests requests = session_.take_requests(playhead_);
    if (requests.seek) {
      seek_to(*requests.seek);
    } else if (requests.changed) {  // paused or re-paced where the session's clock had got to
      const std::uint64_t next =
          cursor_ < messages.size() ? messages[cursor_].log_time : reader_.end_time();
      playhead_ = std::max(playhead_, std::min(requests.position, next));
    }
    if (requests.changed) publish_playback(/*now=*/true);
    if (Clock::now() - last_subscriber_check_ >= kSubscriberCheck) backfill_new_subscribers(false);
    if (session_.paused()) {
      publish_playback(/*now=*/false);
      session_.wait_for_request();
      continue;
    }
    if (cursor_ == messages.size()) {
      if (options_.loop || ended_) {  // looping, or played again after the end
        session_.seek(reader_.start_time());
        continue;
      }
      ended_ = true;
      publish_playback(/*now=*/true);  // where it ended, before the session says it ended
      session_.end();
      continue;
    }
    const McapMessageRef& next = messages[cursor_];
    if (!session_.wait_until(next.log_time)) {
      // Not yet: show the time passing (a request, or the poll, ended the wait).
      playhead_ = std::max(playhead_, std::min(session_.due(), next.log_time));
      publish_playback(/*now=*/false);
      continue;
    }
    playhead_ = next.log_time;
    last_played_[slot_of_message_[cursor_]] = cursor_;
    publish_message(cursor_++);
    publish_playback(/*now=*/false);
  }
}

}  // namespace ubot::live
