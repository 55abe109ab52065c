#pragma once
// `ubot sweep ...`: the command line of the Python sweep runner (docs/sweeps.md). The sweeps run
// on Dask, which lives in Python, so this command only hands its arguments to
// `python3 -m ubot.sweep`.
#include <string>
#include <vector>

namespace ubot::app {

// Replaces this process by `$UBOT_PYTHON -m ubot.sweep ARGS...` (default /usr/bin/python3), with
// the build tree's package (`python/` beside this executable, when it holds ubot/) first on
// PYTHONPATH. Returns only when the interpreter cannot be started (exit code 1).
int run_sweep(const std::vector<std::string>& args);

}  // namespace ubot::app
