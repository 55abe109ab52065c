#include "ubot/core/stop.h"

#include <time.h>

#include <atomic>

namespace ubot {
namespace {

std::atomic<int> g_signal{0};
std::atomic<std::int64_t> g_requested_ns{0};
static_assert(std::atomic<int>::is_always_lock_free);
static_assert(std::atomic<std::int64_t>::is_always_lock_free);

std::int64_t monotonic_ns() noexcept {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);  // async-signal-safe (POSIX)
  return std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

}  // namespace

void request_stop(int signal) noexcept {
  int none = 0;
  // The time first, so that a reader who sees the signal sees its time.
  const std::int64_t now = monotonic_ns();
  if (g_signal.load() != 0) return;
  g_requested_ns.store(now);
  g_signal.compare_exchange_strong(none, signal);
}

int stop_requested() noexcept { return g_signal.load(std::memory_order_relaxed); }

void clear_stop() noexcept {
  g_signal.store(0);
  g_requested_ns.store(0);
}

std::int64_t finish_time_left_ns() noexcept {
  if (g_signal.load() == 0) return kFinishBudgetNs;
  return kFinishBudgetNs - (monotonic_ns() - g_requested_ns.load());
}

bool finish_budget_spent() noexcept { return finish_time_left_ns() <= 0; }

void throw_if_stop_requested() {
  if (const int signal = stop_requested(); signal != 0) throw Stopped{signal};
}

}  // namespace ubot
