#include "interrupt.h"

#include <unistd.h>

#include <cstddef>

namespace ubot::app {
namespace {

// A signal handler can only reach a global of this type.
volatile std::sig_atomic_t g_signal = 0;

template <std::size_t N>
void say(const char (&message)[N]) {
  [[maybe_unused]] const ssize_t n = write(STDERR_FILENO, message, N - 1);
}

extern "C" void on_stop_signal(int signal) {
  // Only async-signal-safe calls here: write(2) and _exit(2).
  if (g_signal == 0) {
    g_signal = signal;
    say("\nubot: stopping after the current step (interrupt again to exit at once)\n");
    return;
  }
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
  g_signal = 0;
  previous_int_ = install(SIGINT);
  previous_term_ = install(SIGTERM);
}

InterruptHandlers::~InterruptHandlers() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
}

int stop_signal() { return g_signal; }

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
