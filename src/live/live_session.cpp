#include "ubot/live/live_session.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <thread>

#include "ubot/core/error.h"

namespace ubot::live {
namespace {

constexpr auto kSlice = std::chrono::milliseconds(50);  // the stop flag is looked at this often

std::string speed_refusal() {
  return fmt::format("must be a number in [0, {}] (× real time; 0 = as fast as possible)",
                     kMaxSpeed);
}
bool valid_speed(double v) { return std::isfinite(v) && v >= 0.0 && v <= kMaxSpeed; }

}  // namespace

void check_speed(double speed, std::string_view what) {
  if (!valid_speed(speed)) {
    throw Error(fmt::format("{}: {} is not in [0, {}] (× real time; 0 = as fast as possible)", what,
                            speed, kMaxSpeed));
  }
}

// ---- PlaybackClock -------------------------------------------------------------------------

void PlaybackClock::anchor(std::uint64_t log_ns, double speed, Clock::time_point wall) {
  anchored_ = true;
  speed_ = speed;
  time_ = log_ns;
  wall_ = wall;
}

std::uint64_t PlaybackClock::due(Clock::time_point wall) const {
  if (speed_ <= 0.0) return std::numeric_limits<std::uint64_t>::max();
  const double elapsed = std::max(0.0, std::chrono::duration<double>(wall - wall_).count());
  return time_ + to_nanos(elapsed * speed_);
}

PlaybackClock::Clock::time_point PlaybackClock::when(std::uint64_t log_ns) const {
  if (speed_ <= 0.0 || log_ns <= time_) return wall_;
  return wall_ + std::chrono::duration_cast<Clock::duration>(
                     std::chrono::duration<double>(to_seconds(log_ns - time_) / speed_));
}

bool PlaybackClock::sleep_until(std::uint64_t log_ns, const std::function<bool()>& stop) const {
  const Clock::time_point until = when(log_ns);
  while (Clock::now() < until) {
    if (stop && stop()) return false;
    std::this_thread::sleep_until(std::min(until, Clock::now() + kSlice));
  }
  return true;
}

// ---- LiveSession ---------------------------------------------------------------------------

LiveSession::LiveSession(LiveServerOptions server, SessionOptions options)
    : options_((check_speed(options.speed, options.what), std::move(options))),
      server_([&] {
        check_live_access(server.address, server.token, server.origin);
        server.playback_range = options_.range;
        return std::move(server);
      }()),
      speed_(options_.speed),
      position_(options_.range ? options_.range->start : 0) {
  server_.set_parameter_handlers([this] { return parameters(); },
                                 [this](const ParameterValue& p) { return set_parameter(p); });
  if (options_.range) {
    server_.set_playback_handler(
        [this](const PlaybackControlRequest& r) { return on_playback_control(r); });
    server_.broadcast_playback_state(playback_state("", false));
  }
}

bool LiveSession::paused() const {
  const std::lock_guard lock(mutex_);
  return paused_;
}
double LiveSession::speed() const {
  const std::lock_guard lock(mutex_);
  return speed_;
}
bool LiveSession::resting() const {
  const std::lock_guard lock(mutex_);
  return paused_ && steps_ == 0;
}
std::uint64_t LiveSession::generation() const {
  const std::lock_guard lock(mutex_);
  return generation_;
}
std::uint64_t LiveSession::position() const {
  const std::lock_guard lock(mutex_);
  return position_;
}
void LiveSession::set_position(std::uint64_t t) {
  const std::lock_guard lock(mutex_);
  // A pause holds the clock's time (hold_position); a message the loop was already playing when
  // it arrived does not take the playhead back (a seek sets position_ itself first).
  if (paused_ && t < position_) return;
  position_ = t;
}

// ---- what clients ask (the server's thread) ------------------------------------------------

std::vector<ParameterValue> LiveSession::parameters() const {
  const std::lock_guard lock(mutex_);
  std::vector<ParameterValue> out{{"/ubot/paused", paused_ ? "true" : "false"},
                                  {"/ubot/speed", fmt::format("{}", speed_)}};
  if (options_.range) out.push_back({"/ubot/seek", fmt::format("{}", to_seconds(position_))});
  return out;
}

// Under the lock, as a request arrives: a recording that plays is where its clock says, not
// where the loop last reported (the answer to a pause names the time it paused at).
void LiveSession::hold_position() {
  if (!options_.range || paused_ || speed_ <= 0.0 || !clock_.anchored()) return;
  position_ = std::clamp(clock_.due(Clock::now()), position_, options_.range->end);
}

std::string LiveSession::set_parameter(const ParameterValue& p) {
  const auto v = nlohmann::json::parse(p.value_json, nullptr, false);
  std::unique_lock lock(mutex_);
  hold_position();
  if (p.name == "/ubot/paused") {
    if (!v.is_boolean()) return "must be true or false";
    paused_ = v.get<bool>();
    steps_ = 0;
    if (!paused_) ended_ = false;
  } else if (p.name == "/ubot/speed") {
    if (!v.is_number() || !valid_speed(v.get<double>())) return speed_refusal();
    speed_ = v.get<double>();
  } else if (p.name == "/ubot/step" && options_.steps) {
    if (!v.is_number_integer() || v.get<std::int64_t>() < 1 || v.get<std::int64_t>() > 100000) {
      return "must be a whole number of steps in [1, 100000]";
    }
    paused_ = true;
    steps_ += v.get<int>();
  } else if (p.name == "/ubot/seek" && options_.range) {
    const double lo = to_seconds(options_.range->start), hi = to_seconds(options_.range->end);
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < lo ||
        v.get<double>() > hi) {
      return fmt::format("must be a time in the recording, [{:.3f}, {:.3f}] s", lo, hi);
    }
    seek_ = std::clamp(to_nanos(v.get<double>()), options_.range->start, options_.range->end);
    position_ = *seek_;
  } else if (p.name == "/ubot/step") {
    return "a recording has no steps to take: seek with /ubot/seek instead";
  } else {
    return options_.steps
               ? "unknown parameter (ubot has /ubot/paused, /ubot/speed and /ubot/step)"
               : "unknown parameter (ubot play has /ubot/paused, /ubot/speed and /ubot/seek)";
  }
  changed(lock, "", p.name == "/ubot/seek");
  return "";
}

