#pragma once
// Random placement from Python's randomize spec (placement.cpp).
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "ubot/sim/random_placement.h"

namespace ubot::python {

// A spec checked by ubot._learning.resets.check_randomize, its names made ids of `world`.
PlacementSpec placement_spec(const WorldModel& world, const pybind11::dict& spec);
// place_randomly, its Error a ValueError starting with `who`. Needs no GIL.
void place_or_raise(Simulation& sim, const PlacementSpec& spec, std::uint64_t seed,
                    const std::string& who);

}  // namespace ubot::python
