#pragma once
// SIGINT / SIGTERM during `ubot run`: the first asks the run to stop (ubot::request_stop,
// ubot/core/stop.h): loading and building end at once, a step is cut short where it can be
// without changing the state, and every output is closed as at a normal end, within 2 s; a
// second one exits at once (the user insists), leaving the outputs as they are. A second signal
// within 0.1 s of the first is the same interrupt delivered twice (GNU timeout signals the process
// and then its group).
#include <csignal>

#include "ubot/core/stop.h"

namespace ubot::app {

// Installs the handlers for its lifetime (the previous ones are restored after).
class InterruptHandlers {
 public:
  InterruptHandlers();
  ~InterruptHandlers();
  InterruptHandlers(const InterruptHandlers&) = delete;
  InterruptHandlers& operator=(const InterruptHandlers&) = delete;

 private:
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
};

// The first signal received since the handlers were installed (SIGINT or SIGTERM), 0 if none.
int stop_signal();

// While on (loading the world and building the simulation, before the output folder is taken:
// nothing is written yet), the first signal exits the process at once from the handler, with
// "stopped before the first step, nothing written": unwinding a half-built world of 10^6
// objects took seconds, past the 2 s a stop may take.
void exit_at_once_on_signal(bool on);

// Ends a run stopped by a signal once its outputs are closed and its messages printed: stdio
// flushed, then _Exit, without freeing the world (seconds for a large one; the kernel takes the
// memory back at once).
[[noreturn]] void exit_now(int code);

// Before the first step (loading the world, building the simulation) a stop signal throws
// ubot::Stopped (throw_if_stop_requested): there is no step to finish, so the run ends there,
// having written nothing.

// The exit code of a run stopped by `signal`: 128 + its number (130 SIGINT, 143 SIGTERM), as a
// shell reports a process killed by it.
inline int interrupted_exit_code(int signal) { return 128 + signal; }

// "SIGINT" / "SIGTERM".
const char* signal_name(int signal);

}  // namespace ubot::app