std::string LiveSession::on_playback_control(const PlaybackControlRequest& r) {
  std::unique_lock lock(mutex_);
  hold_position();
  std::string refused;
  if (!valid_speed(r.speed)) {
    refused = fmt::format("speed {}: {}", r.speed, speed_refusal());
  } else if (r.seek_ns &&
             (*r.seek_ns < options_.range->start || *r.seek_ns > options_.range->end)) {
    refused = fmt::format("seek to {:.3f} s: not in the recording, [{:.3f}, {:.3f}] s",
                          to_seconds(*r.seek_ns), to_seconds(options_.range->start),
                          to_seconds(options_.range->end));
  }
  if (!refused.empty()) {
    // The client's request still gets its answer: the state, unchanged.
    const PlaybackState state = playback_state(r.request_id, false);
    lock.unlock();
    server_.broadcast_playback_state(state);
    return refused;
  }
  paused_ = r.command == PlaybackCommand::kPause;
  if (!paused_) ended_ = false;
  steps_ = 0;
  speed_ = r.speed;
  if (r.seek_ns) seek_ = position_ = *r.seek_ns;
  changed(lock, r.request_id, r.seek_ns.has_value());
  return "";
}

PlaybackState LiveSession::playback_state(const std::string& request_id, bool did_seek) const {
  return {.status = !paused_ ? PlaybackStatus::kPlaying
                    : ended_ ? PlaybackStatus::kEnded
                             : PlaybackStatus::kPaused,
          .current_ns = position_,
          .speed = static_cast<float>(speed_),
          .did_seek = did_seek,
          .request_id = request_id};
}

// Under `lock`: a change the loop must see, and the news of it to every client.
void LiveSession::changed(std::unique_lock<std::mutex>& lock, const std::string& request_id,
                          bool did_seek) {
  ++generation_;
  const PlaybackState state = playback_state(request_id, did_seek);
  lock.unlock();
  changed_.notify_all();
  server_.broadcast_parameters(parameters());
  if (options_.range) server_.broadcast_playback_state(state);
}

// ---- the source's loop ---------------------------------------------------------------------

bool LiveSession::wait_turn(const std::function<bool()>& stop, const std::function<void()>& idle) {
  std::unique_lock lock(mutex_);
  while (paused_ && steps_ == 0) {
    if (stop()) return false;
    if (idle) {
      lock.unlock();
      idle();
      lock.lock();
      if (!paused_ || steps_ > 0) break;
    }
    // Woken by a change, or every 50 ms to look at the stop flag (signals cannot notify).
    changed_.wait_for(lock, kSlice);
  }
  if (stop()) return false;
  if (paused_ && steps_ > 0) {
    --steps_;
    ++generation_;  // a single step is not paced against the steps before the pause
  }
  return true;
}

void LiveSession::pace(std::uint64_t t, const std::function<bool()>& stop) {
  std::unique_lock lock(mutex_);
  position_ = t;
  if (!clock_.anchored() || generation_ != clock_generation_) {
    clock_generation_ = generation_;
    clock_.anchor(t, speed_);  // this step ends the interval the new pace counts from
    return;
  }
  if (speed_ <= 0.0) return;
  const Clock::time_point until = clock_.when(t);
  while (Clock::now() < until && generation_ == clock_generation_) {
    lock.unlock();
    if (stop()) return;
    lock.lock();
    changed_.wait_until(lock, std::min(until, Clock::now() + kSlice),
                        [&] { return generation_ != clock_generation_; });
  }
}

LiveSession::Requests LiveSession::take_requests(std::uint64_t position) {
  const std::lock_guard lock(mutex_);
  Requests r;
  r.changed = generation_ != taken_generation_;
  taken_generation_ = generation_;
  r.seek = std::exchange(seek_, std::nullopt);
  r.position = position_;
  if (r.changed || !clock_.anchored()) clock_.anchor(r.seek.value_or(position), speed_);
  return r;
}

bool LiveSession::wait_until(std::uint64_t t) {
  std::unique_lock lock(mutex_);
  if (speed_ <= 0.0) return true;
  const Clock::time_point until = clock_.when(t);
  changed_.wait_until(lock, std::min(until, Clock::now() + kSlice),
                      [&] { return generation_ != taken_generation_; });
  return Clock::now() >= until;
}

std::uint64_t LiveSession::due() const {
  const std::lock_guard lock(mutex_);
  return paused_ ? position_ : clock_.due(Clock::now());  // a paused clock stands still
}

void LiveSession::wait_for_request() {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, kSlice, [&] { return generation_ != taken_generation_; });
}

void LiveSession::end() {
  std::unique_lock lock(mutex_);
  paused_ = true;
  ended_ = true;
  steps_ = 0;
  changed(lock);
}

void LiveSession::seek(std::uint64_t t) {
  std::unique_lock lock(mutex_);
  seek_ = position_ = t;
  changed(lock, "", true);
}

}  // namespace ubot::live
