#pragma once
// IR-SIM's `orca` group behaviour (OrcaGroupBehavior,
// irsim/lib/behavior/group_behavior_methods.py).
#include <memory>
#include <span>

#include "ubot/world/group_behavior.h"

namespace ubot::detail {

std::unique_ptr<GroupBehavior> make_orca_group(const World& world, std::span<const int> members,
                                               const GroupBehaviorModel& config);

}  // namespace ubot::detail
