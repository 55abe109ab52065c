#include "interrupt.h"

#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "ubot/core/stop.h"

namespace ubot::app {
namespace {

// A signal handler can only reach globals of these types (a lock-free atomic is
// async-signal-safe). The request itself is ubot::request_stop's, which long work reads.
std::atomic<std::int64_t> g_first_ns{0};
static_assert(std::atomic<std::int64_t>::is_always_lock_free);
std::atomic<bool> g_exit_at_once{false};
static_assert(std::atomic<bool>::is_always_lock_free);

// A second signal this soon after the first is the same interrupt delivered twice: GNU timeout
// signals ubot and then its process group, a terminal's Ctrl-C reaches every process of the
// group. A user who presses Ctrl-C again is slower than this.
constexpr std::int64_t kSameInterruptNs = 100'000'000;  // 0.1 s

std::int64_t monotonic_ns() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);  // async-signal-safe (POSIX)
  return std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

template <std::size_t N>
void say(const char (&message)[N]) {
  [[maybe_unused]] const ssize_t n = write(STDERR_FILENO, message, N - 1);
}

extern "C" void on_stop_signal(int signal) {
  // Only async-signal-safe calls here: clock_gettime(2), write(2), _exit(2) and
  // ubot::request_stop (lock-free atomics).
  const std::int64_t now = monotonic_ns();
  if (g_exit_at_once) {
    // Nothing written yet: unwinding a half-built world of 10^6 objects took seconds.
    if (signal == SIGINT) {
      say("\nubot: SIGINT: stopped before the first step, nothing written\n");
    } else {
      say("\nubot: SIGTERM: stopped before the first step, nothing written\n");
    }
    _exit(interrupted_exit_code(signal));
  }
  if (stop_requested() == 0) {
    g_first_ns = now;
    request_stop(signal);
    say("\nubot: stopping after the current step (interrupt again to exit at once)\n");
    return;
  }
  if (now - g_first_ns < kSameInterruptNs) return;
  say("\nubot: interrupted again: exiting at once, outputs not closed\n");
  _exit(interrupted_exit_code(signal));
}

struct sigaction install(int signal) {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // a write in progress goes on rather than failing with EINTR
  struct sigaction previous {};
  sigaction(signal, &action, &previous);
  return previous;
}

}  // namespace

InterruptHandlers::InterruptHandlers() {
  clear_stop();
  previous_int_ = install(SIGINT);
  previous_term_ = install(SIGTERM);
}

InterruptHandlers::~InterruptHandlers() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
}

int stop_signal() { return stop_requested(); }

void exit_at_once_on_signal(bool on) { g_exit_at_once = on; }

void exit_now(int code) {
  std::fflush(nullptr);
  std::_Exit(code);
}

const char* signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "a signal";
  }
}

}  // namespace ubot::app
