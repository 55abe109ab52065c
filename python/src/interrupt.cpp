#include "interrupt.h"

#include <signal.h>

#include <mutex>

namespace ubot::python {
namespace {

std::mutex users_mutex;
int users = 0;
struct sigaction previous {};

// Async-signal-safe: an atomic store, then Python's own handler (which trips its flags and
// writes its wakeup byte, as it would have without us).
void forward(int signal) {
  request_stop(signal);
  if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN &&
      previous.sa_handler != nullptr) {
    previous.sa_handler(signal);
  }
}

}  // namespace

SigintForwarding::SigintForwarding() {
  std::lock_guard lock(users_mutex);
  if (users++ > 0) return;
  struct sigaction ours {};
  ours.sa_handler = forward;
  sigemptyset(&ours.sa_mask);
  sigaction(SIGINT, &ours, &previous);
}

SigintForwarding::~SigintForwarding() {
  std::lock_guard lock(users_mutex);
  if (--users > 0) return;
  sigaction(SIGINT, &previous, nullptr);
  // A request the work did not see (it had just finished) must not stop a later step: Python's
  // own flag still raises KeyboardInterrupt at the next bytecode.
  clear_stop();
}

void raise_interrupt() {
  clear_stop();
  if (PyErr_CheckSignals() != 0) throw pybind11::error_already_set();
  PyErr_SetNone(PyExc_KeyboardInterrupt);
  throw pybind11::error_already_set();
}

}  // namespace ubot::python
