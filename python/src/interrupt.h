#pragma once
// Ctrl-C during a long native call (issue 51): loading a large world, building its scene, making
// a VectorEnv's copies. Python's SIGINT handler only trips a flag the interpreter reads between
// bytecodes, so such a call used to be interrupted only when it returned. While `interruptible`
// runs its work, SIGINT also asks ubot's long work to stop (ubot::request_stop, which the loader,
// the scene build and the copies loop read), and still reaches Python's handler; the Stopped the
// work throws becomes what that handler raises (KeyboardInterrupt by default), within the 2 s
// every stop has (ubot/core/stop.h).
#include <pybind11/pybind11.h>

#include "ubot/core/stop.h"

namespace ubot::python {

// Installs the forwarding handler for its lifetime (nested and concurrent uses share one).
class SigintForwarding {
 public:
  SigintForwarding();
  ~SigintForwarding();
  SigintForwarding(const SigintForwarding&) = delete;
  SigintForwarding& operator=(const SigintForwarding&) = delete;
};

// The stop check of a native wait that runs without the GIL (a live view's pace or pause): it
// takes the GIL to let Python run its signal handlers; once one has raised (the error is then
// set, for error_already_set), it stays true.
class PendingSignal {
 public:
  bool operator()() {
    if (!raised_) {
      pybind11::gil_scoped_acquire gil;
      raised_ = PyErr_CheckSignals() != 0;
    }
    return raised_;
  }
  bool raised() const { return raised_; }

 private:
  bool raised_ = false;
};

// Raises what Python's handler raises for the pending signal, or KeyboardInterrupt.
[[noreturn]] void raise_interrupt();

// Also a progress callback for the loader: it stops there when asked.
inline void stop_point(std::string_view, std::uint64_t, std::uint64_t) {
  throw_if_stop_requested();
}

template <class Work>
auto interruptible(Work&& work) -> decltype(work()) {
  SigintForwarding forwarding;
  try {
    return work();
  } catch (const Stopped&) {
    raise_interrupt();
  }
}

}  // namespace ubot::python
